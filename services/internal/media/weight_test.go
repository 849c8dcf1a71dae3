package media

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
)

// decodeWeight follows the decoder's layout: JPEG chroma subsampling and
// progressive coefficients from the frame header, other formats by color
// model, plus the intermediate of the largest size.
func TestDecodeWeight(t *testing.T) {
	encode := func(img image.Image) []byte {
		var b bytes.Buffer
		if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 50}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	color420 := encode(gradient(64, 48))                                // Go's encoder: YCbCr 4:2:0
	gray := encode(image.NewGray(image.Rect(0, 0, 64, 48)))             // one component
	progressive := []byte{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 'J', 'F', // APP0, then SOF2 4:4:4
		0xFF, 0xC2, 0x00, 0x11, 8, 0x0B, 0xB8, 0x0F, 0xA0, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1}
	const px = 4000 * 3000
	inter := int64(2048*1536*4 + decodeOverhead)
	tests := []struct {
		name   string
		data   []byte
		format string
		model  color.Model
		want   int64
	}{
		{"jpeg 4:2:0", color420, "jpeg", color.YCbCrModel, px*3/2 + inter},
		{"jpeg gray", gray, "jpeg", color.GrayModel, px + inter},
		{"jpeg progressive 4:4:4", progressive, "jpeg", color.YCbCrModel, px*3*3 + inter},
		{"jpeg unreadable header", []byte{0xFF, 0xD8, 0x00}, "jpeg", color.YCbCrModel, px*4 + inter},
		{"png rgba", nil, "png", color.NRGBAModel, px*4 + inter},
		{"png 16-bit", nil, "png", color.NRGBA64Model, px*8 + inter},
		{"gif", nil, "gif", color.Palette{color.Black}, px + inter},
	}
	for _, tc := range tests {
		if got := decodeWeight(bytes.NewReader(tc.data), int64(len(tc.data)), tc.format, tc.model, 4000, 3000); got != tc.want+encodedBytes(4000, 3000, tc.format) {
			t.Errorf("%s: weight %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := decodeWeight(bytes.NewReader(color420), int64(len(color420)), "jpeg", color.YCbCrModel, 64, 48); got != 64*48*3/2+64*48*4+decodeOverhead+encodedBytes(64, 48, "jpeg") {
		t.Errorf("small image: weight %d (the intermediate is at most the image)", got)
	}
}

// The weight covers what generating the sizes of a 12-megapixel JPEG really
// holds: the peak heap during GenerateSizes stays under the heap before
// plus the weight.
func TestDecodeWeightCoversThePeak(t *testing.T) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, gradient(4000, 3000), &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	weight := decodeWeight(bytes.NewReader(data), int64(len(data)), format, cfg.ColorModel, 4000, 3000)
	if weight > DefaultDecodeBytes {
		t.Fatalf("a 12 MP JPEG weighs %d MiB, over the default budget", weight>>20)
	}
	var out []encodedSize
	held := heldDuring(t, func() {
		out, err = NewProcessor(1, 0, DefaultMaxPixels).GenerateSizes(context.Background(), bytes.NewReader(data), int64(len(data)), "image/jpeg", 1, imageSizes)
	})
	if err != nil || len(out) != 6 {
		t.Fatalf("%d sizes, %v", len(out), err)
	}
	if held > weight {
		t.Errorf("generating the sizes held %d MiB, the weight is %d MiB", held>>20, weight>>20)
	} else {
		t.Logf("held %d MiB at the peak, weight %d MiB", held>>20, weight>>20)
	}
}

package media

import (
	"bytes"
	"image"
	"testing"

	"golang.org/x/image/draw"
)

// A crop is downscaled from a view of the intermediate (no copy): the pixels
// are the same as from a copy of the crop, so generated files are unchanged.
func TestDownscaleCropViewEqualsCopy(t *testing.T) {
	src := gradient(2048, 1536)
	for _, c := range []struct {
		sr   image.Rectangle
		w, h int
	}{{image.Rect(256, 0, 1792, 1536), 150, 150}, {image.Rect(100, 37, 1900, 1500), 300, 240}, {image.Rect(3, 5, 1003, 1005), 700, 700}} {
		old := image.NewRGBA(image.Rect(0, 0, c.sr.Dx(), c.sr.Dy()))
		draw.Draw(old, old.Bounds(), src, c.sr.Min, draw.Src)
		a := downscale(old, old.Bounds(), c.w, c.h)
		b := downscale(src, c.sr, c.w, c.h)
		if !bytes.Equal(a.Pix, b.Pix) || a.Bounds().Size() != b.Bounds().Size() {
			t.Fatalf("crop %v differs", c.sr)
		}
	}
}

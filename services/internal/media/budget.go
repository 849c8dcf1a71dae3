package media

import (
	"context"
	"encoding/binary"
	"image/color"
	"io"
)

// DefaultDecodeBytes is the decode budget of a processor: one 12-megapixel
// JPEG at a time (see Processor).
const DefaultDecodeBytes = 40 << 20

// maxIntermediateSide is the largest side of the RGBA intermediate sizesOf
// keeps (the 2048x2048 size); a smaller image is copied to RGBA whole.
const maxIntermediateSide = 2048

// decodeWeight is what decoding the w×h image src (of format, as
// image.DecodeConfig names it) and generating its sizes holds at its peak.
func decodeWeight(src io.ReaderAt, size int64, format string, model color.Model, w, h int) int64 {
	iw, ih := int64(w), int64(h)
	if long := max(iw, ih); long > maxIntermediateSide {
		iw, ih = (iw*maxIntermediateSide+long-1)/long, (ih*maxIntermediateSide+long-1)/long
	}
	return decodedBytes(src, size, format, model, int64(w)*int64(h)) + iw*ih*4 + decodeOverhead
}

// decodeOverhead is what a decode holds beside its pixels: the reader's
// buffers and the encoded sizes until they are stored.
const decodeOverhead = 4 << 20

// decodedBytes is the size of the decoded image: for a JPEG from its
// frame header's sampling factors (image/jpeg keeps the subsampled planes,
// and a progressive file's coefficients, 2 bytes per sample, until the
// end), else from the color model's bytes per pixel.
func decodedBytes(src io.ReaderAt, size int64, format string, model color.Model, px int64) int64 {
	if format == "jpeg" {
		samples, progressive, ok := jpegSamples(src, size)
		if !ok {
			return px * 4 // CMYK or unknown: the widest layout
		}
		b := int64(samples * float64(px))
		if progressive {
			b *= 3
		}
		return b
	}
	switch model {
	case color.GrayModel, color.AlphaModel:
		return px
	case color.Gray16Model, color.Alpha16Model:
		return 2 * px
	case color.RGBA64Model, color.NRGBA64Model:
		return 8 * px
	}
	if _, ok := model.(color.Palette); ok {
		return px
	}
	return 4 * px
}

// jpegSamples reads a JPEG's frame header: the samples per pixel of its
// components (1 gray, 1.5 YCbCr 4:2:0, 3 YCbCr 4:4:4) and whether it is
// progressive. ok is false for a file it cannot read or one with four
// components (CMYK, decoded to 4 bytes a pixel plus its planes).
func jpegSamples(src io.ReaderAt, size int64) (samples float64, progressive, ok bool) {
	var hdr [4]byte
	for off := int64(2); off+4 <= size; {
		if _, err := src.ReadAt(hdr[:], off); err != nil || hdr[0] != 0xFF {
			return 0, false, false
		}
		marker := hdr[1]
		if marker == 0xFF { // fill byte
			off++
			continue
		}
		if marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8) {
			off += 2
			continue
		}
		n := int64(binary.BigEndian.Uint16(hdr[2:]))
		if marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
			sof := make([]byte, min(n-2, 6+3*4))
			if n < 8 || off+4+int64(len(sof)) > size {
				return 0, false, false
			}
			if _, err := src.ReadAt(sof, off+4); err != nil {
				return 0, false, false
			}
			nc := int(sof[5])
			if nc < 1 || nc > 3 || len(sof) < 6+3*nc {
				return 0, false, false
			}
			var hmax, vmax, sum int
			for i := range nc {
				hv := int(sof[6+3*i+1])
				hmax, vmax = max(hmax, hv>>4), max(vmax, hv&15)
			}
			if hmax == 0 || vmax == 0 {
				return 0, false, false
			}
			for i := range nc {
				hv := int(sof[6+3*i+1])
				sum += (hv >> 4) * (hv & 15)
			}
			return float64(sum) / float64(hmax*vmax), marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE, true
		}
		if marker == 0xDA || marker == 0xD9 || n < 2 {
			return 0, false, false
		}
		off += 2 + n
	}
	return 0, false, false
}

// acquire waits for a decode slot and for weight bytes of the budget (all
// of it when weight is larger); the returned release gives both back.
func (p *Processor) acquire(ctx context.Context, weight int64) (release func(), err error) {
	weight = min(weight, p.DecodeBytes)
	if err := p.pixels.Acquire(ctx, weight); err != nil {
		return nil, err
	}
	select {
	case p.sem <- struct{}{}:
		return func() { <-p.sem; p.pixels.Release(weight) }, nil
	case <-ctx.Done():
		p.pixels.Release(weight)
		return nil, ctx.Err()
	}
}

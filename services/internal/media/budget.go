package media

import (
	"context"
	"encoding/binary"
	"errors"
	"image/color"
	"io"
	"math"
)

// DefaultDecodeBytes is the decode budget of a process without a memory
// limit, the same as under the media process's own default limit
// (DefaultMemoryLimit, 160 MiB).
const DefaultDecodeBytes = 140 << 20

// The budget leaves the process a reserve for everything but decodes
// (requests, connections, pools, the runtime): an eighth of the limit, at
// least 8 MiB — what the process was measured to hold beside its decodes
// under eight concurrent uploads (docs/performance.md).
const (
	minReserve = 8 << 20
	minBudget  = 1 << 20
)

// DecodeBudget is what decodes may hold together in a process whose soft
// memory limit is limit (what debug.SetMemoryLimit(-1) reports; MaxInt64
// when none is set): the limit less the reserve. explicit, when positive
// (SITEPLANE_MEDIA_DECODE_BYTES), lowers it, and replaces it when the
// process has no limit. Whatever sets the limit — GOMEMLIMIT from the
// operator, the container's limit, the service's default — the budget
// follows it, so no admitted decode can push the heap past the limit.
func DecodeBudget(limit, explicit int64) int64 {
	if limit <= 0 || limit == math.MaxInt64 {
		if explicit > 0 {
			return explicit
		}
		return DefaultDecodeBytes
	}
	budget := max(limit-max(minReserve, limit/8), minBudget)
	if explicit > 0 {
		budget = min(budget, explicit)
	}
	return budget
}

// maxIntermediateSide is the largest side of the RGBA intermediate sizesOf
// keeps (the 2048x2048 size); a smaller image is copied to RGBA whole.
const maxIntermediateSide = 2048

// decodeWeight is what decoding the w×h image src (of format, as
// image.DecodeConfig names it) and generating its sizes holds at its peak.
func decodeWeight(src io.ReaderAt, size int64, format string, model color.Model, w, h int) int64 {
	iw, ih := intermediateSize(w, h)
	return decodedBytes(src, size, format, model, int64(w)*int64(h)) + iw*ih*4 + encodedBytes(w, h, format) + decodeOverhead
}

// encodedBytes bounds the generated sizes of a w×h image of format, held
// until they are stored: every size's pixels at what its encoding may take
// (PNG, and WebP whose sizes may be PNG: 4 bytes a pixel, incompressible
// at worst; GIF one; JPEG at quality 82 half a byte).
func encodedBytes(w, h int, format string) int64 {
	var px int64
	for _, s := range imageSizes {
		if dw, dh, _, ok := resizeDims(w, h, s); ok {
			px += int64(dw) * int64(dh)
		}
	}
	switch format {
	case "png", "webp":
		return 4 * px
	case "gif":
		return px
	}
	return px / 2
}

// decodeOverhead is what a decode holds beside its pixels and encoded
// sizes: the readers' and encoders' buffers.
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
	b := 4 * px
	switch model {
	case color.GrayModel, color.AlphaModel:
		b = px
	case color.Gray16Model, color.Alpha16Model:
		b = 2 * px
	case color.RGBA64Model, color.NRGBA64Model:
		b = 8 * px
	default:
		if _, ok := model.(color.Palette); ok {
			b = px
		}
	}
	if format == "png" && pngInterlaced(src, size) {
		// image/png decodes each Adam7 pass into an image of its own
		// before merging it: the last pass is half the pixels
		b += b / 2
	}
	return b
}

// pngInterlaced reads the interlace method of a PNG's IHDR chunk.
func pngInterlaced(src io.ReaderAt, size int64) bool {
	var b [1]byte
	const at = 8 + 8 + 12 // signature, chunk length and type, then width, height, depth, type, compression, filter
	if size <= at {
		return false
	}
	_, err := src.ReadAt(b[:], at)
	return err == nil && b[0] == 1
}

// editWeight is what an edit holds at its peak: the decoded original
// (decoded bytes), then for each step the image it reads and the RGBA
// image it writes (the upright turn of the EXIF orientation, then each
// modifier: a rotation by any angle writes a larger canvas), and finally
// the result with the intermediate of its sizes. The encoded result goes
// to a spool file, not the heap.
func editWeight(decoded int64, format string, w, h, orientation int, mods []modifier) int64 {
	cur, peak := decoded, decoded
	step := func(nw, nh int) {
		out := 4 * int64(nw) * int64(nh)
		peak = max(peak, cur+out)
		cur, w, h = out, nw, nh
	}
	if orientation >= 2 && orientation <= 8 {
		if orientation >= 5 {
			step(h, w)
		} else {
			step(w, h)
		}
	}
	for _, m := range mods {
		switch m.kind {
		case "flip":
			if m.horizontal || m.vertical {
				step(w, h)
			}
		case "rotate":
			angle := math.Mod(m.angle, 360)
			if angle < 0 {
				angle += 360
			}
			switch {
			case angle == 0:
			case angle == 90 || angle == 270:
				step(h, w)
			case angle == 180:
				step(w, h)
			default:
				step(rotatedSize(w, h, angle))
			}
		case "crop":
			cw, ch := min(int(roundHalfUp(float64(w)*m.width/100)), w), min(int(roundHalfUp(float64(h)*m.height/100)), h)
			if cw != w || ch != h {
				step(max(cw, 0), max(ch, 0))
			}
		}
	}
	iw, ih := intermediateSize(w, h)
	return max(peak, cur+iw*ih*4+encodedBytes(w, h, format)+decodeOverhead)
}

// intermediateSize is the size of the RGBA intermediate sizesOf keeps for
// a w×h image.
func intermediateSize(w, h int) (int64, int64) {
	iw, ih := int64(w), int64(h)
	if long := max(iw, ih); long > maxIntermediateSide {
		iw, ih = (iw*maxIntermediateSide+long-1)/long, (ih*maxIntermediateSide+long-1)/long
	}
	return iw, ih
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

// errOverBudget is returned, before anything is decoded, for work that
// would hold more than the whole decode budget: it cannot run within the
// process's memory, alone or not.
var errOverBudget = errors.New("image needs more memory than the decode budget")

// acquire waits for a decode slot and for weight bytes of the budget; the
// returned release gives both back. Work heavier than the whole budget is
// refused at once (errOverBudget).
func (p *Processor) acquire(ctx context.Context, weight int64) (release func(), err error) {
	if weight > p.DecodeBytes {
		return nil, errOverBudget
	}
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

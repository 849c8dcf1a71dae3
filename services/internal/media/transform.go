package media

import (
	"errors"
	"image"
	"image/color"
	"math"

	"golang.org/x/image/draw"
	"golang.org/x/image/math/f64"
)

// orient returns img turned upright for the EXIF orientation (1..8).
func orient(img image.Image, o int) image.Image {
	switch o {
	case 2:
		return transform(img, false, true, false)
	case 3:
		return transform(img, false, true, true)
	case 4:
		return transform(img, false, false, true)
	case 5:
		return transform(img, true, false, false)
	case 6:
		return transform(img, true, true, false)
	case 7:
		return transform(img, true, true, true)
	case 8:
		return transform(img, true, false, true)
	}
	return img
}

// rotateCW turns img clockwise by a multiple of 90 degrees.
func rotateCW(img image.Image, quarter int) image.Image {
	switch ((quarter % 4) + 4) % 4 {
	case 1:
		return transform(img, true, true, false)
	case 2:
		return transform(img, false, true, true)
	case 3:
		return transform(img, true, false, true)
	}
	return img
}

// maxRotatedPixels bounds the canvas of a rotation by an arbitrary angle
// (it grows by up to 2× for 45°).
const maxRotatedPixels = 100_000_000

// rotateAny turns img clockwise by angle degrees (not a multiple of 90) onto
// a canvas that holds the whole result; the corners are transparent, or
// white when the result is stored as JPEG (which has no transparency).
func rotateAny(img image.Image, angle float64, opaqueOut bool) (image.Image, error) {
	b := img.Bounds()
	rad := angle * math.Pi / 180
	sin, cos := math.Sin(rad), math.Cos(rad)
	w, h := float64(b.Dx()), float64(b.Dy())
	ow, oh := rotatedSize(b.Dx(), b.Dy(), angle)
	if ow < 1 || oh < 1 || int64(ow)*int64(oh) > maxRotatedPixels {
		return nil, errors.New("rotated image too large")
	}
	dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
	if opaqueOut {
		draw.Draw(dst, dst.Bounds(), image.White, image.Point{}, draw.Src)
	}
	// dst = R·(src − source centre) + destination centre; y points down,
	// so this R turns clockwise on screen.
	csx, csy := float64(b.Min.X)+w/2, float64(b.Min.Y)+h/2
	cdx, cdy := float64(ow)/2, float64(oh)/2
	m := f64.Aff3{cos, -sin, cdx - (cos*csx - sin*csy), sin, cos, cdy - (sin*csx + cos*csy)}
	draw.ApproxBiLinear.Transform(dst, m, img, b, draw.Over, nil)
	return dst, nil
}

// rotatedSize is the canvas that holds a w×h image turned by angle degrees.
func rotatedSize(w, h int, angle float64) (int, int) {
	rad := angle * math.Pi / 180
	sin, cos := math.Abs(math.Sin(rad)), math.Abs(math.Cos(rad))
	fw, fh := float64(w), float64(h)
	return int(math.Ceil(fw*cos + fh*sin - 1e-9)), int(math.Ceil(fw*sin + fh*cos - 1e-9))
}

// flip mirrors img: horizontal swaps left and right, vertical top and bottom.
func flip(img image.Image, horizontal, vertical bool) image.Image {
	if !horizontal && !vertical {
		return img
	}
	return transform(img, false, horizontal, vertical)
}

// transform copies img into a new image: transpose first (swap x and y),
// then mirror x and/or y of the result. Every orientation and quarter turn
// is one of these eight.
func transform(img image.Image, transpose, mirrorX, mirrorY bool) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	ow, oh := w, h
	if transpose {
		ow, oh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
	rgba, isRGBA := img.(*image.RGBA)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := x, y
			if transpose {
				dx, dy = y, x
			}
			if mirrorX {
				dx = ow - 1 - dx
			}
			if mirrorY {
				dy = oh - 1 - dy
			}
			if isRGBA {
				si := rgba.PixOffset(b.Min.X+x, b.Min.Y+y)
				di := dst.PixOffset(dx, dy)
				copy(dst.Pix[di:di+4], rgba.Pix[si:si+4])
				continue
			}
			dst.Set(dx, dy, color.RGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)))
		}
	}
	return dst
}

// cropPercent crops img to the rectangle given in percent of its size
// (§6.6: pixels = round(size × pct / 100)).
func cropPercent(img image.Image, left, top, width, height float64) (image.Image, error) {
	b := img.Bounds()
	w, h := float64(b.Dx()), float64(b.Dy())
	x := int(roundHalfUp(w * left / 100))
	y := int(roundHalfUp(h * top / 100))
	cw := int(roundHalfUp(w * width / 100))
	ch := int(roundHalfUp(h * height / 100))
	if cw == b.Dx() && ch == b.Dy() {
		return img, nil
	}
	r := image.Rect(x, y, x+cw, y+ch).Add(b.Min).Intersect(b)
	if r.Empty() {
		return nil, errors.New("the crop is empty")
	}
	dst := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(dst, dst.Bounds(), img, r.Min, draw.Src)
	return dst, nil
}

func roundHalfUp(v float64) float64 {
	if v < 0 {
		return -roundHalfUp(-v)
	}
	return float64(int64(v + 0.5))
}

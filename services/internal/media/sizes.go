package media

import "math"

// imageSize is one of WordPress's registered intermediate sizes.
type imageSize struct {
	Name          string
	Width, Height int
	Crop          bool
}

// imageSizes are WordPress's default sizes (thumbnail, medium,
// medium_large, large and the two retina sizes of 5.3), largest last.
var imageSizes = []imageSize{
	{"thumbnail", 150, 150, true},
	{"medium", 300, 300, false},
	{"medium_large", 768, 0, false},
	{"large", 1024, 1024, false},
	{"1536x1536", 1536, 1536, false},
	{"2048x2048", 2048, 2048, false},
}

func sizeByName(name string) (imageSize, bool) {
	for _, s := range imageSizes {
		if s.Name == name {
			return s, true
		}
	}
	return imageSize{}, false
}

// rect is a crop rectangle in the source image.
type rect struct{ X, Y, W, H int }

// resizeDims is WordPress's image_resize_dimensions: the size a source of
// w×h gets for the requested size, and the part of the source it shows. ok
// is false when the size would not be smaller than the source (WordPress
// never upscales and never stores a copy of the original's dimensions).
func resizeDims(w, h int, s imageSize) (dw, dh int, src rect, ok bool) {
	if w <= 0 || h <= 0 || (s.Width <= 0 && s.Height <= 0) {
		return 0, 0, rect{}, false
	}
	src = rect{0, 0, w, h}
	if s.Crop {
		dw, dh = min(s.Width, w), min(s.Height, h)
		if s.Width <= 0 {
			dw = w
		}
		if s.Height <= 0 {
			dh = h
		}
		ratio := math.Max(float64(dw)/float64(w), float64(dh)/float64(h))
		cw := int(math.Round(float64(dw) / ratio))
		ch := int(math.Round(float64(dh) / ratio))
		src = rect{(w - cw) / 2, (h - ch) / 2, cw, ch}
	} else {
		dw, dh = constrain(w, h, s.Width, s.Height)
	}
	if dw >= w && dh >= h {
		return 0, 0, rect{}, false
	}
	if dw <= 0 || dh <= 0 {
		return 0, 0, rect{}, false
	}
	return dw, dh, src, true
}

// constrain is wp_constrain_dimensions: w×h scaled to fit maxW×maxH (0: no
// limit), proportionally, never larger; the limiting side is exact.
func constrain(w, h, maxW, maxH int) (int, int) {
	if maxW <= 0 && maxH <= 0 {
		return w, h
	}
	wr, hr := 1.0, 1.0
	if maxW > 0 && w > maxW {
		wr = float64(maxW) / float64(w)
	}
	if maxH > 0 && h > maxH {
		hr = float64(maxH) / float64(h)
	}
	ratio := math.Min(wr, hr)
	if ratio >= 1 {
		return w, h
	}
	nw := max(1, int(math.Round(float64(w)*ratio)))
	nh := max(1, int(math.Round(float64(h)*ratio)))
	// Rounding must not push the limiting side over its maximum or off by one.
	if wr < hr {
		nw = maxW
	} else if hr < wr {
		nh = maxH
	}
	return nw, nh
}

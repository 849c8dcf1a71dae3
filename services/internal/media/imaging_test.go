package media

import (
	"context"
	"errors"
	"image"
	"image/color"
	"testing"
	"time"
)

func TestResizeDims(t *testing.T) {
	tests := []struct {
		w, h  int
		size  imageSize
		dw    int
		dh    int
		crop  rect
		apply bool
	}{
		{4000, 3000, imageSize{"thumbnail", 150, 150, true}, 150, 150, rect{500, 0, 3000, 3000}, true},
		{4000, 3000, imageSize{"medium", 300, 300, false}, 300, 225, rect{0, 0, 4000, 3000}, true},
		{4000, 3000, imageSize{"medium_large", 768, 0, false}, 768, 576, rect{0, 0, 4000, 3000}, true},
		{3000, 4000, imageSize{"large", 1024, 1024, false}, 768, 1024, rect{0, 0, 3000, 4000}, true},
		{100, 800, imageSize{"thumbnail", 150, 150, true}, 100, 150, rect{0, 325, 100, 150}, true},
		{150, 150, imageSize{"thumbnail", 150, 150, true}, 0, 0, rect{}, false}, // same size: none
		{120, 90, imageSize{"medium", 300, 300, false}, 0, 0, rect{}, false},    // never upscaled
		{1000, 3, imageSize{"medium", 300, 300, false}, 300, 1, rect{0, 0, 1000, 3}, true},
	}
	for _, tt := range tests {
		dw, dh, crop, ok := resizeDims(tt.w, tt.h, tt.size)
		if ok != tt.apply || dw != tt.dw || dh != tt.dh || (ok && crop != tt.crop) {
			t.Errorf("%dx%d %s: %dx%d %v %v, want %dx%d %v %v", tt.w, tt.h, tt.size.Name, dw, dh, crop, ok, tt.dw, tt.dh, tt.crop, tt.apply)
		}
	}
}

func TestHalveAndDownscale(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 4, 2))
	// left 2×2 block: 0 and 200 alternating → 100; right block: all 50
	for y := 0; y < 2; y++ {
		for x := 0; x < 4; x++ {
			v := uint8(50)
			if x < 2 {
				v = uint8(200 * ((x + y) % 2))
			}
			src.SetRGBA(x, y, color.RGBA{v, v, v, 255})
		}
	}
	h := halve(src)
	if h.Bounds().Dx() != 2 || h.Bounds().Dy() != 1 || h.RGBAAt(0, 0).R != 100 || h.RGBAAt(1, 0).R != 50 || h.RGBAAt(0, 0).A != 255 {
		t.Fatalf("halve: %v %v %v", h.Bounds(), h.RGBAAt(0, 0), h.RGBAAt(1, 0))
	}
	big := gradient(1000, 600)
	for _, tc := range []struct{ w, h int }{{150, 90}, {500, 300}, {333, 200}, {1000, 600}} {
		d := downscale(big, big.Bounds(), tc.w, tc.h)
		if d.Bounds().Dx() != tc.w || d.Bounds().Dy() != tc.h {
			t.Fatalf("downscale to %v: %v", tc, d.Bounds())
		}
		// quadrant colours survive
		if c := d.RGBAAt(2, 2); c.R < 200 || c.G > 50 {
			t.Errorf("%v: top-left %v, want red", tc, c)
		}
		if c := d.RGBAAt(tc.w-3, tc.h-3); c.R < 200 || c.G < 200 || c.B < 200 {
			t.Errorf("%v: bottom-right %v, want white", tc, c)
		}
	}
	// a crop of the source
	d := downscale(big, image.Rect(500, 0, 1000, 300), 100, 60)
	if c := d.RGBAAt(50, 30); c.G < 200 || c.R > 50 {
		t.Errorf("crop of the green quadrant: %v", c)
	}
}

func TestOrientations(t *testing.T) {
	// 2×1 image: red, green. Upright results per EXIF orientation.
	src := image.NewRGBA(image.Rect(0, 0, 2, 1))
	src.SetRGBA(0, 0, color.RGBA{255, 0, 0, 255})
	src.SetRGBA(1, 0, color.RGBA{0, 255, 0, 255})
	name := func(c color.Color) string {
		r, g, _, _ := c.RGBA()
		if r > g {
			return "R"
		}
		return "G"
	}
	layout := func(img image.Image) string {
		b := img.Bounds()
		s := ""
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				s += name(img.At(x, y))
			}
			s += "/"
		}
		return s
	}
	want := map[int]string{1: "RG/", 2: "GR/", 3: "GR/", 4: "RG/", 5: "R/G/", 6: "R/G/", 7: "G/R/", 8: "G/R/"}
	for o, w := range want {
		if got := layout(orient(src, o)); got != w {
			t.Errorf("orientation %d: %s, want %s", o, got, w)
		}
	}
	for q, w := range map[int]string{0: "RG/", 1: "R/G/", 2: "GR/", 3: "G/R/", -1: "G/R/"} {
		if got := layout(rotateCW(src, q)); got != w {
			t.Errorf("rotate %d quarters: %s, want %s", q, got, w)
		}
	}
}

// Metadata never fails an upload: every truncation or corruption of an
// EXIF-carrying JPEG reads without panicking.
func TestReadJPEGMetaMalformed(t *testing.T) {
	good := withOrientation(testJPEG(t, 16, 8), 6)
	if m := readJPEGMeta(good); m.Orientation != "6" || m.Camera != "TestCam" {
		t.Fatalf("good file: %+v", m)
	}
	for n := 0; n < 200 && n < len(good); n++ {
		readJPEGMeta(good[:n])
		bad := append([]byte(nil), good...)
		bad[n] ^= 0xFF
		readJPEGMeta(bad)
	}
	if m := readJPEGMeta([]byte("not a jpeg")); m.Orientation != "0" || m.orientation() != 1 {
		t.Fatalf("not a JPEG: %+v", m)
	}
}

// TestDecodeBudget checks the decoded-pixel budget: a second 12 MP decode
// waits for the first, a waiting request gives up when its context ends,
// small images pass beside a large one, and work over the whole budget is
// refused.
func TestDecodeBudget(t *testing.T) {
	const budget = 40 << 20
	p := NewProcessor(4, budget, DefaultMaxPixels)
	const twelveMP = 33 << 20 // decodeWeight of a 4000x3000 4:2:0 JPEG (TestDecodeWeight)
	release, err := p.acquire(context.Background(), twelveMP)
	if err != nil {
		t.Fatal(err)
	}
	small, err := p.acquire(context.Background(), 6<<20) // a small image fits beside it
	if err != nil {
		t.Fatalf("small image beside a large one: %v", err)
	}
	small()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.acquire(ctx, twelveMP); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second 12 MP decode while the first holds the budget: %v, want it to wait until its deadline", err)
	}
	got := make(chan error, 1)
	go func() {
		r, err := p.acquire(context.Background(), twelveMP)
		if err == nil {
			r()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("second decode did not wait: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	release()
	if err := <-got; err != nil {
		t.Fatalf("second decode after the first released: %v", err)
	}
	// over the whole budget: refused at once, even with the budget free
	// (on a1ed099 it took all of the budget and ran alone)
	if _, err := p.acquire(context.Background(), budget+1); !errors.Is(err, errOverBudget) {
		t.Fatalf("image over the budget: %v, want errOverBudget", err)
	}
	whole, err := p.acquire(context.Background(), budget)
	if err != nil {
		t.Fatalf("image weighing the whole budget: %v", err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	if _, err := p.acquire(ctx2, 400); err == nil {
		t.Fatal("a decode ran beside one holding the whole budget")
	}
	whole()
}

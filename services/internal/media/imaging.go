package media

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"runtime"

	_ "golang.org/x/image/bmp" // header reading (dimensions) only
	"golang.org/x/image/draw"
	_ "golang.org/x/image/tiff" // header reading (dimensions) only
	_ "golang.org/x/image/webp" // decoder registration
	"golang.org/x/sync/semaphore"
)

// errTooManyPixels is returned before decoding an image whose header
// announces more pixels than the configured limit.
var errTooManyPixels = errors.New("image has too many pixels")

// errUndecodable is returned for an image whose bytes do not decode.
var errUndecodable = errors.New("image cannot be decoded")

// Processor decodes, resizes and encodes images with bounded memory: at most
// cap(sem) images are decoded at once, and together they may hold at most
// DecodeBytes (a weighted semaphore). Each decode weighs what it holds at
// its peak (decodeWeight): the decoded pixels in the decoder's own layout —
// a 12-megapixel JPEG with 4:2:0 chroma is YCbCr at 1.5 bytes a pixel,
// 17 MiB, plus its coefficients when progressive —, the RGBA
// intermediate of the largest generated size (at most 2048 pixels a side:
// 12 MiB for 4000×3000) and 4 MiB of buffers and encoded sizes. A 12 MP
// baseline JPEG weighs 33 MiB, so with the default 40 MiB concurrent 12 MP
// uploads are decoded one after the other while small images pass beside
// them. Work heavier than the whole budget is refused before anything is
// decoded (errOverBudget): the budget follows the process's memory limit
// (DecodeBudget), so running it anyway, even alone, would exceed it.
// Waiting is bounded by the request: a request that ends (client gone,
// server timeout) stops waiting and gets rest_upload_canceled. An image
// whose header announces more than MaxPixels is refused before any pixel
// is allocated.
type Processor struct {
	sem         chan struct{}
	pixels      *semaphore.Weighted
	DecodeBytes int64
	MaxPixels   int64
	// Quality is the JPEG quality of generated files (WordPress: 82).
	Quality int
}

// NewProcessor returns a processor allowing concurrent decodes (0:
// GOMAXPROCS) holding up to decodeBytes of pixels together (0:
// DefaultDecodeBytes), and images of up to maxPixels.
func NewProcessor(concurrent int, decodeBytes, maxPixels int64) *Processor {
	if concurrent <= 0 {
		concurrent = runtime.GOMAXPROCS(0)
	}
	if decodeBytes <= 0 {
		decodeBytes = DefaultDecodeBytes
	}
	return &Processor{sem: make(chan struct{}, concurrent), pixels: semaphore.NewWeighted(decodeBytes),
		DecodeBytes: decodeBytes, MaxPixels: maxPixels, Quality: 82}
}

// Dimensions reads the image's size from its header only and enforces the
// pixel limit.
func (p *Processor) Dimensions(r io.Reader) (w, h int, err error) {
	cfg, _, err := p.config(r)
	return cfg.Width, cfg.Height, err
}

// config is Dimensions with the header's color model and format.
func (p *Processor) config(r io.Reader) (image.Config, string, error) {
	cfg, format, err := image.DecodeConfig(r)
	if err != nil {
		return image.Config{}, "", fmt.Errorf("%w: %v", errUndecodable, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return image.Config{}, "", fmt.Errorf("%w: empty image", errUndecodable)
	}
	if int64(cfg.Width)*int64(cfg.Height) > p.MaxPixels {
		return cfg, format, errTooManyPixels
	}
	return cfg, format, nil
}

// encodedSize is one generated file.
type encodedSize struct {
	Name          string // the size name, or "" for a full image (edit)
	Width, Height int
	Mime, Ext     string
	Data          []byte
}

// outputType is the format generated files of a source type are written
// in: the same, except WebP, which the standard library cannot encode
// (WordPress's image_editor_output_format does the same kind of mapping):
// JPEG, or PNG when the image has transparency.
func outputType(mime string, img image.Image) (string, string) {
	switch mime {
	case "image/png":
		return "image/png", "png"
	case "image/gif":
		return "image/gif", "gif"
	case "image/webp":
		if !opaque(img) {
			return "image/png", "png"
		}
	}
	return "image/jpeg", "jpg"
}

func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

func (p *Processor) encode(img image.Image, mime string) ([]byte, error) {
	var buf bytes.Buffer
	if err := p.encodeTo(&buf, img, mime); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encodeTo writes img to w in the format mime.
func (p *Processor) encodeTo(w io.Writer, img image.Image, mime string) error {
	var err error
	switch mime {
	case "image/png":
		err = (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(w, img)
	case "image/gif":
		err = gif.Encode(w, img, &gif.Options{NumColors: 256})
	default:
		err = jpeg.Encode(w, img, &jpeg.Options{Quality: p.Quality})
	}
	if err != nil {
		return fmt.Errorf("encode %s: %w", mime, err)
	}
	return nil
}

// GenerateSizes decodes the size bytes of src (an image of type mime) and
// returns the requested sizes that apply to it, encoded. orientation is the
// EXIF orientation: the sizes are upright. The file is decoded as it is
// read (an upload is a spooled file: its bytes are never all in memory),
// the original is downscaled once to the largest needed size and every
// smaller size is drawn from that intermediate, so the full-resolution
// pixels are released early.
func (p *Processor) GenerateSizes(ctx context.Context, src io.ReaderAt, size int64, mime string, orientation int, want []imageSize) ([]encodedSize, error) {
	cfg, format, err := p.config(io.NewSectionReader(src, 0, size))
	if err != nil {
		return nil, err
	}
	release, err := p.acquire(ctx, decodeWeight(src, size, format, cfg.ColorModel, cfg.Width, cfg.Height))
	if err != nil {
		return nil, err
	}
	defer release()
	img, _, err := image.Decode(bufio.NewReaderSize(io.NewSectionReader(src, 0, size), 64<<10))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUndecodable, err)
	}
	return p.sizesOf(img, mime, orientation, want)
}

// sizesOf is GenerateSizes on a decoded image (the edit route's result).
func (p *Processor) sizesOf(src image.Image, mime string, orientation int, want []imageSize) ([]encodedSize, error) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if orientation >= 5 { // 90° turns: the upright image is h×w
		w, h = h, w
	}
	type plan struct {
		s      imageSize
		dw, dh int
		crop   rect
	}
	var plans []plan
	maxW, maxH := 0, 0
	for _, s := range want {
		dw, dh, crop, ok := resizeDims(w, h, s)
		if !ok {
			continue
		}
		plans = append(plans, plan{s, dw, dh, crop})
		// the intermediate must hold every size's pixels at full detail
		scale := max(float64(dw)/float64(crop.W), float64(dh)/float64(crop.H))
		iw, ih := int(float64(w)*scale+0.999), int(float64(h)*scale+0.999)
		maxW, maxH = max(maxW, min(iw, w)), max(maxH, min(ih, h))
	}
	if len(plans) == 0 {
		return nil, nil
	}
	outMime, outExt := outputType(mime, src)
	// Downscale in the file's own orientation, then turn the (small) result.
	bw, bh := maxW, maxH
	if orientation >= 5 {
		bw, bh = bh, bw
	}
	base := image.Image(src)
	if bw < b.Dx() || bh < b.Dy() {
		// One bilinear pass straight from the decoded pixels (x/image/draw
		// has fast paths for YCbCr sources): no full-size RGBA copy.
		dst := image.NewRGBA(image.Rect(0, 0, bw, bh))
		draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
		base = dst
	}
	src = nil // the full-resolution pixels can go now
	base = orient(base, orientation)
	bb := base.Bounds()
	sx, sy := float64(bb.Dx())/float64(w), float64(bb.Dy())/float64(h)
	out := make([]encodedSize, 0, len(plans))
	done := map[[2]int][]byte{}
	for _, pl := range plans {
		data, ok := done[[2]int{pl.dw, pl.dh}]
		if !ok {
			sr := image.Rect(int(float64(pl.crop.X)*sx+0.5), int(float64(pl.crop.Y)*sy+0.5),
				int(float64(pl.crop.X+pl.crop.W)*sx+0.5), int(float64(pl.crop.Y+pl.crop.H)*sy+0.5)).Add(bb.Min)
			dst := downscale(base, sr, pl.dw, pl.dh)
			var err error
			if data, err = p.encode(dst, outMime); err != nil {
				return nil, err
			}
			done[[2]int{pl.dw, pl.dh}] = data
		}
		out = append(out, encodedSize{Name: pl.s.Name, Width: pl.dw, Height: pl.dh, Mime: outMime, Ext: outExt, Data: data})
	}
	return out, nil
}

// downscale draws the part sr of src at w×h: halving with a 2×2 box filter
// while the part is at least twice the target (cheap, no aliasing, no
// kernel buffers), then one bilinear step of less than 2×. x/image/draw's
// CatmullRom was measured against this (docs/media.md): several times
// slower and, through its full-height float buffers, about 200 MiB of
// temporary memory per 12-megapixel image.
func downscale(src image.Image, sr image.Rectangle, w, h int) *image.RGBA {
	cur, ok := src.(*image.RGBA)
	switch {
	case !ok:
		c := image.NewRGBA(image.Rect(0, 0, sr.Dx(), sr.Dy()))
		draw.Draw(c, c.Bounds(), src, sr.Min, draw.Src)
		cur = c
	case sr != src.Bounds():
		// a crop of the intermediate is a view of its pixels, not a copy
		// (halve and the scaler read any bounds)
		cur = cur.SubImage(sr).(*image.RGBA)
	}
	for cur.Bounds().Dx() >= 2*w && cur.Bounds().Dy() >= 2*h {
		cur = halve(cur)
	}
	if cur.Bounds().Dx() == w && cur.Bounds().Dy() == h {
		return cur
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), cur, cur.Bounds(), draw.Src, nil)
	return dst
}

// halve averages each 2×2 block of src (premultiplied RGBA, so averaging
// is exact for transparency too).
func halve(src *image.RGBA) *image.RGBA {
	b := src.Bounds()
	w, h := b.Dx()/2, b.Dy()/2
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		r0 := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+2*y):]
		r1 := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+2*y+1):]
		d := dst.Pix[y*dst.Stride:]
		for x := 0; x < 4*w; x++ {
			i := x + (x &^ 3) // channel c of pixel 2*(x/4)
			d[x] = uint8((uint32(r0[i]) + uint32(r0[i+4]) + uint32(r1[i]) + uint32(r1[i+4]) + 2) >> 2)
		}
	}
	return dst
}

package media

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"net/http"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/media/blobstore"
	"siteplane.dev/services/pkg/contract"
)

// png16 is a w×h 16-bit RGBA PNG of one colour, written row by row, so
// the test never holds its pixels: 7000×7000 is a 392 MB image in a file
// of a few hundred KB (the 381 KB "16-bit 7000×7000 PNG").
func png16(w, h int) []byte {
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		out.Write(n[:])
		crc := crc32.NewIEEE()
		io.WriteString(crc, typ)
		crc.Write(data)
		out.WriteString(typ)
		out.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		out.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 16, 6 // 16 bits per sample, RGBA
	chunk("IHDR", ihdr)
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	row := make([]byte, 1+w*8) // filter 0, then the samples
	for i := 1; i < len(row); i += 2 {
		row[i] = 0x80
	}
	for range h {
		z.Write(row) // a bytes.Buffer does not fail
	}
	z.Close()
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// bigPNG is built once for the package: compressing 392 MB takes a while.
var bigPNG = sync.OnceValue(func() []byte { return png16(7000, 7000) })

// seed stores data as an attachment of author without generating sizes
// (what an upload under a larger budget would have left), for the edit.
func (e *testEnv) seed(data []byte, name string) int64 {
	e.t.Helper()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, e.dsn+"&search_path=media")
	if err != nil {
		e.t.Fatal(err)
	}
	defer pool.Close()
	blobs, err := blobstore.NewFS(e.dir)
	if err != nil {
		e.t.Fatal(err)
	}
	defer blobs.Close()
	s := New(pool, blobs, contract.DefaultSite("http://localhost:8080"), Config{MaxUploadBytes: DefaultMaxUploadBytes}, nil)
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		e.t.Fatal(err)
	}
	meta := emptyImageMeta()
	now := s.now()
	a := &Attachment{Author: callers[author].UserID, Status: "inherit", CommentStatus: "open", PingStatus: "closed",
		Mime: "image/png", Filesize: int64(len(data)), Meta: map[string]any{}, Title: name, Date: now, Modified: now,
		Details: Details{Width: cfg.Width, Height: cfg.Height, ImageMeta: &meta}}
	if err := s.store(ctx, a, "png", bytes.NewReader(data), int64(len(data)), nil, func(int) string { return name }, ""); err != nil {
		e.t.Fatal(err)
	}
	return a.ID
}

// The 49-megapixel 16-bit PNG: its upload decodes 392 MB and its
// edit more, over the decode budget of the service's default memory limit.
// Two uploads and two edits at once are refused before anything is decoded
// (400 rest_upload_image_too_large), and the service's live heap stays
// under the budget. On a1ed099 each ran "alone" with the whole budget:
// about 400 MiB held for the upload and 600 MiB for the edit.
func TestOverBudgetImagesAreRefused(t *testing.T) {
	e := newEnv(t)
	data := bigPNG()
	id := e.seed(data, "big16")
	src := fmt.Sprintf("http://localhost:8080%s%s", UploadsPath, "x/big16.png")
	if r := e.request(author, "GET", fmt.Sprintf("/cms/v2/media/%d?context=edit", id), nil, nil); r.Status == http.StatusOK {
		src, _ = r.obj()["source_url"].(string)
	}
	const bound = DefaultMemoryLimit // the decode budget and the reserve
	tests := []struct {
		name string
		send func() *resp
	}{
		{"upload", func() *resp { return e.uploadRaw(author, "", "big16.png", "image/png", data) }},
		{"edit", func() *resp {
			return e.json(author, "POST", fmt.Sprintf("/cms/v2/media/%d/edit", id), map[string]any{"src": src,
				"modifiers": []any{map[string]any{"type": "flip", "args": map[string]any{"flip": map[string]any{"horizontal": true, "vertical": false}}}}})
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var answers [2]*resp
			held := heldDuring(t, func() {
				var wg sync.WaitGroup
				for i := range answers {
					wg.Go(func() { answers[i] = tc.send() })
				}
				wg.Wait()
			})
			t.Logf("two %ss held %d MiB (bound %d MiB)", tc.name, held>>20, bound>>20)
			if held > bound {
				t.Errorf("two %ss held %d MiB, bound %d MiB", tc.name, held>>20, bound>>20)
			}
			for _, r := range answers {
				wantError(t, r, http.StatusBadRequest, "rest_upload_image_too_large", "The image needs more memory to be processed than this server allows.")
			}
		})
	}
}

// The budget follows the process's soft memory limit.
func TestDecodeBudgetFollowsTheMemoryLimit(t *testing.T) {
	tests := []struct {
		name            string
		limit, explicit int64
		want            int64
	}{
		{"no limit", math.MaxInt64, 0, DefaultDecodeBytes},
		{"no limit, explicit", math.MaxInt64, 100 << 20, 100 << 20},
		{"the service's default limit", DefaultMemoryLimit, 0, DefaultDecodeBytes},
		{"a 512 MiB container's 85%", 435 << 20, 0, 435<<20 - 435<<20/8},
		{"the former default of 48 MiB", 48 << 20, 0, 40 << 20},
		{"explicit lowers it", 435 << 20, 100 << 20, 100 << 20},
		{"explicit never raises it", DefaultMemoryLimit, 400 << 20, DefaultDecodeBytes},
		{"a tiny limit", 4 << 20, 0, minBudget},
	}
	for _, tc := range tests {
		if got := DecodeBudget(tc.limit, tc.explicit); got != tc.want {
			t.Errorf("%s: budget %d MiB, want %d MiB", tc.name, got>>20, tc.want>>20)
		}
	}
}

// An edit's weight covers what it holds: a 16-bit PNG turned upright,
// flipped and rotated by 30° (the largest canvas), its sizes made and the
// result encoded, holds less than editWeight.
func TestEditWeightCoversThePeak(t *testing.T) {
	s := New(nil, nil, contract.DefaultSite("http://localhost:8080"), Config{DecodeBytes: 1 << 30, MaxPixels: DefaultMaxPixels}, nil)
	img := image.NewNRGBA64(image.Rect(0, 0, 1500, 1000))
	for y := range 1000 {
		for x := range 1500 {
			img.SetNRGBA64(x, y, color.NRGBA64{R: uint16(x * 40), G: uint16(y * 60), B: 0x8000, A: 0xFFFF})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	img = nil
	data := b.Bytes()
	mods := []modifier{{kind: "flip", horizontal: true}, {kind: "rotate", angle: 30}}
	orig := &Attachment{Mime: "image/png", Details: Details{ImageMeta: &imageMeta{Orientation: "6"}}}
	weight := editWeight(1500*1000*8, "png", 1500, 1000, 6, mods)
	var res *edited
	var err error
	held := heldDuring(t, func() {
		res, err = s.applyEdit(context.Background(), bytes.NewReader(data), int64(len(data)), orig, mods)
	})
	if err != nil {
		t.Fatal(err)
	}
	res.file.Close()
	if held > weight {
		t.Errorf("the edit held %d MiB, its weight is %d MiB", held>>20, weight>>20)
	}
	t.Logf("held %d MiB at the peak, weight %d MiB", held>>20, weight>>20)
}

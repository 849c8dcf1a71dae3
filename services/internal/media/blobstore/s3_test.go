package blobstore_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"siteplane.dev/services/internal/media/blobstore"
	"siteplane.dev/services/internal/media/blobstore/blobstoretest"
	"siteplane.dev/services/internal/media/blobstore/s3test"
)

// These tests run against a real S3-compatible server (versitygw, see
// package s3test).

func newS3(t *testing.T, srv *s3test.Server, bucket string, edit func(*blobstore.S3Config)) *blobstore.S3 {
	t.Helper()
	cfg := blobstore.S3Config{Endpoint: srv.Endpoint, Bucket: bucket, Region: srv.Region, PathStyle: true,
		AccessKeyID: srv.AccessKeyID, SecretAccessKey: srv.SecretAccessKey}
	if edit != nil {
		edit(&cfg)
	}
	s, err := blobstore.NewS3(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestS3Conformance(t *testing.T) {
	srv := s3test.Start(t)
	t.Run("bucket root", func(t *testing.T) {
		blobstoretest.Run(t, func(t *testing.T) blobstore.Store {
			return newS3(t, srv, srv.NewBucket(t), nil)
		})
	})
	t.Run("prefix", func(t *testing.T) {
		blobstoretest.Run(t, func(t *testing.T) blobstore.Store {
			return newS3(t, srv, srv.NewBucket(t), func(c *blobstore.S3Config) { c.Prefix = "sites/blog/" })
		})
	})
}

func TestS3PrefixIsAFolder(t *testing.T) {
	srv := s3test.Start(t)
	ctx := context.Background()
	for _, prefix := range []string{"blog", "blog/", "/blog/"} {
		bucket := srv.NewBucket(t)
		s := newS3(t, srv, bucket, func(c *blobstore.S3Config) { c.Prefix = prefix })
		if err := s.Put(ctx, "2026/11/a.jpg", strings.NewReader("x"), 1, "image/jpeg"); err != nil {
			t.Fatal(err)
		}
		if keys := srv.Keys(t, bucket); len(keys) != 1 || keys[0] != "blog/2026/11/a.jpg" {
			t.Errorf("prefix %q: keys %v, want [blog/2026/11/a.jpg]", prefix, keys)
		}
	}
}

// nonSeekable hides a reader's Seek, as a request body does.
type nonSeekable struct{ r io.Reader }

func (n nonSeekable) Read(p []byte) (int, error) { return n.r.Read(p) }

type failAfter struct {
	r   io.Reader
	n   int64
	err error
}

func (f *failAfter) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, f.err
	}
	if int64(len(p)) > f.n {
		p = p[:f.n]
	}
	n, err := f.r.Read(p)
	f.n -= int64(n)
	return n, err
}

func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

func readKey(t *testing.T, s blobstore.Store, key string) []byte {
	t.Helper()
	o, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	b, err := io.ReadAll(o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestS3Multipart: a stream larger than a part is stored whole through a
// multipart upload; a stream that breaks, or yields another size than
// announced, leaves neither an object nor an unfinished upload.
func TestS3Multipart(t *testing.T) {
	srv := s3test.Start(t)
	ctx := context.Background()
	data := randomBytes(t, 12<<20+123)
	tests := []struct {
		name    string
		body    func() io.Reader
		size    int64
		wantErr bool
	}{
		{"unknown size", func() io.Reader { return nonSeekable{bytes.NewReader(data)} }, -1, false},
		{"known size", func() io.Reader { return nonSeekable{bytes.NewReader(data)} }, int64(len(data)), false},
		{"exactly two parts", func() io.Reader { return nonSeekable{bytes.NewReader(data[:10<<20])} }, 10 << 20, false},
		{"reader fails in the second part", func() io.Reader {
			return &failAfter{r: bytes.NewReader(data), n: 7 << 20, err: errors.New("client went away")}
		}, int64(len(data)), true},
		{"more bytes than announced", func() io.Reader { return nonSeekable{bytes.NewReader(data)} }, 11 << 20, true},
		{"fewer bytes than announced", func() io.Reader { return nonSeekable{bytes.NewReader(data)} }, 13 << 20, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bucket := srv.NewBucket(t)
			s := newS3(t, srv, bucket, func(c *blobstore.S3Config) { c.PartSize = 5 << 20 })
			err := s.Put(ctx, "big/file.bin", tt.body(), tt.size, "application/octet-stream")
			if tt.wantErr {
				if err == nil {
					t.Fatal("Put succeeded")
				}
				if keys := srv.Keys(t, bucket); len(keys) != 0 {
					t.Errorf("objects left behind: %v", keys)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				want := data
				if tt.size >= 0 {
					want = data[:tt.size]
				}
				if got := readKey(t, s, "big/file.bin"); !bytes.Equal(got, want) {
					t.Errorf("read %d bytes, differing from the %d written", len(got), len(want))
				}
			}
			if ups := srv.Uploads(t, bucket); len(ups) != 0 {
				t.Errorf("unfinished multipart uploads left behind: %v", ups)
			}
		})
	}
}

// countingTransport counts the response body bytes the client consumes.
type countingTransport struct {
	read     atomic.Int64
	requests atomic.Int64
}

func (c *countingTransport) Do(req *http.Request) (*http.Response, error) {
	c.requests.Add(1)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &c.read}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// TestS3RangeReads serves an object with http.ServeContent, as the media
// service's file handler does, and checks ranged answers byte for byte and
// that a range costs about its own size, not the object's.
func TestS3RangeReads(t *testing.T) {
	srv := s3test.Start(t)
	ctx := context.Background()
	counter := &countingTransport{}
	s := newS3(t, srv, srv.NewBucket(t), func(c *blobstore.S3Config) { c.HTTPClient = counter })
	data := randomBytes(t, 4<<20)
	if err := s.Put(ctx, "2026/11/video.mp4", bytes.NewReader(data), int64(len(data)), "video/mp4"); err != nil {
		t.Fatal(err)
	}
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o, err := s.Open(r.Context(), strings.TrimPrefix(r.URL.Path, "/"))
		if errors.Is(err, blobstore.ErrNotExist) {
			http.NotFound(w, r)
			return
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer o.Close()
		w.Header().Set("Content-Type", "video/mp4")
		http.ServeContent(w, r, "", o.ModTime(), o)
	}))
	defer files.Close()

	// answer is what get read of a response (whose body it closed).
	type answer struct {
		StatusCode int
		Header     http.Header
	}
	get := func(t *testing.T, method, rng string) (answer, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, files.URL+"/2026/11/video.mp4", nil)
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return answer{resp.StatusCode, resp.Header}, body
	}

	size := int64(len(data))
	tests := []struct {
		rng        string
		from, to   int64 // inclusive
		maxFetched int64 // object bytes the store may consume for it
	}{
		{"bytes=0-99", 0, 99, 64 << 10},
		{"bytes=1000000-1999999", 1000000, 1999999, 1000000 + 64<<10},
		{"bytes=-500", size - 500, size - 1, 64 << 10},
		{"bytes=4194000-", 4194000, size - 1, 64 << 10},
		{"bytes=4194000-99999999", 4194000, size - 1, 64 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.rng, func(t *testing.T) {
			before := counter.read.Load()
			resp, body := get(t, http.MethodGet, tt.rng)
			if resp.StatusCode != http.StatusPartialContent {
				t.Fatalf("status %d", resp.StatusCode)
			}
			if want := fmt.Sprintf("bytes %d-%d/%d", tt.from, tt.to, size); resp.Header.Get("Content-Range") != want {
				t.Errorf("Content-Range %q, want %q", resp.Header.Get("Content-Range"), want)
			}
			if !bytes.Equal(body, data[tt.from:tt.to+1]) {
				t.Errorf("body of %d bytes differs from the object's range", len(body))
			}
			// The copy stops at the range's end and the store's body is
			// closed: it never reads the object through (allowing one read
			// buffer beyond the range).
			if fetched := counter.read.Load() - before; fetched > tt.maxFetched {
				t.Errorf("the store consumed %d bytes for a %d-byte range", fetched, tt.to-tt.from+1)
			}
		})
	}

	t.Run("two ranges", func(t *testing.T) {
		resp, body := get(t, http.MethodGet, "bytes=10-19,3000000-3000009")
		if resp.StatusCode != http.StatusPartialContent {
			t.Fatalf("status %d", resp.StatusCode)
		}
		_, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if err != nil {
			t.Fatal(err)
		}
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for _, want := range [][]byte{data[10:20], data[3000000:3000010]} {
			p, err := mr.NextPart()
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(p)
			if !bytes.Equal(got, want) {
				t.Errorf("part %q: got %x, want %x", p.Header.Get("Content-Range"), got, want)
			}
		}
	})
	t.Run("whole file", func(t *testing.T) {
		resp, body := get(t, http.MethodGet, "")
		if resp.StatusCode != http.StatusOK || !bytes.Equal(body, data) || resp.Header.Get("Content-Length") != fmt.Sprint(size) {
			t.Errorf("status %d, %d bytes", resp.StatusCode, len(body))
		}
		if lm, err := http.ParseTime(resp.Header.Get("Last-Modified")); err != nil || time.Since(lm) > time.Hour {
			t.Errorf("Last-Modified %q", resp.Header.Get("Last-Modified"))
		}
	})
	t.Run("HEAD reads no bytes", func(t *testing.T) {
		before := counter.read.Load()
		resp, _ := get(t, http.MethodHead, "")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Length") != fmt.Sprint(size) {
			t.Errorf("status %d length %q", resp.StatusCode, resp.Header.Get("Content-Length"))
		}
		if fetched := counter.read.Load() - before; fetched > 0 {
			t.Errorf("HEAD consumed %d object bytes", fetched)
		}
	})
	t.Run("unsatisfiable range", func(t *testing.T) {
		resp, _ := get(t, http.MethodGet, fmt.Sprintf("bytes=%d-", size+10))
		if resp.StatusCode != http.StatusRequestedRangeNotSatisfiable {
			t.Errorf("status %d", resp.StatusCode)
		}
	})
}

// TestS3ReplacedWhileReading: a reader that began on one version of an
// object never mixes in bytes of the version that replaced it.
func TestS3ReplacedWhileReading(t *testing.T) {
	srv := s3test.Start(t)
	ctx := context.Background()
	s := newS3(t, srv, srv.NewBucket(t), nil)
	first := bytes.Repeat([]byte("a"), 1<<20)
	if err := s.Put(ctx, "r/file.bin", bytes.NewReader(first), int64(len(first)), ""); err != nil {
		t.Fatal(err)
	}
	o, err := s.Open(ctx, "r/file.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	head := make([]byte, 10)
	if _, err := io.ReadFull(o, head); err != nil || string(head) != "aaaaaaaaaa" {
		t.Fatalf("first read %q %v", head, err)
	}
	second := bytes.Repeat([]byte("b"), 1<<20)
	if err := s.Put(ctx, "r/file.bin", bytes.NewReader(second), int64(len(second)), ""); err != nil {
		t.Fatal(err)
	}
	// A seek forces a new GET, which must not return the new version.
	if _, err := o.Seek(512<<10, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	n, err := io.ReadFull(o, buf)
	if err == nil && bytes.Contains(buf[:n], []byte("b")) {
		t.Fatalf("read %q from the replacing version through a reader opened on the first", buf[:n])
	}
	if err == nil {
		t.Fatal("read after the object was replaced succeeded")
	}
}

func TestS3Check(t *testing.T) {
	srv := s3test.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	bucket := srv.NewBucket(t)
	if err := newS3(t, srv, bucket, nil).Check(ctx); err != nil {
		t.Errorf("existing bucket: %v", err)
	}
	err := newS3(t, srv, "no-such-bucket", nil).Check(ctx)
	if err == nil || !strings.Contains(err.Error(), `s3 bucket "no-such-bucket" does not exist`) {
		t.Errorf("missing bucket: %v", err)
	}
	wrong := "wrong-" + srv.SecretAccessKey
	err = newS3(t, srv, bucket, func(c *blobstore.S3Config) { c.SecretAccessKey = wrong }).Check(ctx)
	if err == nil {
		t.Fatal("wrong secret key accepted")
	}
	if strings.Contains(err.Error(), wrong) || strings.Contains(err.Error(), srv.SecretAccessKey) {
		t.Errorf("the error shows the secret key: %v", err)
	}
}

func TestNewS3RefusesBadSettings(t *testing.T) {
	good := blobstore.S3Config{Endpoint: "https://s3.example.com", Bucket: "media", AccessKeyID: "id", SecretAccessKey: "secret"}
	tests := []struct {
		name string
		edit func(*blobstore.S3Config)
		want string
	}{
		{"no scheme", func(c *blobstore.S3Config) { c.Endpoint = "s3.example.com" }, "s3 endpoint"},
		{"ftp", func(c *blobstore.S3Config) { c.Endpoint = "ftp://s3.example.com" }, "s3 endpoint"},
		{"path", func(c *blobstore.S3Config) { c.Endpoint = "https://s3.example.com/media" }, "s3 endpoint"},
		{"user info", func(c *blobstore.S3Config) { c.Endpoint = "https://id:secret@s3.example.com" }, "s3 endpoint"},
		{"no bucket", func(c *blobstore.S3Config) { c.Bucket = "" }, "s3 bucket is empty"},
		{"no access key id", func(c *blobstore.S3Config) { c.AccessKeyID = "" }, "both required"},
		{"no secret", func(c *blobstore.S3Config) { c.SecretAccessKey = "" }, "both required"},
		{"prefix climbing up", func(c *blobstore.S3Config) { c.Prefix = "a/../b" }, "s3 prefix"},
		{"prefix with a space", func(c *blobstore.S3Config) { c.Prefix = "my site" }, "s3 prefix"},
		{"part below 5 MiB", func(c *blobstore.S3Config) { c.PartSize = 1 << 20 }, "part size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := good
			tt.edit(&c)
			_, err := blobstore.NewS3(c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one mentioning %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "id:secret@") {
				t.Errorf("error shows the endpoint's password: %v", err)
			}
		})
	}
	if _, err := blobstore.NewS3(good); err != nil {
		t.Errorf("good settings refused: %v", err)
	}
}

// Package blobstoretest is the conformance suite every blobstore.Store backend
// runs: call Run from the backend's own test with a constructor for an empty
// store.
package blobstoretest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"siteplane.dev/services/internal/media/blobstore"
)

// Run exercises newStore's store. Each subtest gets a fresh store.
func Run(t *testing.T, newStore func(t *testing.T) blobstore.Store) {
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) { c.run(t, newStore(t)) })
	}
}

// checks are the suite's subtests, in the order they run; each is given an
// empty store.
var checks = []struct {
	name string
	run  func(t *testing.T, s blobstore.Store)
}{
	{"PutOpenRoundTrip", checkPutOpenRoundTrip},
	{"Seek", checkSeek},
	{"EmptyObject", checkEmptyObject},
	{"UnknownSize", checkUnknownSize},
	{"Overwrite", checkOverwrite},
	{"OpenMissing", checkOpenMissing},
	{"DeleteRemovesAndMissingIsFine", checkDeleteRemovesAndMissingIsFine},
	{"FailedPutStoresNothing", checkFailedPutStoresNothing},
	{"SizeMismatchStoresNothing", checkSizeMismatchStoresNothing},
	{"CanceledContext", checkCanceledContext},
	{"InvalidKeysRefused", checkInvalidKeysRefused},
	{"ConcurrentPuts", checkConcurrentPuts},
}

func checkPutOpenRoundTrip(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	data := bytes.Repeat([]byte("0123456789"), 10_000)
	mustPut(t, s, "2026/11/photo.jpg", data)
	got := readAll(t, s, "2026/11/photo.jpg")
	if !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes, want the %d written", len(got), len(data))
	}
	o, err := s.Open(ctx, "2026/11/photo.jpg")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if o.Size() != int64(len(data)) {
		t.Errorf("Size() = %d, want %d", o.Size(), len(data))
	}
	if mt := o.ModTime(); mt.IsZero() || time.Since(mt) > time.Hour || time.Until(mt) > time.Hour {
		t.Errorf("ModTime() = %v, want about now", mt)
	}
}

func checkSeek(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	mustPut(t, s, "a/seek.bin", []byte("abcdefghij"))
	o, err := s.Open(ctx, "a/seek.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if end, err := o.Seek(0, io.SeekEnd); err != nil || end != 10 {
		t.Fatalf("Seek(0, End) = %d, %v; want 10", end, err)
	}
	if _, err := o.Seek(3, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(o, buf); err != nil || string(buf) != "defg" {
		t.Fatalf("read after Seek(3) = %q, %v; want defg", buf, err)
	}
	if _, err := o.Seek(-2, io.SeekCurrent); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(o)
	if err != nil || string(rest) != "fghij" {
		t.Fatalf("read after Seek(-2, Current) = %q, %v; want fghij", rest, err)
	}
}

func checkEmptyObject(t *testing.T, s blobstore.Store) {
	mustPut(t, s, "empty.txt", nil)
	if got := readAll(t, s, "empty.txt"); len(got) != 0 {
		t.Fatalf("read %q, want empty", got)
	}
}

func checkUnknownSize(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	if err := s.Put(ctx, "u/nosize.bin", bytes.NewReader([]byte("hello")), -1, "application/octet-stream"); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, s, "u/nosize.bin"); string(got) != "hello" {
		t.Fatalf("read %q, want hello", got)
	}
}

func checkOverwrite(t *testing.T, s blobstore.Store) {
	mustPut(t, s, "o.txt", []byte("first version"))
	mustPut(t, s, "o.txt", []byte("second"))
	if got := readAll(t, s, "o.txt"); string(got) != "second" {
		t.Fatalf("read %q, want second", got)
	}
}

func checkOpenMissing(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	_, err := s.Open(ctx, "2026/01/missing.png")
	if !errors.Is(err, blobstore.ErrNotExist) {
		t.Fatalf("Open(missing) error = %v, want ErrNotExist", err)
	}
}

func checkDeleteRemovesAndMissingIsFine(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	mustPut(t, s, "d/x.txt", []byte("x"))
	if err := s.Delete(ctx, "d/x.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "d/x.txt"); !errors.Is(err, blobstore.ErrNotExist) {
		t.Fatalf("Open after Delete error = %v, want ErrNotExist", err)
	}
	if err := s.Delete(ctx, "d/x.txt"); err != nil {
		t.Fatalf("second Delete = %v, want nil", err)
	}
	if err := s.Delete(ctx, "never/was.txt"); err != nil {
		t.Fatalf("Delete(never stored) = %v, want nil", err)
	}
}

func checkFailedPutStoresNothing(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	boom := errors.New("reader broke")
	err := s.Put(ctx, "f/new.bin", io.MultiReader(bytes.NewReader(make([]byte, 70_000)), errReader{boom}), 100_000, "application/octet-stream")
	if err == nil {
		t.Fatal("Put with a failing reader succeeded")
	}
	if _, err := s.Open(ctx, "f/new.bin"); !errors.Is(err, blobstore.ErrNotExist) {
		t.Fatalf("Open after failed Put error = %v, want ErrNotExist", err)
	}
	// A failed overwrite keeps the previous object whole.
	mustPut(t, s, "f/old.bin", []byte("previous"))
	if err := s.Put(ctx, "f/old.bin", io.MultiReader(bytes.NewReader([]byte("part")), errReader{boom}), 10, ""); err == nil {
		t.Fatal("Put with a failing reader succeeded")
	}
	if got := readAll(t, s, "f/old.bin"); string(got) != "previous" {
		t.Fatalf("after failed overwrite read %q, want previous", got)
	}
}

func checkSizeMismatchStoresNothing(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	for _, size := range []int64{3, 50} {
		if err := s.Put(ctx, "m/short.bin", bytes.NewReader([]byte("0123456789")), size, ""); err == nil {
			t.Errorf("Put of 10 bytes with size %d succeeded", size)
		}
		if _, err := s.Open(ctx, "m/short.bin"); !errors.Is(err, blobstore.ErrNotExist) {
			t.Errorf("Open after size-mismatch Put error = %v, want ErrNotExist", err)
		}
	}
}

func checkCanceledContext(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Put(cctx, "c/x.bin", bytes.NewReader(make([]byte, 1<<20)), 1<<20, ""); err == nil {
		t.Fatal("Put with a canceled context succeeded")
	}
	if _, err := s.Open(ctx, "c/x.bin"); !errors.Is(err, blobstore.ErrNotExist) {
		t.Fatalf("Open after canceled Put error = %v, want ErrNotExist", err)
	}
}

func checkInvalidKeysRefused(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	mustPut(t, s, "inside.txt", []byte("ok"))
	for _, key := range []string{
		"", "/abs.txt", "../escape.txt", "a/../../escape.txt", "a/./b.txt", "a//b.txt",
		"a/", ".hidden", "a/.tmp-1", `a\b.txt`, "a b.txt", "a%2e%2e/b", "ünï.txt", "a\x00b",
	} {
		if err := s.Put(ctx, key, bytes.NewReader([]byte("x")), 1, ""); !errors.Is(err, blobstore.ErrInvalidKey) {
			t.Errorf("Put(%q) error = %v, want ErrInvalidKey", key, err)
		}
		if _, err := s.Open(ctx, key); !errors.Is(err, blobstore.ErrInvalidKey) {
			t.Errorf("Open(%q) error = %v, want ErrInvalidKey", key, err)
		}
		if err := s.Delete(ctx, key); !errors.Is(err, blobstore.ErrInvalidKey) {
			t.Errorf("Delete(%q) error = %v, want ErrInvalidKey", key, err)
		}
	}
}

func checkConcurrentPuts(t *testing.T, s blobstore.Store) {
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data := bytes.Repeat([]byte{byte('a' + i)}, 20_000)
			// Half write distinct keys, half race on one key.
			key := fmt.Sprintf("cc/%d.bin", i)
			if i%2 == 0 {
				key = "cc/shared.bin"
			}
			if err := s.Put(ctx, key, bytes.NewReader(data), int64(len(data)), ""); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := readAll(t, s, "cc/shared.bin")
	if len(got) != 20_000 || !bytes.Equal(got, bytes.Repeat(got[:1], 20_000)) {
		t.Fatalf("shared key holds a mixed or partial object (%d bytes)", len(got))
	}
	for i := 1; i < 16; i += 2 {
		got := readAll(t, s, fmt.Sprintf("cc/%d.bin", i))
		if !bytes.Equal(got, bytes.Repeat([]byte{byte('a' + i)}, 20_000)) {
			t.Errorf("cc/%d.bin holds the wrong bytes", i)
		}
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func mustPut(t *testing.T, s blobstore.Store, key string, data []byte) {
	t.Helper()
	if err := s.Put(context.Background(), key, bytes.NewReader(data), int64(len(data)), "application/octet-stream"); err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
}

func readAll(t *testing.T, s blobstore.Store, key string) []byte {
	t.Helper()
	o, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("Open(%q): %v", key, err)
	}
	defer o.Close()
	data, err := io.ReadAll(o)
	if err != nil {
		t.Fatalf("read %q: %v", key, err)
	}
	return data
}

package blobstore_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplane.dev/services/internal/media/blobstore"
	"siteplane.dev/services/internal/media/blobstore/blobstoretest"
)

func newFS(t *testing.T) (*blobstore.FS, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "uploads")
	s, err := blobstore.NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

func TestFSConformance(t *testing.T) {
	blobstoretest.Run(t, func(t *testing.T) blobstore.Store {
		s, dir := newFS(t)
		t.Cleanup(func() {
			// No write may leave its temporary file behind.
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.HasPrefix(d.Name(), ".tmp-") {
					t.Errorf("temporary file left behind: %s", p)
				}
				return nil
			})
		})
		return s
	})
}

// A symlink planted inside the root must not lead a key outside it.
func TestFSSymlinkEscapeRefused(t *testing.T) {
	s, dir := newFS(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if o, err := s.Open(ctx, "link/secret.txt"); err == nil {
		o.Close()
		t.Fatal("Open through a symlink out of the root succeeded")
	}
	if err := s.Put(ctx, "link/planted.txt", bytes.NewReader([]byte("x")), 1, ""); err == nil {
		t.Fatal("Put through a symlink out of the root succeeded")
	}
	if _, err := os.Stat(filepath.Join(outside, "planted.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("file written outside the root: %v", err)
	}
}

// Directories are not objects.
func TestFSOpenDirectoryIsNotExist(t *testing.T) {
	s, _ := newFS(t)
	ctx := context.Background()
	if err := s.Put(ctx, "2026/11/a.txt", bytes.NewReader([]byte("a")), 1, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "2026/11"); !errors.Is(err, blobstore.ErrNotExist) {
		t.Fatalf("Open(directory) error = %v, want ErrNotExist", err)
	}
}

// A key through a symlink out of the root reads as missing, not as an error.
func TestFSSymlinkEscapeIsNotExist(t *testing.T) {
	s, dir := newFS(t)
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(context.Background(), "out/x.txt"); !errors.Is(err, blobstore.ErrNotExist) {
		t.Fatalf("Open through an escaping symlink: %v, want ErrNotExist", err)
	}
}

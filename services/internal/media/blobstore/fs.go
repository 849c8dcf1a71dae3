package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// FS stores blobs as files under a root directory. Keys map to relative paths
// (ValidKey guarantees they stay inside the root); every access also goes
// through os.Root, so a symlink planted under the root cannot lead outside it.
type FS struct {
	root *os.Root
	dir  string
}

// NewFS opens (creating if needed) the directory dir as a store.
func NewFS(dir string) (*FS, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create blob directory: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open blob directory: %w", err)
	}
	return &FS{root: root, dir: dir}, nil
}

// Close releases the root directory handle.
func (s *FS) Close() error { return s.root.Close() }

// tmpPrefix marks in-progress writes; ValidKey refuses segments starting with
// a dot, so no key can name one.
const tmpPrefix = ".tmp-"

// Put writes to a temporary file in the target directory and renames it into
// place, so the key never names a partial file.
func (s *FS) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if err := ValidKey(key); err != nil {
		return err
	}
	dir := filepath.Dir(filepath.FromSlash(key))
	if dir != "." {
		if err := s.root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("put %s: create directory: %w", key, err)
		}
	}
	tmp := filepath.Join(dir, fmt.Sprintf("%s%d-%d", tmpPrefix, os.Getpid(), time.Now().UnixNano()))
	f, err := s.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			s.root.Remove(tmp)
		}
	}()
	n, err := io.Copy(f, ctxReader{ctx, r})
	if err != nil {
		return fmt.Errorf("put %s: write: %w", key, err)
	}
	if size >= 0 && n != size {
		return fmt.Errorf("put %s: wrote %d bytes, want %d", key, n, size)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("put %s: sync: %w", key, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("put %s: close: %w", key, err)
	}
	if err := s.root.Rename(tmp, filepath.FromSlash(key)); err != nil {
		s.root.Remove(tmp)
		done = true
		return fmt.Errorf("put %s: rename: %w", key, err)
	}
	done = true
	return nil
}

// Open opens the file for the key.
func (s *FS) Open(ctx context.Context, key string) (Object, error) {
	if err := ValidKey(key); err != nil {
		return nil, err
	}
	f, err := s.root.Open(filepath.FromSlash(key))
	if missing(err) {
		return nil, fmt.Errorf("open %s: %w", key, ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("open %s: %w", key, ErrNotExist)
	}
	return &fsObject{File: f, info: st}, nil
}

// Delete removes the file; a missing one is fine.
func (s *FS) Delete(ctx context.Context, key string) error {
	if err := ValidKey(key); err != nil {
		return err
	}
	err := s.root.Remove(filepath.FromSlash(key))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// missing reports errors that mean "no object has this key": absent, a
// file where a directory was expected, or a symlink leading out of the root
// (os.Root refuses it; for a reader it does not exist).
func missing(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return true
	}
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes")
}

type fsObject struct {
	*os.File
	info fs.FileInfo
}

func (o *fsObject) Size() int64        { return o.info.Size() }
func (o *fsObject) ModTime() time.Time { return o.info.ModTime() }

// ctxReader stops a copy when the context ends (a client that went away).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

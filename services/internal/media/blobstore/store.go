// Package blobstore is the media service's storage for file bytes: originals
// and generated image sizes. Metadata lives in PostgreSQL; a blob is only
// reachable through its key, which the service derives from the attachment
// (for example "2026/11/photo-150x150.jpg").
//
// Backends: the local filesystem (FS, the default) and an S3-compatible
// object store. Every backend must pass blobstoretest.Run.
package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// ErrNotExist is returned by Open when no object has the key.
var ErrNotExist = errors.New("blob does not exist")

// ErrInvalidKey is returned for keys that ValidKey refuses.
var ErrInvalidKey = errors.New("invalid blob key")

// Store holds blobs by key.
type Store interface {
	// Put stores the object atomically: a reader of the key sees either the
	// previous object (or none) or the whole new one, never a partial write.
	// size is the number of bytes r yields (-1 if unknown); a reader that
	// yields a different count is an error and nothing is stored.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	// Open returns the object; ErrNotExist (wrapped) when the key is missing.
	Open(ctx context.Context, key string) (Object, error)
	// Delete removes the object; a missing key is not an error.
	Delete(ctx context.Context, key string) error
}

// Object is an open blob: enough for http.ServeContent.
type Object interface {
	io.ReadSeekCloser
	Size() int64
	ModTime() time.Time
}

// MaxKeyLen bounds key length (S3 allows 1024 bytes).
const MaxKeyLen = 512

// ValidKey reports whether key is acceptable to every backend: slash-separated
// segments of letters, digits and "._-", no empty, "." or ".." segment, no
// leading dot in a segment, not absolute. Keys are therefore safe to join
// under a filesystem root and need no escaping in an object-store URL.
func ValidKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return fmt.Errorf("%w: length %d", ErrInvalidKey, len(key))
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg[0] == '.' {
			return fmt.Errorf("%w: %q", ErrInvalidKey, key)
		}
		for i := 0; i < len(seg); i++ {
			c := seg[i]
			switch {
			case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
			default:
				return fmt.Errorf("%w: %q", ErrInvalidKey, key)
			}
		}
	}
	return nil
}

package media

import (
	"bufio"
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"

	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/rest"
)

// Files wait on disk, not in the heap: a raw upload body, a stored
// original an edit or post-process reads, and an edit's encoded result
// are unlinked temporary files of the spool directory.

// spool writes a raw body to an unlinked temporary file in the spool
// directory (nothing is left behind, whatever happens to the process),
// reading at most one byte more than the upload limit, and returns it with
// its MD5 (hex). A body the route kit already read (Request.Body) is used
// as it is. A nil file means an empty body.
func (s *Service) spool(r *rest.Request) (*incoming, string, error) {
	if r.BodyReader == nil {
		if len(r.Body) == 0 {
			return nil, "", nil
		}
		return &incoming{src: bytes.NewReader(r.Body), size: int64(len(r.Body)), close: func() {}}, "", nil
	}
	body := bufio.NewReaderSize(r.BodyReader, 32<<10)
	if _, err := body.Peek(1); err == io.EOF {
		return nil, "", nil // no data: nothing to spool
	} else if err != nil {
		return nil, "", rest.BodyError(err)
	}
	f, err := s.tempFile()
	if err != nil {
		return nil, "", s.spoolFailed(r, err)
	}
	closeFile := func() { f.Close() }
	h := md5.New()
	n, err := io.Copy(spoolWriter{io.MultiWriter(f, h)}, io.LimitReader(body, s.maxUpload+1))
	if err != nil {
		closeFile()
		var we writeError
		if errors.As(err, &we) {
			return nil, "", s.spoolFailed(r, err)
		}
		return nil, "", rest.BodyError(err)
	}
	return &incoming{src: f, size: n, close: closeFile}, hex.EncodeToString(h.Sum(nil)), nil
}

// spoolFailed logs why the spool file could not be written (the path is
// the server's business) and answers WordPress's error for an upload it
// could not move into place.
func (s *Service) spoolFailed(r *rest.Request, err error) error {
	logging.FromContext(r.Context(), s.logger).Error("spool upload", "error", err.Error())
	return uploadErr("rest_upload_sideload_error", "The uploaded file could not be saved.", http.StatusInternalServerError)
}

// spoolWriter tags its failures, so that a full spool disk is the server's
// error while a broken body is the client's.
type spoolWriter struct{ w io.Writer }

type writeError struct{ error }

func (e writeError) Unwrap() error { return e.error }

func (sw spoolWriter) Write(p []byte) (int, error) {
	n, err := sw.w.Write(p)
	if err != nil {
		err = writeError{err}
	}
	return n, err
}

// spoolBlob copies the stored file key into an unlinked temporary file, so
// that it can be decoded (which reads at any offset) without holding it.
// The caller closes the file.
func (s *Service) spoolBlob(ctx context.Context, key string) (*os.File, int64, error) {
	o, err := s.blobs.Open(ctx, key)
	if err != nil {
		return nil, 0, err
	}
	defer o.Close()
	f, err := s.tempFile()
	if err != nil {
		return nil, 0, err
	}
	n, err := io.Copy(f, o)
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("read file %s: %w", key, err)
	}
	return f, n, nil
}

// tempFile is a new unlinked file of the spool directory: nothing is left
// behind, whatever happens to the process.
func (s *Service) tempFile() (*os.File, error) {
	f, err := os.CreateTemp(s.spoolDir, "media-*")
	if err != nil {
		return nil, fmt.Errorf("spool file: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("spool file: %w", err)
	}
	return f, nil
}

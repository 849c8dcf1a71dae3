package media

import (
	"errors"
	"fmt"
	"net/http"
	"path"
	"strings"

	"siteplane.dev/services/internal/media/blobstore"
	"siteplane.dev/services/internal/platform/identity"
)

// FilesHandler serves the uploaded files at UploadsPath: the blob key is
// the rest of the path. Keys are validated (blobstore.ValidKey) before any
// storage access, so "..", encoded slashes or absolute paths never reach
// the store; Range, If-None-Match and If-Modified-Since are answered by
// http.ServeContent. A file is served only as part of its attachment: a
// private attachment's files only to those who may read it (404 to
// anyone else, as for a missing file), and never to shared caches.
func (s *Service) FilesHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
			return
		}
		// EscapedPath: a %2F must stay a literal, invalid key character
		raw := r.URL.EscapedPath()
		key, ok := strings.CutPrefix(raw, UploadsPath)
		if !ok || blobstore.ValidKey(key) != nil {
			http.NotFound(w, r)
			return
		}
		// failed answers a missing file 404 (as one that never existed)
		// and any other failure 503, so caches do not remember it missing
		failed := func(err, missing error) bool {
			switch {
			case err == nil:
				return false
			case errors.Is(err, missing):
				http.NotFound(w, r)
			default:
				s.logger.ErrorContext(r.Context(), "open file", "key", key, "error", err.Error())
				http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
			}
			return true
		}
		a, err := fileOwner(r.Context(), s.reader(r.Context()), key)
		if failed(err, errNotFound) {
			return
		}
		public := a.Status != "private"
		if !public && !canRead(identity.FromContext(r.Context()), a) {
			http.NotFound(w, r)
			return
		}
		o, err := s.blobs.Open(r.Context(), key)
		if failed(err, blobstore.ErrNotExist) {
			return
		}
		defer o.Close()
		fileHeaders(w.Header(), key, public)
		w.Header().Set("ETag", fmt.Sprintf(`"%x-%x"`, o.ModTime().UnixNano(), o.Size()))
		http.ServeContent(w, r, "", o.ModTime(), o)
	})
}

// fileHeaders are the headers of a served file. The upload's bytes are the
// author's, served from the site's origin: the type is the one the service
// chose from the bytes, never sniffed; the file runs in a sandbox if a
// browser opens it (no script, no same-origin access); and a type that a
// browser would render as a document with active content (PDF, and
// anything but images, audio, video and plain text) is a download. The
// embedded uses of files (img, video, audio, track) ignore both.
func fileHeaders(h http.Header, key string, public bool) {
	ct := contentTypeOf(key)
	h.Set("Content-Type", ct)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox")
	if !inlineType(ct) {
		h.Set("Content-Disposition", `attachment; filename="`+path.Base(key)+`"`)
	}
	if public {
		// File names are never reused for different content while the
		// attachment exists (edits create new files), so caches may keep
		// them for a year.
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "private, no-cache")
	}
}

// inlineType tells the types a browser may show in its own tab: pictures
// (never SVG, which is a document), sound, video and plain text.
func inlineType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	major, _, _ := strings.Cut(mt, "/")
	switch {
	case mt == "image/svg+xml":
		return false
	case major == "image", major == "audio", major == "video", mt == "text/plain":
		return true
	}
	return false
}

// contentTypeOf maps a stored file's extension to its type. Extensions are
// chosen by the service from the detected type, so they are trustworthy.
func contentTypeOf(key string) string {
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(key), "."))
	for _, t := range sniffed {
		if t.Ext == ext {
			return t.Mime
		}
	}
	switch ext {
	case "jpeg", "jpe":
		return "image/jpeg"
	case "tiff":
		return "image/tiff"
	case "ogv":
		return "video/ogg"
	case "m4v":
		return "video/mp4"
	}
	if m, ok := extMime[ext]; ok {
		if strings.HasPrefix(m, "text/") {
			return m + "; charset=utf-8"
		}
		return m
	}
	return "application/octet-stream"
}

package media

import (
	"errors"
	"fmt"
	"net/http"
	"path"
	"strings"

	"siteplane.dev/services/internal/media/blobstore"
)

// FilesHandler serves the uploaded files at UploadsPath: the blob key is
// the rest of the path. Keys are validated (blobstore.ValidKey) before any
// storage access, so "..", encoded slashes or absolute paths never reach
// the store; Range, If-None-Match and If-Modified-Since are answered by
// http.ServeContent.
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
		o, err := s.blobs.Open(r.Context(), key)
		if errors.Is(err, blobstore.ErrNotExist) {
			http.NotFound(w, r)
			return
		}
		if err != nil {
			s.logger.ErrorContext(r.Context(), "open file", "key", key, "error", err.Error())
			http.Error(w, "Service Unavailable", http.StatusServiceUnavailable)
			return
		}
		defer o.Close()
		h := w.Header()
		h.Set("Content-Type", contentTypeOf(key))
		h.Set("X-Content-Type-Options", "nosniff")
		// File names are never reused for different content while the
		// attachment exists (edits create new files), so caches may keep
		// them for a year.
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("ETag", fmt.Sprintf(`"%x-%x"`, o.ModTime().UnixNano(), o.Size()))
		http.ServeContent(w, r, "", o.ModTime(), o)
	})
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

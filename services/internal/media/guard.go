package media

import (
	"mime"
	"net/http"
	"strings"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// Memory is bounded before the body is read (docs/security.md, "Media"):
// the route kit reads JSON, form and multipart bodies whole, and decodes
// JSON into generic values (a 32 MiB JSON array held 848 MiB), before it
// knows the route's permission. These limits are media's own, chosen from
// what its callers need, and keyed on the caller rather than on the route,
// so no spelling of a route (rest_route, _method, a trailing slash) goes
// around them.

// Body limits of the media service.
const (
	// guestBodyBytes bounds any body of a caller who may not upload
	// (anonymous, subscriber, contributor): every media write needs
	// upload_files or authorship of an attachment, so such a caller has
	// nothing to send beyond a few fields. Smaller bodies still get
	// WordPress's answers in WordPress's order (validation, then 401/403).
	guestBodyBytes = 64 << 10
	// jsonBodyBytes bounds a JSON body: media's JSON carries fields only (an
	// upload is a raw or multipart body), and JSON is decoded at up to ~26
	// times its size.
	jsonBodyBytes = 1 << 20
	// multipartMemory is what a multipart upload may hold in memory; larger
	// parts go to temporary files, so the upload waits on disk.
	multipartMemory = 64 << 10
)

// limitBodies runs before anything reads the body (the idempotency
// middleware included): it caps the body of a caller who may not upload,
// and every JSON body, so the route kit answers 413 rest_body_too_large
// after reading at most that much. The files route is not a REST body of
// clients.
func (s *Service) limitBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || strings.HasPrefix(r.URL.Path, UploadsPath) {
			next.ServeHTTP(w, r)
			return
		}
		limit := int64(-1)
		if !identity.FromContext(r.Context()).Can("upload_files") {
			limit = guestBodyBytes
		} else if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); isJSONType(mt) {
			limit = jsonBodyBytes
		}
		if limit >= 0 {
			if r.ContentLength > limit {
				tooLarge(w)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		next.ServeHTTP(w, r)
	})
}

func isJSONType(mt string) bool {
	mt = strings.ToLower(mt)
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

// tooLarge is the route kit's answer to a body over its limit.
func tooLarge(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	rest.WriteError(w, rest.NewError("rest_body_too_large", "The request body is too large.", http.StatusRequestEntityTooLarge))
}

// limitUploads answers an upload whose announced length is over the limit
// with WordPress's error before the body is read, and reads a multipart
// body itself with a small memory allowance, so that the file part goes to
// a temporary file instead of the heap (the route kit would keep up to
// 32 MiB of it in memory); the kit then finds the form parsed. It runs
// after the idempotency middleware, which fingerprints the body as sent.
func (s *Service) limitUploads(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.EqualFold(strings.TrimRight(r.URL.Path, "/"), routePrefix) &&
			r.ContentLength > s.maxUpload+multipartSlack {
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusBadRequest)
			body, _ := s.errFileTooBig().MarshalJSON()
			w.Write(body)
			return
		}
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" && r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, s.maxUpload+multipartSlack)
			if err := r.ParseMultipartForm(multipartMemory); err != nil {
				rest.WriteError(w, rest.NewError("rest_invalid_body", "The request body could not be read.", http.StatusBadRequest))
				return
			}
			// this request may be a copy of the server's, which then
			// would not remove the temporary files
			defer r.MultipartForm.RemoveAll() //nolint:errcheck // a temporary file left behind is the system's to clean
		}
		next.ServeHTTP(w, r)
	})
}

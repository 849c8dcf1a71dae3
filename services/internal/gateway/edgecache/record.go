package edgecache

import (
	"bytes"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/platform/postgres"
)

// XCache is the response header that says how an answer was served.
const XCache = "X-Cache"

// Serve writes a stored answer. Header names are copied as stored (the
// gateway's WordPress spellings included).
func Serve(w http.ResponseWriter, r *http.Request, e *Entry) {
	h := w.Header()
	for k := range h {
		if !perRequest(k) {
			delete(h, k)
		}
	}
	for k, vs := range e.Header {
		h[k] = slices.Clone(vs)
	}
	h.Set(XCache, "hit")
	if r.Method != http.MethodHead {
		h.Set("Content-Length", strconv.Itoa(len(e.Body)))
	}
	w.WriteHeader(e.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(e.Body)
	}
}

// Recorder passes an answer through to the client and keeps a copy of it
// (up to a limit) for the cache.
type Recorder struct {
	http.ResponseWriter
	status   int
	header   http.Header
	body     bytes.Buffer
	limit    int64
	overflow bool
	head     bool
}

// NewRecorder records at most limit body bytes of the answer to r; a longer
// answer is passed through but not kept.
func NewRecorder(w http.ResponseWriter, r *http.Request, limit int64) *Recorder {
	return &Recorder{ResponseWriter: w, limit: limit, head: r.Method == http.MethodHead}
}

// WriteHeader snapshots the headers as they go out.
func (rec *Recorder) WriteHeader(code int) {
	if rec.status == 0 && code >= 200 {
		rec.status = code
		// the replica position is the cache's business, not the client's
		h := rec.ResponseWriter.Header()
		readLSN := h.Get(postgres.HeaderReadLSN)
		h.Del(postgres.HeaderReadLSN)
		rec.ResponseWriter.WriteHeader(code)
		rec.header = maps.Clone(h)
		if readLSN != "" {
			rec.header.Set(postgres.HeaderReadLSN, readLSN)
		}
		return
	}
	rec.ResponseWriter.WriteHeader(code)
}

func (rec *Recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.WriteHeader(http.StatusOK)
	}
	if !rec.overflow {
		if int64(rec.body.Len()+len(b)) > rec.limit {
			rec.overflow = true
			rec.body = bytes.Buffer{}
		} else {
			rec.body.Write(b)
		}
	}
	return rec.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController (the proxy's flushes) reach the
// connection.
func (rec *Recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// Entry is the recorded answer, if it is complete and may be stored.
func (rec *Recorder) Entry() (*Entry, bool) {
	if rec.status == 0 || rec.overflow || !Storable(rec.status, rec.header) {
		return nil, false
	}
	// A body shorter than announced was cut off (the backend failed
	// mid-answer): never keep it. HEAD announces a length it does not send.
	if cl := rec.header.Get("Content-Length"); cl != "" && !rec.head && cl != strconv.Itoa(rec.body.Len()) {
		return nil, false
	}
	h := rec.header.Clone()
	for k := range h {
		if perRequest(k) {
			delete(h, k)
		}
	}
	return &Entry{Status: rec.status, Header: h, Body: bytes.Clone(rec.body.Bytes())}, true
}

// perRequest reports whether a response header belongs to one request and
// so is never stored nor replayed: the request id (each caller keeps its
// own) and the date (the server writes the current one).
func perRequest(name string) bool {
	return strings.EqualFold(name, "X-Request-Id") || strings.EqualFold(name, "Date")
}

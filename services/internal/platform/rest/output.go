package rest

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// Writing an answer: status, body (JSON, JSONP, _envelope), CORS and the
// header spellings and order WordPress sends (§1.1 steps 10-12).

// writeBody writes the status and the body: the error, the data or their
// _envelope, as JSON or JSONP; nothing for HEAD, 204 or an empty answer.
func (s *Server) writeBody(w http.ResponseWriter, req *Request, hr *http.Request, jp jsonp, status int, header http.Header, resp *Response, rerr *Error) {
	_, envelope := req.query.get("_envelope")
	var body any
	hasBody := true
	if rerr != nil {
		body = rerr.body()
	} else {
		body = resp.Data
		hasBody = resp.Data != nil
	}
	if envelope {
		body = envelopeOf(status, header, body)
		status = http.StatusOK
		hasBody = true
	}
	if req.Method == http.MethodHead || hr.Method == http.MethodHead || status == http.StatusNoContent || !hasBody {
		w.WriteHeader(status)
		return
	}
	if raw, ok := body.(Raw); ok && !jp.use {
		w.Header().Set("Content-Length", strconv.Itoa(len(raw)))
		w.WriteHeader(status)
		_, _ = w.Write(raw)
		return
	}
	bp := bufPool.Get().(*[]byte)
	buf := (*bp)[:0]
	if jp.use {
		buf = append(buf, "/**/"...)
		buf = append(buf, jp.callback...)
		buf = append(buf, '(')
	}
	buf = s.encode(buf, req, body, rerr == nil && !envelope, envelope && rerr == nil)
	if jp.use {
		buf = append(buf, ')')
	}
	// The whole body is known: with its length the answer is not chunked,
	// and a proxy in front (the gateway) copies it without flushing each
	// piece.
	w.Header().Set("Content-Length", strconv.Itoa(len(buf)))
	w.WriteHeader(status)
	_, _ = w.Write(buf)
	if cap(buf) <= 1<<20 {
		*bp = buf
		bufPool.Put(bp)
	}
}

var hvOrigin = []string{"Origin"}

// AllowedOrigin is the Access-Control-Allow-Origin value WordPress answers a
// request's Origin with: the origin through esc_url_raw (control characters
// dropped, spaces encoded, unknown schemes refused), "null" as it is.
func AllowedOrigin(origin string) string {
	if origin == "null" {
		return origin
	}
	return sanitizeURL(origin)
}

func addVaryOrigin(h http.Header) {
	if len(h["Vary"]) == 0 {
		h["Vary"] = hvOrigin
		return
	}
	h["Vary"] = append(h["Vary"][:len(h["Vary"]):len(h["Vary"])], "Origin")
}

// firstHeader reads a header by its canonical name without re-canonicalising.
func firstHeader(h http.Header, canonical string) string {
	if v := h[canonical]; len(v) > 0 {
		return v[0]
	}
	return ""
}

func validCallback(cb string) bool {
	for i := 0; i < len(cb); i++ {
		c := cb[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func writeBare(w http.ResponseWriter, code, message string) {
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(appendJSON(Object{{"code", code}, {"message", message}}, false))
}

// encode writes the body; data bodies get context filtering, _fields and
// targetHints, error bodies are written as they are.
func (s *Server) encode(dst []byte, req *Request, body any, isData, enveloped bool) []byte {
	e := encoder{buf: dst, pretty: req.pretty()}
	if !isData && !enveloped {
		e.value(body)
		return e.buf
	}
	if req.route != nil {
		e.schema = req.route.Schema
		e.ctx = req.ViewContext()
	}
	e.srv, e.req = s, req
	fs := req.fieldSet()
	if enveloped {
		env := body.(Object)
		e.openObject()
		e.key("body")
		e.top(env[0].Value, fs)
		for _, m := range env[1:] {
			e.key(m.Key)
			e.value(m.Value)
		}
		e.closeObject()
		return e.buf
	}
	e.top(body, fs)
	return e.buf
}

func (r *Request) pretty() bool {
	if _, ok := r.query.get("_pretty"); ok {
		return true
	}
	if v, ok := r.json["_pretty"]; ok && v != nil {
		return true
	}
	_, ok := r.form.get("_pretty")
	return ok && r.bodyAccepted()
}

// envelopeOf builds {"body", "status", "headers"} (§1.7).
func envelopeOf(status int, header http.Header, body any) Object {
	hs := make(Object, 0, len(header))
	for _, k := range HeaderKeys(header) {
		hs = append(hs, Member{HeaderName(k), strings.Join(header[k], ", ")})
	}
	var headers any = hs
	if len(hs) == 0 {
		headers = []any{} // PHP's empty array
	}
	return Object{{"body", body}, {"status", status}, {"headers", headers}}
}

// HeaderKeys orders a response's own headers as WordPress lists them in an
// _envelope or a batch response: what the controller set (Location, then
// the collection headers X-WP-Total, X-WP-TotalPages and Link, then any
// other, sorted), and Allow last (rest_send_allow_header runs after the
// controller).
func HeaderKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for _, k := range headerOrder {
		if _, ok := h[k]; ok {
			keys = append(keys, k)
		}
	}
	first := len(keys)
	for k := range h {
		if headerRank(k) < 0 && k != "Allow" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys[first:])
	if _, ok := h["Allow"]; ok {
		keys = append(keys, "Allow")
	}
	return keys
}

var headerOrder = []string{"Location", "X-Wp-Total", "X-Wp-Totalpages", "Link"}

func headerRank(k string) int {
	for i, o := range headerOrder {
		if o == k {
			return i
		}
	}
	return -1
}

// HeaderName spells a canonical header name (as net/http keys it) the way
// WordPress sends it: "X-Wp-Total" is "X-WP-Total". Other names are
// returned unchanged.
func HeaderName(k string) string {
	switch k {
	case "X-Wp-Total":
		return "X-WP-Total"
	case "X-Wp-Totalpages":
		return "X-WP-TotalPages"
	case "X-Wp-Upload-Attachment-Id":
		return "X-WP-Upload-Attachment-ID"
	case "X-Wp-Nonce":
		return "X-WP-Nonce"
	}
	return k
}

package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
	"strings"
	"unicode/utf8"
)

// MaxJSONValues is the most values (array elements and object members,
// counted at every depth) a JSON body may hold. Decoded into Go values each
// costs tens of bytes, so a 9 MiB body of "[0,0,..." once cost 421 MiB
// before the permission check could refuse it; a real client's body holds a
// few hundred (issue 26, docs/security.md).
const MaxJSONValues = 100000

// bodyLimit is the most bytes an endpoint's body may hold: its own MaxBody,
// never above the server's MaxBodyBytes.
func (s *Server) bodyLimit(ep *Endpoint) int64 {
	if ep != nil && ep.MaxBody > 0 && ep.MaxBody < s.opts.MaxBodyBytes {
		return ep.MaxBody
	}
	return s.opts.MaxBodyBytes
}

// readBody gathers body parameters (§1.5): JSON for JSON media types, form
// and multipart bodies parsed PHP-style; other bodies stay raw. ep is the
// endpoint the request matched: its MaxBody bounds the read, and a request
// no endpoint serves (answered rest_no_route, as WordPress answers before
// reading parameters) or an OPTIONS request leaves its body unread.
func (s *Server) readBody(req *Request, hr *http.Request, w http.ResponseWriter, ep *Endpoint) *Error {
	if hr.Body == nil || hr.Body == http.NoBody || ep == nil || req.Method == http.MethodOptions {
		return nil
	}
	limit := s.bodyLimit(ep)
	if hr.ContentLength > limit {
		return BodyError(&http.MaxBytesError{Limit: limit})
	}
	ct := firstHeader(hr.Header, "Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if mt == "" && ct != "" {
		mt = strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
	}
	if mt == "multipart/form-data" {
		hr.Body = http.MaxBytesReader(w, hr.Body, limit)
		return s.readMultipart(req, hr)
	}
	isForm := mt == "application/x-www-form-urlencoded" || (mt == "" && req.Method != "POST")
	if !isJSONMediaType(mt) && !isForm && ep.StreamBody {
		req.BodyReader = http.MaxBytesReader(w, hr.Body, limit)
		return nil
	}
	body, err := readAll(http.MaxBytesReader(w, hr.Body, limit), hr.ContentLength)
	if err != nil {
		return BodyError(err)
	}
	req.Body = body
	if len(body) == 0 {
		return nil
	}
	switch {
	case isJSONMediaType(mt):
		req.json, req.jsonErr = parseJSONBody(body)
	case isForm:
		var err *Error
		if req.form, err = parseInput(string(body)); err != nil {
			return err
		}
	}
	return nil
}

// readAll reads r whole. A declared length (already checked against the
// limit) sizes the buffer once, instead of doubling it up to twice the body.
func readAll(r io.Reader, declared int64) ([]byte, error) {
	if declared <= 0 {
		return io.ReadAll(r)
	}
	buf := make([]byte, declared)
	n, err := io.ReadFull(r, buf)
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = io.ErrUnexpectedEOF // shorter than declared: the server refuses it too
		}
		return buf[:n], err
	}
	// Nothing may follow the declared length (net/http stops there).
	var one [1]byte
	if m, _ := r.Read(one[:]); m > 0 {
		return nil, errors.New("body longer than its Content-Length")
	}
	return buf, nil
}

// readMultipart parses a multipart/form-data body PHP-style.
func (s *Server) readMultipart(req *Request, hr *http.Request) *Error {
	if err := hr.ParseMultipartForm(32 << 20); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return BodyError(err)
		}
		return NewError("rest_invalid_body", "The request body could not be read.", http.StatusBadRequest)
	}
	form := &phpArray{}
	vars := 0
	for _, k := range sortedValueKeys(hr.MultipartForm.Value) {
		if vars += len(hr.MultipartForm.Value[k]); vars > MaxInputVars {
			return errTooManyParams()
		}
		base, subs, tooDeep := parseKey(k, nil)
		if tooDeep {
			return errTooDeep()
		}
		if base == "" {
			continue
		}
		for _, v := range hr.MultipartForm.Value[k] {
			form.assign(base, subs, v)
		}
	}
	req.form = form.finish()
	req.Files = hr.MultipartForm.File
	return nil
}

// BodyError is the answer to a failed body read: 413 over the body limit,
// else 400.
func BodyError(err error) *Error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return NewError("rest_body_too_large", "The request body is too large.", http.StatusRequestEntityTooLarge)
	}
	return NewError("rest_invalid_body", "The request body could not be read.", http.StatusBadRequest)
}

func sortedValueKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func isJSONMediaType(mt string) bool {
	mt = strings.ToLower(mt)
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

// parseJSONBody decodes a JSON body; a non-object body has no parameters.
// The checks run on the bytes before anything is decoded (json.Valid and
// jsonShape allocate nothing), so what is decoded is bounded by
// MaxJSONValues; a body that is not an object is checked but never decoded.
func parseJSONBody(body []byte) (map[string]any, *Error) {
	if !utf8.Valid(body) {
		return nil, invalidJSON(5, "Malformed UTF-8 characters, possibly incorrectly encoded")
	}
	if !json.Valid(body) {
		return nil, invalidJSON(4, "Syntax error")
	}
	values, depth, object := jsonShape(body)
	if depth > maxJSONDepth {
		return nil, invalidJSON(1, "Maximum stack depth exceeded")
	}
	if !object {
		return nil, nil
	}
	if values > MaxJSONValues {
		return nil, NewError("rest_too_many_params", fmt.Sprintf("The JSON body holds more than %d values.", MaxJSONValues), http.StatusBadRequest)
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, invalidJSON(4, "Syntax error")
	}
	return m, nil
}

// jsonShape measures a valid JSON text without decoding it: an upper bound
// of its values (separators and containers outside strings, plus one), its
// deepest nesting of arrays and objects, and whether it is an object.
func jsonShape(b []byte) (values, depth int, object bool) {
	values = 1
	level, inString, escaped := 0, false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if level == 0 && depth == 0 {
				object = c == '{'
			}
			level++
			values++
			depth = max(depth, level)
		case '}', ']':
			level--
		case ',':
			values++
		}
	}
	return values, depth, object
}

func invalidJSON(code int, msg string) *Error {
	return &Error{Code: "rest_invalid_json", Message: msgInvalidJSON, Data: Object{
		{"status", http.StatusBadRequest}, {"json_error_code", code}, {"json_error_message", msg},
	}}
}

package marketplace

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"siteplane.dev/services/internal/platform/rest"
)

// Parameters travel in the query string, a form body
// (application/x-www-form-urlencoded or multipart/form-data) or a JSON object
// body. A body value wins over the query value of the same name, as in
// WordPress (JSON, then POST, then GET). The key may also come in
// `Authorization: Bearer <key>`, which wins over every api_key parameter:
// headers stay out of access logs and proxies' URL logs.

const (
	paramKey      = "api_key"
	paramItemID   = "item_id"
	paramPurchase = "purchase_code"
)

// maxParamBody bounds what is read of a body: the API's parameters are a few
// short strings, so a larger body is a client error, not something to buffer.
const maxParamBody = 64 << 10

// param is one parameter value. A JSON value that is neither a string nor a
// number (an object, a list, true, null) is kept as invalid, so that
// `"item_id": true` is a 400 rather than a missing parameter.
type param struct {
	value   string
	invalid bool
}

type params map[string]param

var (
	errBadBody  = errors.New("the request body cannot be parsed")
	errTooLarge = errors.New("the request body is too large")
	errTooMany  = errors.New("the request has too many parameters")
	errBadText  = errors.New("a parameter is not valid UTF-8 text without NUL")
)

// get returns a present, non-empty, valid parameter's trimmed value.
func (p params) get(name string) (v string, ok bool) {
	pv, found := p[name]
	if !found || pv.invalid {
		return "", false
	}
	v = strings.TrimSpace(pv.value)
	return v, v != ""
}

// readParams collects the parameters of r, within the route kit's limits
// (rest.MaxInputVars pairs per source) and refusing text PostgreSQL cannot
// take (NUL, invalid UTF-8) before any statement runs.
func readParams(r *http.Request) (params, error) {
	p, err := readAllParams(r)
	if err != nil {
		return nil, err
	}
	for name, v := range p {
		if !rest.ValidText(name) || !rest.ValidText(v.value) {
			return nil, errBadText
		}
	}
	return p, nil
}

// tooManyPairs reports whether a query string or form body holds more
// than rest.MaxInputVars pairs; counting first keeps a huge one from being
// parsed at all.
func tooManyPairs(raw string) bool {
	return strings.Count(raw, "&") >= rest.MaxInputVars && countPairs(raw) > rest.MaxInputVars
}

func countPairs(raw string) int {
	n := 0
	for _, pair := range strings.Split(raw, "&") {
		if pair != "" {
			n++
		}
	}
	return n
}

func readAllParams(r *http.Request) (params, error) {
	if tooManyPairs(r.URL.RawQuery) {
		return nil, errTooMany
	}
	p := params{}
	for name, vs := range r.URL.Query() {
		if len(vs) > 0 {
			p[name] = param{value: vs[0]}
		}
	}
	if r.Body == nil || r.Body == http.NoBody {
		return p, nil
	}
	ct, mp, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case ct == "application/json" || strings.HasSuffix(ct, "+json"):
		body, err := readBody(r)
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(body)) == 0 {
			return p, nil
		}
		return p, mergeJSON(p, body)
	case ct == "application/x-www-form-urlencoded":
		body, err := readBody(r)
		if err != nil {
			return nil, err
		}
		if tooManyPairs(string(body)) {
			return nil, errTooMany
		}
		vals, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, errBadBody
		}
		mergeValues(p, vals)
	case ct == "multipart/form-data" && mp["boundary"] != "":
		r.Body = http.MaxBytesReader(nil, r.Body, maxParamBody)
		if err := r.ParseMultipartForm(maxParamBody); err != nil {
			if isTooLarge(err) {
				return nil, errTooLarge
			}
			return nil, errBadBody
		}
		if len(r.MultipartForm.Value) > rest.MaxInputVars {
			_ = r.MultipartForm.RemoveAll()
			return nil, errTooMany
		}
		mergeValues(p, r.MultipartForm.Value)
		// File parts are not parameters; drop any the parser spooled to disk.
		_ = r.MultipartForm.RemoveAll()
	}
	return p, nil
}

func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxParamBody+1))
	switch {
	case isTooLarge(err) || len(body) > maxParamBody:
		return nil, errTooLarge
	case err != nil:
		return nil, errBadBody
	}
	return body, nil
}

func isTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

func mergeValues(p params, vals url.Values) {
	for name, vs := range vals {
		if len(vs) > 0 {
			p[name] = param{value: vs[0]}
		}
	}
}

// mergeJSON adds the members of a JSON object body. Numbers keep their
// literal text, so `"item_id": 12` and `"item_id": "12"` read the same and
// `"item_id": 1.5` stays recognisably non-integer.
func mergeJSON(p params, body []byte) error {
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return errBadBody
	}
	if _, err := dec.Token(); err != io.EOF {
		return errBadBody // trailing data after the object
	}
	if len(obj) > rest.MaxInputVars {
		return errTooMany
	}
	for name, raw := range obj {
		raw = bytes.TrimSpace(raw)
		switch {
		case len(raw) > 0 && raw[0] == '"':
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return errBadBody
			}
			p[name] = param{value: s}
		case len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9'):
			p[name] = param{value: string(raw)}
		default:
			p[name] = param{invalid: true}
		}
	}
	return nil
}

// bearerKey returns the key of an `Authorization: Bearer` header. Other
// schemes (Basic, used by the gateway for the content API) are ignored.
func bearerKey(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, value, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	k := strings.TrimSpace(value)
	return k, k != ""
}

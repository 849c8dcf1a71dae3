package rest

import (
	"context"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
)

// Request is what a handler and a permission check see: the matched route,
// the merged parameters (validated and sanitised) and the raw inputs.
type Request struct {
	// Method is the effective method (after _method / X-HTTP-Method-Override).
	Method string
	// Route is the REST route requested, trailing slash removed, e.g. "/cms/v2/posts/5".
	Route string
	// Pattern is the matched route's full pattern, e.g. `/cms/v2/posts/(?P<id>[\d]+)`.
	Pattern string
	// URLParams are the named groups of the pattern.
	URLParams map[string]string
	// Header holds the request headers.
	Header http.Header
	// Body is the raw body (empty for multipart requests, read Files instead;
	// nil when BodyReader is set).
	Body []byte
	// BodyReader is the unread raw body of a StreamBody endpoint (nil
	// otherwise); read errors map to answers with BodyError.
	BodyReader io.Reader
	// Files are the uploaded files of a multipart/form-data body.
	Files map[string][]*multipart.FileHeader
	// Caller is the authenticated user or Anonymous.
	Caller Caller

	ctx      context.Context
	srv      *Server
	route    *compiledRoute
	endpoint *Endpoint

	vals    []any          // per endpoint arg: the merged, then sanitised value
	extra   map[string]any // values set by handlers for unregistered names
	json    map[string]any // JSON body parameters
	jsonErr *Error
	// inputErr is a limit the query string broke (limits.go), answered
	// after authentication.
	inputErr *Error
	form     *phpArray // form body parameters
	query    *phpArray // query string parameters
	fields   *fieldSet
	// fieldsParsed is set once _fields was read (fields may stay nil).
	fieldsParsed bool
	memo         map[any]memoEntry // Memo's results, by key
}

type memoEntry struct {
	v   any
	err error
}

// Memo returns what f computes for key, calling f only the first time in
// this request (its error is remembered too, so a missing resource is
// looked up once). Permission checks use it to load the resource they
// judge: the handler and the Allow computation, which run the checks of
// every endpoint on the same request, reuse it. Memoised values are apart
// from the parameters, so no client input can pose as one. Keys compare
// with ==; an unexported key type keeps packages apart.
func (r *Request) Memo(key any, f func() (any, error)) (any, error) {
	if e, ok := r.memo[key]; ok {
		return e.v, e.err
	}
	v, err := f()
	if r.memo == nil {
		r.memo = make(map[any]memoEntry, 2)
	}
	r.memo[key] = memoEntry{v, err}
	return v, err
}

// Context returns the request's context.
func (r *Request) Context() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

// bodyAccepted reports whether body (POST) parameters take part in lookups.
func (r *Request) bodyAccepted() bool {
	switch r.Method {
	case "POST", "PUT", "PATCH", "DELETE":
		return true
	}
	return false
}

// raw looks a parameter up in precedence order (§1.5): JSON body, form body,
// query string, URL groups. A null value counts as absent, as with PHP isset.
func (r *Request) raw(name string) (any, bool) {
	if v, ok := r.json[name]; ok && v != nil {
		return v, true
	}
	if r.bodyAccepted() {
		if v, ok := r.form.get(name); ok {
			return v, true
		}
	}
	if v, ok := r.query.get(name); ok {
		return v, true
	}
	if v, ok := r.URLParams[name]; ok {
		return v, true
	}
	return nil, false
}

func (r *Request) argIndex(name string) int {
	if r.endpoint == nil {
		return -1
	}
	for i := range r.endpoint.Args {
		if r.endpoint.Args[i].Name == name {
			return i
		}
	}
	return -1
}

// Param returns a parameter: for declared arguments the validated and
// sanitised value (or its default), for others the raw value from the
// highest-precedence source. Missing parameters are nil.
func (r *Request) Param(name string) any {
	if i := r.argIndex(name); i >= 0 && r.vals != nil {
		return r.vals[i]
	}
	if v, ok := r.extra[name]; ok {
		return v
	}
	v, _ := r.raw(name)
	return v
}

// Has reports whether the parameter is present (non-null), counting defaults.
func (r *Request) Has(name string) bool { return r.Param(name) != nil }

// Supplied reports whether the client sent the parameter (body, query or
// URL), as opposed to it coming from a default: updates change only the
// fields a client supplied.
func (r *Request) Supplied(name string) bool {
	_, ok := r.raw(name)
	return ok
}

// Set replaces a parameter, as $request->set_param does. Controllers use it
// to force context=edit on write responses.
func (r *Request) Set(name string, v any) {
	if i := r.argIndex(name); i >= 0 && r.vals != nil {
		r.vals[i] = v
		return
	}
	if r.extra == nil {
		r.extra = map[string]any{}
	}
	r.extra[name] = v
}

// String returns a string parameter ("" when absent or not a string).
func (r *Request) String(name string) string {
	switch v := r.Param(name).(type) {
	case string:
		return v
	case nil:
		return ""
	default:
		if isScalar(v) {
			return phpString(v)
		}
	}
	return ""
}

// Int returns an integer parameter (0 when absent).
func (r *Request) Int(name string) int64 {
	v := r.Param(name)
	if v == nil {
		return 0
	}
	return toInt(v)
}

// Bool returns a boolean parameter (false when absent).
func (r *Request) Bool(name string) bool { return toBool(r.Param(name)) }

// List returns an array parameter (nil when absent).
func (r *Request) List(name string) []any {
	v := r.Param(name)
	if v == nil {
		return nil
	}
	return toList(v)
}

// Ints returns an array parameter as integers.
func (r *Request) Ints(name string) []int64 {
	return convertList(r.List(name), toInt)
}

// Strings returns an array parameter as strings.
func (r *Request) Strings(name string) []string {
	return convertList(r.List(name), phpString)
}

// convertList converts each element of l (nil stays nil).
func convertList[T any](l []any, conv func(any) T) []T {
	if l == nil {
		return nil
	}
	out := make([]T, len(l))
	for i, v := range l {
		out[i] = conv(v)
	}
	return out
}

// Map returns an object parameter (nil when absent).
func (r *Request) Map(name string) map[string]any {
	v := r.Param(name)
	if v == nil {
		return nil
	}
	return toObject(v)
}

// JSONParams returns the parameters of a JSON body (nil without one).
func (r *Request) JSONParams() map[string]any { return r.json }

// QueryParams returns the query-string parameters.
func (r *Request) QueryParams() map[string]any { return r.query.asMap() }

// InBody reports whether the body (JSON or form) carries the parameter, e.g.
// to reject an "id" on create (rest_post_exists).
func (r *Request) InBody(name string) bool {
	if _, ok := r.json[name]; ok {
		return true
	}
	_, ok := r.form.get(name)
	return ok
}

func (a *phpArray) asMap() map[string]any {
	if a == nil {
		return nil
	}
	m := make(map[string]any, len(a.items))
	for _, it := range a.items {
		m[it.key] = it.val
	}
	return m
}

// ViewContext is the request's "context" parameter, "view" when absent.
// Only a declared (hence validated) context argument, or a value set with
// Set, counts: a raw ?context=edit on an endpoint without the argument
// must not reveal edit-only fields.
func (r *Request) ViewContext() string {
	var v any
	if i := r.argIndex("context"); i >= 0 && r.vals != nil {
		v = r.vals[i]
	} else {
		v = r.extra["context"]
	}
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return "view"
}

// Wants reports whether field is part of the response given _fields
// (rest_is_field_included); handlers may skip computing unwanted fields.
func (r *Request) Wants(field string) bool { return r.fieldSet().includes(field) }

func (r *Request) fieldSet() *fieldSet {
	if !r.fieldsParsed {
		r.fields = parseFields(r.Param("_fields"))
		r.fieldsParsed = true
	}
	return r.fields
}

// URL is the absolute REST URL of route, e.g. r.URL("/cms/v2/posts/5").
func (r *Request) URL(route string) string {
	if r.srv == nil {
		return route
	}
	return r.srv.URL(route)
}

func (r *Request) queryLen() int {
	if r.query == nil {
		return 0
	}
	n := 0
	for _, it := range r.query.items {
		n += len(it.key) + 8
	}
	return n
}

// appendQuery rebuilds the query string the way add_query_arg does
// (urlencode_deep values, bracket keys, original order), with key set to
// value: replaced in place, or appended.
func (r *Request) appendQuery(buf []byte, key string, value int) []byte {
	start := len(buf)
	replaced := false
	var parts [8]string
	if r.query != nil {
		for _, it := range r.query.items {
			k, v := it.key, it.val
			if k == key {
				buf = appendQueryPair(buf, start, append(parts[:0], k), nil, value, true)
				replaced = true
				continue
			}
			buf = appendQueryPair(buf, start, append(parts[:0], k), v, 0, false)
		}
	}
	if !replaced {
		buf = appendQueryPair(buf, start, append(parts[:0], key), nil, value, true)
	}
	return buf
}

// appendQueryPair writes key[sub][sub]=value pairs for v (build_query).
func appendQueryPair(buf []byte, start int, key []string, v any, n int, isInt bool) []byte {
	if !isInt {
		switch x := v.(type) {
		case []any:
			for i, e := range x {
				buf = appendQueryPair(buf, start, append(key, strconv.Itoa(i)), e, 0, false)
			}
			return buf
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				buf = appendQueryPair(buf, start, append(key, k), x[k], 0, false)
			}
			return buf
		}
	}
	if len(buf) > start {
		buf = append(buf, '&')
	}
	// _http_build_query writes the brackets of nested keys encoded
	// ("categories%5B0%5D=3") and the keys themselves as they are.
	buf = append(buf, key[0]...)
	for _, k := range key[1:] {
		buf = append(buf, "%5B"...)
		buf = append(buf, k...)
		buf = append(buf, "%5D"...)
	}
	if isInt {
		return strconv.AppendInt(append(buf, '='), int64(n), 10)
	}
	// add_query_arg drops the "=" of an empty value ("?_envelope&...").
	if str := phpString(v); str != "" {
		buf = appendURLEncode(append(buf, '='), str)
	}
	return buf
}

package content

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strconv"

	"siteplane.dev/services/internal/platform/identity"
)

// Call is one validated request as a handler sees it: the caller and the
// sanitised parameters (URL groups, query, body and defaults merged with
// WordPress's precedence). The route kit builds it (kit.go); handlers never
// read the http.Request.
type Call struct {
	Ctx    context.Context
	Who    identity.Identity
	Method string
	Params map[string]any
	// undeclared reads a parameter the endpoint does not declare (WordPress
	// passes those through untouched, and a few checks read them).
	undeclared func(name string) any
	// wants reports whether a response field is asked for (_fields); nil
	// wants everything.
	wants func(field string) bool
	// query returns the raw query-string parameters (nil outside HTTP).
	query func() map[string]any
	// stash keeps values (the post loaded by a permission check) for the
	// rest of the request: the handler and the Allow computation reuse them.
	stash interface {
		recall(key string) (any, bool)
		remember(key string, v any)
	}
}

// mapStash is a stash for one request.
type mapStash map[string]any

func (m mapStash) recall(k string) (any, bool) { v, ok := m[k]; return v, ok }
func (m mapStash) remember(k string, v any)    { m[k] = v }

// once returns the value stored under key, computing it with f the first
// time (errors included, so a missing post is looked up once).
func (c *Call) once(key string, f func() (any, error)) (any, error) {
	type result struct {
		v   any
		err error
	}
	if c.stash == nil {
		c.stash = mapStash{}
	}
	// only a value of the private type counts: a client-sent parameter of
	// the same name cannot pose as a stored post
	if r, ok := c.stash.recall(key); ok {
		if res, ok := r.(result); ok {
			return res.v, res.err
		}
	}
	v, err := f()
	c.stash.remember(key, result{v, err})
	return v, err
}

// Result is a handler's answer before encoding.
type Result struct {
	Status int
	Body   any
	Header http.Header
	// Page describes a collection page; the HTTP layer turns it into
	// X-WP-Total, X-WP-TotalPages and Link.
	Page *Page
}

// Page is the pagination of a collection response.
type Page struct {
	Total, Page, PerPage, Pages int
}

func ok(body any) *Result { return &Result{Status: http.StatusOK, Body: body} }

// Has reports whether name was supplied (or defaulted).
func (c *Call) Has(name string) bool {
	_, ok := c.Params[name]
	return ok || (c.undeclared != nil && c.undeclared(name) != nil)
}

// IsNull reports whether name was supplied as JSON null.
func (c *Call) IsNull(name string) bool {
	v, ok := c.Params[name]
	return ok && v == nil
}

// Int returns an integer parameter (0 when absent).
func (c *Call) Int(name string) int64 { return toInt(c.Params[name]) }

// Str returns a string parameter.
func (c *Call) Str(name string) string {
	s, _ := c.Params[name].(string)
	return s
}

// Bool returns a boolean parameter.
func (c *Call) Bool(name string) bool { return toBool(c.Params[name]) }

// Ints returns an integer-array parameter.
func (c *Call) Ints(name string) []int64 { return toInts(c.Params[name]) }

// Strs returns a string-array parameter.
func (c *Call) Strs(name string) []string {
	l, _ := c.Params[name].([]any)
	out := make([]string, 0, len(l))
	for _, v := range l {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func toInts(v any) []int64 {
	l, _ := v.([]any)
	out := make([]int64, 0, len(l))
	for _, e := range l {
		out = append(out, toInt(e))
	}
	return out
}

// toInt accepts every numeric form a sanitiser may hand over.
func toInt(v any) int64 {
	switch n := v.(type) {
	case int:
		return int64(n)
	case int64:
		return n
	case float64:
		return int64(math.Round(n))
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i
		}
		f, _ := n.Float64()
		return int64(f)
	case string:
		f, _ := strconv.ParseFloat(n, 64)
		return int64(f)
	case bool:
		if n {
			return 1
		}
	}
	return 0
}

func toBool(v any) bool {
	switch b := v.(type) {
	case bool:
		return b
	case string:
		return b != "" && b != "0" && b != "false"
	case nil:
		return false
	}
	return toInt(v) != 0
}

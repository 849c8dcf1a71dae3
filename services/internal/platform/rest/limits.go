package rest

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Input limits. A real client stays far below them; they bound what one
// request can cost before anything else runs (docs/security.md).
const (
	// MaxInputVars is the most name=value pairs a query string, a form body
	// or a multipart body may hold (each counted apart), as PHP's
	// max_input_vars default. More answers 400 rest_too_many_params.
	MaxInputVars = 1000
	// MaxInputNesting is the deepest a bracketed name may go (a[b][c]...),
	// as PHP's max_input_nesting_level default. Deeper answers 400
	// rest_params_too_deep.
	MaxInputNesting = 64
	// MaxFields is the most entries _fields may list.
	MaxFields = 1000
	// maxJSONDepth is json_decode's default depth: a deeper JSON body is
	// rest_invalid_json "Maximum stack depth exceeded", as in WordPress.
	maxJSONDepth = 512
)

func errTooManyParams() *Error {
	return NewError("rest_too_many_params", fmt.Sprintf("The request has more than %d parameters.", MaxInputVars), http.StatusBadRequest)
}

func errTooDeep() *Error {
	return NewError("rest_params_too_deep", fmt.Sprintf("A parameter name is nested more than %d levels deep.", MaxInputNesting), http.StatusBadRequest)
}

// ValidText reports whether s can be stored and compared as text: valid
// UTF-8 without NUL (PostgreSQL refuses both in text values).
func ValidText(s string) bool {
	return strings.IndexByte(s, 0) < 0 && utf8.ValidString(s)
}

// badTextParam is the error for a parameter holding text that is not
// ValidText: WordPress's rest_invalid_param envelope, naming it.
func badTextParam(name string) *Error {
	e := NewError("rest_invalid_param", name+" must be valid UTF-8 text without NUL characters.", http.StatusBadRequest)
	return invalidParams([]string{name}, []*Error{e})
}

// validTextValue reports whether every string in v (keys included) is ValidText.
func validTextValue(v any) bool {
	switch x := v.(type) {
	case string:
		return ValidText(x)
	case []any:
		for _, e := range x {
			if !validTextValue(e) {
				return false
			}
		}
	case map[string]any:
		for k, e := range x {
			if !ValidText(k) || !validTextValue(e) {
				return false
			}
		}
	case *phpArray:
		for _, it := range x.items {
			if !ValidText(it.key) || !validTextValue(it.val) {
				return false
			}
		}
	}
	return true
}

// checkInput refuses, at the kit's boundary, what no handler or database
// can take: text that is not valid UTF-8 or holds NUL in any parameter
// (query, form, JSON body, URL groups), and a _fields list over MaxFields.
func (r *Request) checkInput() *Error {
	for name, v := range r.json {
		if !ValidText(name) || !validTextValue(v) {
			return badTextParam(printable(name))
		}
	}
	for _, a := range []*phpArray{r.form, r.query} {
		if a == nil {
			continue
		}
		for _, it := range a.items {
			if !ValidText(it.key) || !validTextValue(it.val) {
				return badTextParam(printable(it.key))
			}
		}
	}
	for name, v := range r.URLParams {
		if !ValidText(v) {
			return badTextParam(name)
		}
	}
	if n := fieldsCount(r.Param("_fields")); n > MaxFields {
		e := NewError("rest_invalid_param", fmt.Sprintf("_fields must contain at most %d items.", MaxFields), http.StatusBadRequest)
		return invalidParams([]string{"_fields"}, []*Error{e})
	}
	return nil
}

// printable is a parameter name fit for an error message.
func printable(name string) string {
	if ValidText(name) {
		return name
	}
	return strings.ToValidUTF8(strings.ReplaceAll(name, "\x00", "\uFFFD"), "\uFFFD")
}

// fieldsCount is how many entries a _fields value lists.
func fieldsCount(v any) int {
	switch x := v.(type) {
	case nil:
		return 0
	case string:
		n, in := 0, false
		for i := 0; i < len(x); i++ {
			sep := x[i] == ',' || isPHPWhitespace(x[i])
			if !sep && !in {
				n++
			}
			in = !sep
		}
		return n
	case []any:
		return len(x)
	case map[string]any:
		return len(x)
	}
	return 1
}

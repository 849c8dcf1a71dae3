package content

import (
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// Handlers and permission checks take the route kit's *rest.Request and
// return its *rest.Response and *rest.Error; these helpers read what the kit
// does not name.

// caller is the identity of the request's caller (the kit resolves it from
// the identity middleware's context value; the content checks need the
// user id and capabilities of identity.Identity).
func caller(r *rest.Request) identity.Identity { return identity.FromContext(r.Context()) }

// isNull reports whether the JSON body sent name as null: a null date or
// date_gmt resets the post's date to floating.
func isNull(r *rest.Request, name string) bool {
	v, ok := r.JSONParams()[name]
	return ok && v == nil
}

// memoKey names a value a permission check loads once per request
// (rest.Request.Memo): the post, its parent, the term.
type memoKey string

// int64s reads a sanitised integer array (the kit hands over int64
// elements); anything else is skipped.
func int64s(v any) []int64 {
	l, _ := v.([]any)
	out := make([]int64, 0, len(l))
	for _, e := range l {
		if n, ok := e.(int64); ok {
			out = append(out, n)
		}
	}
	return out
}

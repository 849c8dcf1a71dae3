package rest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// Query is a query string read exactly as the kit reads it (PHP's
// parse_str: "+_method" and "%5Fmethod" are _method, "per.page" is
// per_page, the last of two equal names wins). Components in front of a kit
// server — the gateway's routing and edge cache — read requests through it,
// so they can never disagree with the service about what was asked.
type Query struct {
	a   *phpArray
	err *Error
}

// ParseQuery reads a raw query string as the kit does.
func ParseQuery(raw string) Query {
	a, err := parseInput(raw)
	return Query{a: a, err: err}
}

// Err is the limit the query broke (too many pairs, too deep), which the
// kit answers with a 400; nil when it reads normally.
func (q Query) Err() *Error { return q.err }

// Has reports whether the kit sees a parameter name, whatever its value.
func (q Query) Has(name string) bool {
	_, ok := q.a.get(name)
	return ok
}

// Scalar is the value of name when it is a scalar (not an array), as PHP
// converts it to a string.
func (q Query) Scalar(name string) (string, bool) {
	v, ok := q.a.get(name)
	if !ok || !isScalar(v) {
		return "", false
	}
	return phpString(v), true
}

// MethodOverride is the method the kit runs a request as instead of its
// own (§1.1 step 4): a scalar _method parameter, else the
// X-HTTP-Method-Override header; "" when neither is given.
func (q Query) MethodOverride(h http.Header) string {
	if m, ok := q.Scalar("_method"); ok {
		return strings.ToUpper(m)
	}
	if m := h["X-Http-Method-Override"]; len(m) > 0 && m[0] != "" {
		return strings.ToUpper(m[0])
	}
	return ""
}

// Canonical is one spelling of what the kit reads: the parameters ordered
// by name, nested lists in their order, nested maps by key (the kit reads
// them as Go maps). Two queries with the same Canonical are the same
// request to the kit; two that differ in anything the kit reads differ.
func (q Query) Canonical() string {
	if q.a == nil || len(q.a.items) == 0 {
		return ""
	}
	pairs := make([][2]any, len(q.a.items))
	for i, it := range q.a.items {
		pairs[i] = [2]any{it.key, it.val}
	}
	sort.Slice(pairs, func(i, j int) bool { return pairs[i][0].(string) < pairs[j][0].(string) })
	b, err := json.Marshal(pairs)
	if err != nil {
		return ""
	}
	return string(b)
}

// Values is the query as url.Values under the kit's names: a scalar under
// its name, a list as name[] values, a map as name[key] values (one level;
// deeper values as their JSON). The gateway reads _embed, _fields and the
// other global parameters from it.
func (q Query) Values() url.Values {
	out := url.Values{}
	if q.a == nil {
		return out
	}
	for _, it := range q.a.items {
		switch v := it.val.(type) {
		case []any:
			for _, e := range v {
				out.Add(it.key+"[]", phpString(e))
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				out.Add(it.key+"["+k+"]", phpString(v[k]))
			}
		default:
			out.Add(it.key, phpString(v))
		}
	}
	return out
}

// ParamName is the name the kit files a raw query key under ("+_method",
// "rest.route" and "%5Fmethod" are "_method", "rest_route" and "_method"),
// and whether it is bracketed (a[b]).
func ParamName(rawKey string) (base string, nested bool) {
	var buf [8]string
	base, subs, tooDeep := parseKey(phpURLDecode(rawKey), buf[:])
	return base, len(subs) > 0 || tooDeep
}

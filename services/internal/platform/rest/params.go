package rest

import (
	"strconv"
	"strings"
)

// phpArray is a PHP array under construction: insertion-ordered items,
// each value a string, a []any (built by "[]" appends only) or a nested
// *phpArray. It reproduces parse_str for query strings and form bodies
// (a[]=1, categories[terms]=5, a[x][]=2).
type phpArray struct {
	items []phpItem
	next  int64
	// keys indexes items by key once there are more than a few, so that
	// filling an array stays linear in its size (a scan per key made a
	// 40,000-key body cost seconds).
	keys map[string]int
}

// indexFrom is the size from which an array keeps its key index.
const indexFrom = 16

type phpItem struct {
	key string
	val any
}

func (a *phpArray) index(key string) int {
	if a.keys != nil {
		if i, ok := a.keys[key]; ok {
			return i
		}
		return -1
	}
	for i := range a.items {
		if a.items[i].key == key {
			return i
		}
	}
	return -1
}

func (a *phpArray) get(key string) (any, bool) {
	if a == nil {
		return nil, false
	}
	if i := a.index(key); i >= 0 {
		return a.items[i].val, true
	}
	return nil, false
}

func (a *phpArray) put(key string, v any) {
	if i := a.index(key); i >= 0 {
		a.items[i].val = v
		return
	}
	if isCanonicalIntKey(key) {
		if n, err := strconv.ParseInt(key, 10, 64); err == nil && n >= a.next {
			a.next = n + 1
		}
	}
	a.items = append(a.items, phpItem{key, v})
	switch n := len(a.items); {
	case a.keys != nil:
		a.keys[key] = n - 1
	case n >= indexFrom:
		a.keys = make(map[string]int, 2*n)
		for i := range a.items {
			a.keys[a.items[i].key] = i
		}
	}
}

// child returns the nested array under key, replacing a scalar there.
func (a *phpArray) child(key string) *phpArray {
	if key == "" {
		key = strconv.FormatInt(a.next, 10)
	}
	if i := a.index(key); i >= 0 {
		switch x := a.items[i].val.(type) {
		case *phpArray:
			return x
		case []any:
			c := &phpArray{items: make([]phpItem, 0, len(x)+1)}
			for j, v := range x {
				c.put(strconv.Itoa(j), v)
			}
			a.items[i].val = c
			return c
		}
		c := &phpArray{}
		a.items[i].val = c
		return c
	}
	c := &phpArray{}
	a.put(key, c)
	return c
}

// push stores value at key[] ("append"), keeping pure lists as []any.
func (a *phpArray) push(key, value string) {
	if key == "" {
		key = strconv.FormatInt(a.next, 10)
	}
	i := a.index(key)
	if i < 0 {
		a.put(key, []any{value})
		return
	}
	switch x := a.items[i].val.(type) {
	case []any:
		a.items[i].val = append(x, value) //nolint:gocritic // x is the stored list itself
	case *phpArray:
		x.put(strconv.FormatInt(x.next, 10), value)
	default:
		a.items[i].val = []any{value}
	}
}

// assign stores value at base[subs[0]][subs[1]]...; an empty sub is "[]".
func (a *phpArray) assign(base string, subs []string, value string) {
	if len(subs) == 0 {
		a.put(base, value)
		return
	}
	cur, key := a, base
	for _, s := range subs[:len(subs)-1] {
		cur = cur.child(key)
		key = s
	}
	if last := subs[len(subs)-1]; last != "" {
		cur.child(key).put(last, value)
		return
	}
	cur.push(key, value)
}

// value converts a nested array: a list when the keys are 0..n-1 in order,
// otherwise a map.
func (a *phpArray) value() any {
	list := true
	for i := range a.items {
		if a.items[i].key != strconv.Itoa(i) {
			list = false
			break
		}
	}
	if list {
		out := make([]any, len(a.items))
		for i := range a.items {
			out[i] = nestedValue(a.items[i].val)
		}
		return out
	}
	out := make(map[string]any, len(a.items))
	for _, it := range a.items {
		out[it.key] = nestedValue(it.val)
	}
	return out
}

func nestedValue(v any) any {
	if c, ok := v.(*phpArray); ok {
		return c.value()
	}
	return v
}

// finish converts nested arrays of the top level in place.
func (a *phpArray) finish() *phpArray {
	for i := range a.items {
		if c, ok := a.items[i].val.(*phpArray); ok {
			a.items[i].val = c.value()
		}
	}
	return a
}

// parseKey splits a PHP variable name into its base and bracket indexes,
// following php_register_variable_ex: leading blanks dropped, '.' and ' '
// in the base become '_', an unterminated '[' becomes '_' once. A name
// nested deeper than MaxInputNesting returns tooDeep (PHP drops it; the kit
// refuses the request).
func parseKey(raw string, buf []string) (base string, subs []string, tooDeep bool) {
	subs = buf[:0]
	raw = strings.TrimLeft(raw, " ")
	open := strings.IndexByte(raw, '[')
	head := raw
	if open >= 0 {
		head = raw[:open]
	}
	if strings.ContainsAny(head, ". ") {
		head = strings.Map(func(r rune) rune {
			if r == '.' || r == ' ' {
				return '_'
			}
			return r
		}, head)
	}
	if open < 0 {
		return head, nil, false
	}
	rest := raw[open:]
	first := true
	for len(rest) > 0 && rest[0] == '[' {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			if first {
				// Not an index: the bracket becomes part of the name.
				tail := strings.Map(func(r rune) rune {
					if r == '.' || r == ' ' || r == '[' {
						return '_'
					}
					return r
				}, rest[:1]) + rest[1:]
				return head + tail, nil, false
			}
			break
		}
		idx := strings.TrimLeft(rest[1:end], " \t\r\n")
		if len(subs) >= MaxInputNesting {
			return head, subs, true
		}
		subs = append(subs, idx)
		rest = rest[end+1:]
		first = false
	}
	return head, subs, false
}

// parseQuery parses a query string or form body the way PHP fills $_GET,
// ignoring the limits (tests and trusted input).
func parseQuery(q string) *phpArray {
	a, _ := parseInput(q)
	return a
}

// parseInput parses a query string or form body the way PHP fills $_GET,
// in time linear in its length. More than MaxInputVars pairs, or a name
// nested deeper than MaxInputNesting, is an error (the parameters read so
// far are returned with it).
func parseInput(q string) (*phpArray, *Error) {
	a := &phpArray{}
	if q != "" {
		n := strings.Count(q, "&") + 1
		a.items = make([]phpItem, 0, min(n, 64))
	}
	var buf [8]string
	vars := 0
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		if pair == "" {
			continue
		}
		if vars++; vars > MaxInputVars {
			return a.finish(), errTooManyParams()
		}
		k, v, _ := strings.Cut(pair, "=")
		k = phpURLDecode(k)
		base, subs, tooDeep := parseKey(k, buf[:])
		if tooDeep {
			return a.finish(), errTooDeep()
		}
		if base == "" {
			continue
		}
		a.assign(base, subs, phpURLDecode(v))
	}
	return a.finish(), nil
}

// phpURLDecode is PHP's urldecode: '+' is a space, malformed escapes stay.
func phpURLDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			b = append(b, ' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// appendURLEncode is PHP's urlencode (spaces as '+').
func appendURLEncode(b []byte, s string) []byte {
	const hexdigits = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case urlSafe(c):
			b = append(b, c)
		case c == ' ':
			b = append(b, '+')
		default:
			b = append(b, '%', hexdigits[c>>4], hexdigits[c&15])
		}
	}
	return b
}

func urlSafe(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

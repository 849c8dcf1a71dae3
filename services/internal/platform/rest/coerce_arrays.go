package rest

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// PHP arrays: lists (wp_parse_list, rest_is_array) and associative arrays
// (rest_is_object), and how WordPress compares them (rest_are_values_equal,
// uniqueItems). The scalars are in coerce.go.

// parseList is wp_parse_list for a scalar: split on commas and whitespace,
// dropping empty pieces.
func parseList(v any) []any {
	s := phpString(v)
	out := make([]any, 0, 1+strings.Count(s, ","))
	start := -1
	for i := 0; i <= len(s); i++ {
		sep := i == len(s) || s[i] == ',' || isPHPWhitespace(s[i])
		if sep {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}

// isCanonicalIntKey reports whether PHP would turn the array key into an int.
func isCanonicalIntKey(k string) bool {
	if k == "" || len(k) > 19 {
		return false
	}
	s := k
	if s[0] == '-' {
		s = s[1:]
		if s == "" || s == "0" {
			return false
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// numericKeys returns the keys of m in numeric order when every key is an
// integer key (wp_is_numeric_array).
func numericKeys(m map[string]any) ([]string, bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		if !isCanonicalIntKey(k) {
			return nil, false
		}
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, _ := strconv.ParseInt(keys[i], 10, 64)
		b, _ := strconv.ParseInt(keys[j], 10, 64)
		return a < b
	})
	return keys, true
}

// isList is rest_is_array: scalars are comma lists, arrays must have only
// integer keys.
func isList(v any) bool {
	switch a := v.(type) {
	case nil:
		return false
	case []any:
		return true
	case map[string]any:
		_, ok := numericKeys(a)
		return ok
	case Object:
		return len(a) == 0
	}
	return true
}

// toList is rest_sanitize_array.
func toList(v any) []any {
	switch a := v.(type) {
	case nil:
		return []any{}
	case []any:
		return a
	case map[string]any:
		keys, _ := numericKeys(a)
		out := make([]any, 0, len(a))
		for _, k := range keys {
			out = append(out, a[k])
		}
		if len(keys) != len(a) {
			out = out[:0]
			for _, k := range slices.Sorted(maps.Keys(a)) {
				out = append(out, a[k])
			}
		}
		return out
	case Object:
		out := make([]any, len(a))
		for i, m := range a {
			out[i] = m.Value
		}
		return out
	}
	return parseList(v)
}

// singleItem reports whether v is a string that wp_parse_list turns into
// exactly one item equal to the string itself.
func singleItem(v any) bool {
	s, ok := v.(string)
	if !ok || s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == ',' || isPHPWhitespace(s[i]) {
			return false
		}
	}
	return true
}

// isObject is rest_is_object: any PHP array or the empty string.
func isObject(v any) bool {
	switch a := v.(type) {
	case []any, map[string]any, Object:
		return true
	case string:
		return a == ""
	}
	return false
}

// toObject is rest_sanitize_object.
func toObject(v any) map[string]any {
	switch a := v.(type) {
	case map[string]any:
		return a
	case []any:
		m := make(map[string]any, len(a))
		for i, x := range a {
			m[strconv.Itoa(i)] = x
		}
		return m
	case Object:
		m := make(map[string]any, len(a))
		for _, x := range a {
			m[x.Key] = x.Value
		}
		return m
	}
	return map[string]any{}
}

// valuesEqual is rest_are_values_equal: strict comparison, except that ints
// and floats compare numerically and arrays compare member by member.
func valuesEqual(a, b any) bool {
	la, aIsList := a.([]any)
	lb, bIsList := b.([]any)
	ma, aIsMap := a.(map[string]any)
	mb, bIsMap := b.(map[string]any)
	if aIsList && bIsList {
		if len(la) != len(lb) {
			return false
		}
		for i := range la {
			if !valuesEqual(la[i], lb[i]) {
				return false
			}
		}
		return true
	}
	if aIsMap && bIsMap {
		if len(ma) != len(mb) {
			return false
		}
		for k, v := range ma {
			w, ok := mb[k]
			if !ok || !valuesEqual(v, w) {
				return false
			}
		}
		return true
	}
	if aIsList || bIsList || aIsMap || bIsMap {
		// A list and a map with integer keys 0..n-1 are the same PHP array.
		if aIsList && bIsMap {
			return valuesEqual(toObject(la), mb)
		}
		if aIsMap && bIsList {
			return valuesEqual(ma, toObject(lb))
		}
		return false
	}
	ai, aInt := isPHPInt(a)
	bi, bInt := isPHPInt(b)
	if aInt && bInt {
		return ai == bi
	}
	if (aInt || isPHPFloat(a)) && (bInt || isPHPFloat(b)) {
		fa, _ := toFloat(a)
		fb, _ := toFloat(b)
		return fa == fb
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}

// stableKey is a type-tagged canonical form of v, like PHP's
// serialize(rest_stabilize_value(v)), used by uniqueItems.
func stableKey(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("N;")
	case bool:
		if x {
			b.WriteString("b:1;")
		} else {
			b.WriteString("b:0;")
		}
	case string:
		b.WriteString("s:")
		b.WriteString(strconv.Itoa(len(x)))
		b.WriteString(":")
		b.WriteString(x)
		b.WriteString(";")
	case []any:
		b.WriteString("a{")
		for i, e := range x {
			b.WriteString(strconv.Itoa(i))
			b.WriteByte('=')
			stableKey(b, e)
		}
		b.WriteString("}")
	case map[string]any:
		if keys, ok := numericKeys(x); ok {
			l := make([]any, len(keys))
			for i, k := range keys {
				l[i] = x[k]
			}
			if sequential(keys) {
				stableKey(b, l)
				return
			}
		}
		b.WriteString("a{")
		for _, k := range slices.Sorted(maps.Keys(x)) {
			b.WriteString(strconv.Quote(k))
			b.WriteByte('=')
			stableKey(b, x[k])
		}
		b.WriteString("}")
	default:
		if i, ok := isPHPInt(v); ok {
			b.WriteString("i:")
			b.WriteString(strconv.FormatInt(i, 10))
			b.WriteString(";")
			return
		}
		if f, ok := toFloat(v); ok {
			b.WriteString("d:")
			b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
			b.WriteString(";")
			return
		}
		b.Write(appendJSON(v, false))
	}
}

func sequential(keys []string) bool {
	for i, k := range keys {
		if k != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

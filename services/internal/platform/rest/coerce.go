package rest

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Values flowing through the kit follow PHP's loose typing, because that is
// what WordPress's validators were written against. Raw values are: nil,
// bool, string (query and form input), json.Number (JSON bodies and declared
// defaults), Go integers and floats, []any (PHP lists) and map[string]any
// (PHP associative arrays). Sanitised values are int64, float64, bool,
// string, []any, map[string]any or nil.

// isPHPWhitespace matches the blanks PHP tolerates around numeric strings.
func isPHPWhitespace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// numericString reports whether s is a PHP 8 numeric string (is_numeric):
// optional surrounding whitespace, optional sign, digits with an optional
// fraction, optional exponent. It returns the value.
func numericString(s string) (f float64, ok bool) {
	i, j := 0, len(s)
	for i < j && isPHPWhitespace(s[i]) {
		i++
	}
	for j > i && isPHPWhitespace(s[j-1]) {
		j--
	}
	t := s[i:j]
	if t == "" {
		return 0, false
	}
	k := 0
	if t[0] == '+' || t[0] == '-' {
		k++
	}
	digits, frac := 0, 0
	for k < len(t) && t[k] >= '0' && t[k] <= '9' {
		k++
		digits++
	}
	if k < len(t) && t[k] == '.' {
		k++
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
			frac++
		}
	}
	if digits+frac == 0 {
		return 0, false
	}
	if k < len(t) && (t[k] == 'e' || t[k] == 'E') {
		k++
		if k < len(t) && (t[k] == '+' || t[k] == '-') {
			k++
		}
		exp := 0
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
			exp++
		}
		if exp == 0 {
			return 0, false
		}
	}
	if k != len(t) {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// numberIsFloat reports whether a JSON number decodes to a PHP float.
func numberIsFloat(n json.Number) bool {
	if strings.ContainsAny(string(n), ".eE") {
		return true
	}
	_, err := strconv.ParseInt(string(n), 10, 64)
	return err != nil
}

// toFloat returns the numeric value of v when PHP's is_numeric accepts it.
func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case string:
		f, ok := numericString(n)
		return f, ok
	case json.Number:
		f, err := strconv.ParseFloat(string(n), 64)
		return f, err == nil || isRangeErr(err)
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	}
	return 0, false
}

// isPHPInt reports whether v is a PHP int (not a float, not a string).
func isPHPInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case int32:
		return int64(n), true
	case uint:
		return int64(n), true
	case uint64:
		return int64(n), true
	case json.Number:
		if numberIsFloat(n) {
			return 0, false
		}
		i, _ := strconv.ParseInt(string(n), 10, 64)
		return i, true
	}
	return 0, false
}

func isPHPFloat(v any) bool {
	switch n := v.(type) {
	case float64, float32:
		return true
	case json.Number:
		return numberIsFloat(n)
	}
	return false
}

// isInteger is rest_is_integer: numeric and equal to its rounded value.
func isInteger(v any) bool {
	f, ok := toFloat(v)
	return ok && !math.IsInf(f, 0) && math.Round(f) == f
}

// isBoolean is rest_is_boolean.
func isBoolean(v any) bool {
	switch b := v.(type) {
	case bool:
		return true
	case string:
		switch strings.ToLower(b) {
		case "true", "false", "0", "1":
			return true
		}
		return false
	}
	if i, ok := isPHPInt(v); ok {
		return i == 0 || i == 1
	}
	return false
}

// toBool is rest_sanitize_boolean: "false" and "0" (any case) are false,
// everything else follows PHP's (bool) cast.
func toBool(v any) bool {
	switch b := v.(type) {
	case bool:
		return b
	case string:
		l := strings.ToLower(b)
		return l != "" && l != "false" && l != "0"
	case nil:
		return false
	case []any:
		return len(b) > 0
	case map[string]any:
		return len(b) > 0
	}
	f, ok := toFloat(v)
	return ok && f != 0
}

// toInt is PHP's (int) cast of a validated value.
func toInt(v any) int64 {
	switch n := v.(type) {
	case bool:
		if n {
			return 1
		}
		return 0
	case string:
		t := strings.TrimLeft(n, " \t\n\r\v\f")
		if i, err := strconv.ParseInt(strings.TrimRight(t, " \t\n\r\v\f"), 10, 64); err == nil {
			return i
		}
		if f, ok := numericString(n); ok {
			return floatToInt(f)
		}
		// PHP takes the leading integer prefix of a non-numeric string.
		k := 0
		if k < len(t) && (t[k] == '+' || t[k] == '-') {
			k++
		}
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
		}
		i, _ := strconv.ParseInt(t[:k], 10, 64)
		return i
	}
	if i, ok := isPHPInt(v); ok {
		return i
	}
	if f, ok := toFloat(v); ok {
		return floatToInt(f)
	}
	return 0
}

func floatToInt(f float64) int64 {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// phpString is PHP's string conversion of a scalar (used in messages and by
// wp_parse_list).
func phpString(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case bool:
		if s {
			return "1"
		}
		return ""
	case nil:
		return ""
	case json.Number:
		if numberIsFloat(s) {
			f, _ := strconv.ParseFloat(string(s), 64)
			return formatFloat(f)
		}
		return string(s)
	case float64:
		return formatFloat(s)
	case float32:
		return formatFloat(float64(s))
	}
	if i, ok := isPHPInt(v); ok {
		return strconv.FormatInt(i, 10)
	}
	return string(appendJSON(v, false))
}

// formatFloat mimics PHP's float to string conversion (precision 14).
func formatFloat(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	s := strconv.FormatFloat(f, 'G', 14, 64)
	if strings.ContainsAny(s, "E") {
		mant, exp, _ := strings.Cut(s, "E")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		if exp[0] == '+' || exp[0] == '-' {
			exp = exp[:1] + strings.TrimLeft(exp[1:], "0")
		}
		return mant + "E" + exp
	}
	return s
}

func isScalar(v any) bool {
	switch v.(type) {
	case nil, []any, map[string]any, Object:
		return false
	}
	return true
}

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

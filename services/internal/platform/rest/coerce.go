package rest

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Values flowing through the kit follow PHP's loose typing, because that is
// what WordPress's validators were written against. Raw values are: nil,
// bool, string (query and form input), json.Number (JSON bodies and declared
// defaults), Go integers and floats, []any (PHP lists) and map[string]any
// (PHP associative arrays). Sanitised values are int64, float64, bool,
// string, []any, map[string]any or nil.
//
// This file has the scalars (numbers, booleans, strings); coerce_arrays.go
// the PHP arrays.

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

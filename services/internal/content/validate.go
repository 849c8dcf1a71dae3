package content

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/platform/identity"
)

// Interim argument validation with WordPress's messages (§3), used until
// the route kit (platform/rest) takes over parameter handling; it covers
// exactly the keywords this service's argument schemas use.

type issue struct {
	code, message string
	data          any
}

// validateArgs checks and sanitises every declared argument of raw, applying
// defaults, and reports all failures in one rest_invalid_param.
func validateArgs(args []P, raw map[string]any, who identity.Identity) (map[string]any, *APIError) {
	out := make(map[string]any, len(raw)+len(args))
	for k, v := range raw {
		out[k] = v // unregistered parameters pass through untouched
	}
	var missing []string
	var bad []string
	params := map[string]any{}
	details := map[string]any{}
	for _, a := range args {
		v, present := raw[a.Name]
		if !present || (v == nil && a.S.Required) {
			if a.S.Required {
				missing = append(missing, a.Name)
				continue
			}
			if a.S.Default == nil {
				continue
			}
			v = a.S.Default
		}
		if a.S.Raw {
			out[a.Name] = v
			continue
		}
		clean, is := check(v, a.S, a.Name)
		if is == nil && a.S.Guard != nil {
			is = a.S.Guard(who, clean)
		}
		if is != nil {
			bad = append(bad, a.Name)
			params[a.Name] = is.message
			details[a.Name] = map[string]any{"code": is.code, "message": is.message, "data": is.data}
			continue
		}
		out[a.Name] = clean
	}
	if len(missing) > 0 {
		return nil, &APIError{Status: 400, Code: "rest_missing_callback_param",
			Message: "Missing parameter(s): " + strings.Join(missing, ", "), Data: map[string]any{"params": missing}}
	}
	if len(bad) > 0 {
		return nil, &APIError{Status: 400, Code: "rest_invalid_param",
			Message: "Invalid parameter(s): " + strings.Join(bad, ", "),
			Data:    map[string]any{"params": params, "details": details}}
	}
	return out, nil
}

var listSplit = regexp.MustCompile(`[\s,]+`)

func typeIssue(path, types string) *issue {
	return &issue{"rest_invalid_type", fmt.Sprintf("%s is not of type %s.", path, types), map[string]any{"param": path}}
}

// check validates then sanitises v against s (rest_parse_request_arg).
func check(v any, s *S, path string) (any, *issue) {
	if len(s.OneOf) > 0 {
		return checkOneOf(v, s, path)
	}
	types := s.Types
	if len(types) == 0 && s.Type != "" {
		types = []string{s.Type}
	}
	if len(types) > 1 {
		// first type that matches; "" prefers string
		for _, t := range types {
			sub := *s
			sub.Types, sub.Type = nil, t
			if t == "null" {
				if v == nil {
					return nil, nil
				}
				continue
			}
			if clean, is := check(v, &sub, path); is == nil || is.code != "rest_invalid_type" {
				return clean, is
			}
		}
		return nil, typeIssue(path, strings.Join(types, ","))
	}
	var clean any
	switch s.Type {
	case "integer":
		n, okn := asNumber(v)
		if !okn || n != math.Round(n) {
			return nil, typeIssue(path, "integer")
		}
		clean = int64(n)
	case "number":
		n, okn := asNumber(v)
		if !okn {
			return nil, typeIssue(path, "number")
		}
		clean = n
	case "boolean":
		b, okb := asBool(v)
		if !okb {
			return nil, typeIssue(path, "boolean")
		}
		clean = b
	case "string":
		str, oks := v.(string)
		if !oks {
			return nil, typeIssue(path, "string")
		}
		if s.Format == "date-time" && !validDate(str) {
			return nil, &issue{"rest_invalid_date", "Invalid date.", nil}
		}
		clean = str
	case "array":
		l, okl := asList(v)
		if !okl {
			return nil, typeIssue(path, "array")
		}
		items := make([]any, len(l))
		for i, e := range l {
			if s.Items == nil {
				items[i] = e
				continue
			}
			c, is := check(e, s.Items, fmt.Sprintf("%s[%d]", path, i))
			if is != nil {
				return nil, is
			}
			items[i] = c
		}
		if s.UniqueItems {
			seen := map[string]bool{}
			for _, e := range items {
				k := fmt.Sprint(e)
				if seen[k] {
					return nil, &issue{"rest_duplicate_items", path + " has duplicate items.", nil}
				}
				seen[k] = true
			}
		}
		clean = items
	case "object":
		m, okm := asObject(v)
		if !okm {
			return nil, typeIssue(path, "object")
		}
		o := make(map[string]any, len(m))
		for k, e := range m {
			var ps *S
			for _, p := range s.Properties {
				if p.Name == k {
					ps = p.S
				}
			}
			if ps == nil {
				if s.NoAdditional {
					return nil, &issue{"rest_additional_properties_forbidden", k + " is not a valid property of Object.", nil}
				}
				o[k] = e
				continue
			}
			c, is := check(e, ps, path+"["+k+"]")
			if is != nil {
				return nil, is
			}
			o[k] = c
		}
		clean = o
	default:
		clean = v
	}
	if len(s.Enum) > 0 {
		found := false
		for _, e := range s.Enum {
			if fmt.Sprint(e) == fmt.Sprint(clean) {
				found = true
			}
		}
		if !found {
			return nil, &issue{"rest_not_in_enum", enumMessage(path, s.Enum), nil}
		}
	}
	if s.Type == "integer" || s.Type == "number" {
		if is := boundsIssue(path, clean, s); is != nil {
			return nil, is
		}
	}
	return clean, nil
}

func enumMessage(path string, enum []any) string {
	if len(enum) == 1 {
		return fmt.Sprintf("%s is not %v.", path, enum[0])
	}
	items := make([]string, len(enum))
	for i, e := range enum {
		items[i] = fmt.Sprint(e)
	}
	return fmt.Sprintf("%s is not one of %s.", path, wpList(items))
}

// wpList is wp_sprintf_l: "A and B", "A, B, and C".
func wpList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	case 2:
		return items[0] + " and " + items[1]
	}
	return strings.Join(items[:len(items)-1], ", ") + ", and " + items[len(items)-1]
}

func boundsIssue(path string, v any, s *S) *issue {
	var n float64
	switch x := v.(type) {
	case int64:
		n = float64(x)
	case float64:
		n = x
	}
	switch {
	case s.Minimum != nil && s.Maximum != nil && (n < *s.Minimum || n > *s.Maximum):
		return &issue{"rest_out_of_bounds", fmt.Sprintf("%s must be between %d (inclusive) and %d (inclusive)", path, int64(*s.Minimum), int64(*s.Maximum)), nil}
	case s.Minimum != nil && s.Maximum == nil && n < *s.Minimum:
		return &issue{"rest_out_of_bounds", fmt.Sprintf("%s must be greater than or equal to %d", path, int64(*s.Minimum)), nil}
	case s.Maximum != nil && s.Minimum == nil && n > *s.Maximum:
		return &issue{"rest_out_of_bounds", fmt.Sprintf("%s must be less than or equal to %d", path, int64(*s.Maximum)), nil}
	}
	return nil
}

// checkOneOf: exactly one candidate must validate (§3.3).
func checkOneOf(v any, s *S, path string) (any, *issue) {
	var matches []int
	var results []any
	var issues []*issue
	for i, c := range s.OneOf {
		clean, is := check(v, c, path)
		if is == nil {
			matches = append(matches, i)
			results = append(results, clean)
		} else {
			issues = append(issues, is)
		}
	}
	switch len(matches) {
	case 1:
		return results[0], nil
	case 0:
		var remaining []int
		for i, is := range issues {
			if is.code != "rest_invalid_type" {
				remaining = append(remaining, i)
			}
		}
		if len(remaining) == 1 {
			i := remaining[0]
			return nil, &issue{"rest_no_matching_schema", fmt.Sprintf("%s is not a valid %s. Reason: %s", path, s.OneOf[i].Title, issues[i].message), map[string]any{"position": i}}
		}
		titles := make([]string, len(s.OneOf))
		for i, c := range s.OneOf {
			titles[i] = c.Title
		}
		return nil, &issue{"rest_no_matching_schema", fmt.Sprintf("%s is not a valid %s.", path, wpList(titles)), nil}
	}
	titles := make([]string, len(matches))
	for i, m := range matches {
		titles[i] = s.OneOf[m].Title
	}
	return nil, &issue{"rest_one_of_multiple_matches", fmt.Sprintf("%s matches %s, but should match only one.", path, wpList(titles)), map[string]any{"positions": matches}}
}

func asNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
		return f, err == nil && strings.TrimSpace(n) != ""
	}
	return 0, false
}

func asBool(v any) (bool, bool) {
	switch b := v.(type) {
	case bool:
		return b, true
	case string:
		switch strings.ToLower(b) {
		case "true", "1":
			return true, true
		case "false", "0":
			return false, true
		}
	default:
		if n, ok := asNumber(v); ok && (n == 0 || n == 1) {
			return n == 1, true
		}
	}
	return false, false
}

func asList(v any) ([]any, bool) {
	switch l := v.(type) {
	case []any:
		return l, true
	case map[string]any:
		if len(l) == 0 {
			return []any{}, true
		}
		return nil, false
	case string:
		if l == "" {
			return []any{}, true
		}
		parts := listSplit.Split(l, -1)
		out := make([]any, 0, len(parts))
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return out, true
	case nil:
		return nil, false
	}
	return []any{v}, true
}

func asObject(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case string:
		if m == "" {
			return map[string]any{}, true
		}
	case []any:
		out := make(map[string]any, len(m))
		for i, e := range m {
			out[strconv.Itoa(i)] = e
		}
		return out, true
	}
	return nil, false
}

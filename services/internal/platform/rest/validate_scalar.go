package rest

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Numbers, strings and enums (rest_validate_value_from_schema).

// countNoun formats "N item(s)" with number_format_i18n and _n().
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(int64(n)) + " " + many
}

// thousands is number_format_i18n for en_US.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if len(s) <= 3 {
		if neg {
			return "-" + s
		}
		return s
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	lead := len(s) % 3
	if lead > 0 {
		b.WriteString(s[:lead])
	}
	for i := lead; i < len(s); i += 3 {
		if b.Len() > 0 && !(neg && b.Len() == 1) {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// phpD formats a number the way sprintf("%d") does: truncated to an integer.
func phpD(f float64) string { return strconv.FormatInt(floatToInt(f), 10) }

func validateNumber(v any, s *Schema, p path, typ string) *Error {
	f, ok := toFloat(v)
	if !ok {
		return typeErr(p, typ)
	}
	if s.MultipleOf != nil && math.Mod(f, *s.MultipleOf) != 0 {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_invalid_multiple", p.String()+" must be a multiple of "+formatFloat(*s.MultipleOf)+".")
	}
	minimum, maximum := s.Minimum, s.Maximum
	exMin, exMax := s.ExclusiveMinimum, s.ExclusiveMaximum
	switch {
	case minimum != nil && maximum == nil:
		if f < *minimum || (exMin && f == *minimum) {
			return oneBoundErr(p, "greater", *minimum, exMin)
		}
	case maximum != nil && minimum == nil:
		if f > *maximum || (exMax && f == *maximum) {
			return oneBoundErr(p, "less", *maximum, exMax)
		}
	case minimum != nil && maximum != nil:
		low := f < *minimum || (exMin && f == *minimum)
		high := f > *maximum || (exMax && f == *maximum)
		if low || high {
			side := func(ex bool) string {
				if ex {
					return " (exclusive)"
				}
				return " (inclusive)"
			}
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_out_of_bounds", p.String()+" must be between "+phpD(*minimum)+side(exMin)+" and "+phpD(*maximum)+side(exMax))
		}
	}
	if typ == "integer" && !isInteger(v) {
		return typeErr(p, "integer")
	}
	if s.Int32 && (f < math.MinInt32 || f > math.MaxInt32) {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_out_of_bounds", p.String()+" must be between -2147483648 (inclusive) and 2147483647 (inclusive)")
	}
	return nil
}

// oneBoundErr is the error of a number beyond its only bound; side is
// "greater" for a minimum, "less" for a maximum.
func oneBoundErr(p path, side string, bound float64, exclusive bool) *Error {
	if p.quiet {
		return errQuiet
	}
	msg := p.String() + " must be " + side + " than "
	if !exclusive {
		msg += "or equal to "
	}
	return schemaErr("rest_out_of_bounds", msg+phpD(bound))
}

func validateString(v any, s *Schema, p path) *Error {
	str, ok := v.(string)
	if !ok {
		return typeErr(p, "string")
	}
	if s.MinLength != nil || s.MaxLength != nil {
		n := utf8.RuneCountInString(str)
		if s.MinLength != nil && n < *s.MinLength {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_too_short", p.String()+" must be at least "+countNoun(*s.MinLength, "character", "characters")+" long.")
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_too_long", p.String()+" must be at most "+countNoun(*s.MaxLength, "character", "characters")+" long.")
		}
	}
	if s.Pattern != "" && !matchPattern(s.Pattern, s.pattern, str) {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_invalid_pattern", p.String()+" does not match pattern "+s.Pattern+".")
	}
	return nil
}

// validateEnum is rest_validate_enum: the value is sanitised first, then
// compared.
func validateEnum(v any, s *Schema, p path, typ string) *Error {
	sv, err := sanitizeTyped(v, s, p, typ)
	if err != nil {
		return err
	}
	for _, e := range s.Enum {
		if valuesEqual(sv, e) {
			return nil
		}
	}
	names := make([]string, len(s.Enum))
	for i, e := range s.Enum {
		if isScalar(e) {
			names[i] = phpString(e)
		} else {
			names[i] = string(appendJSON(e, false))
		}
	}
	if len(names) == 1 {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_not_in_enum", p.String()+" is not "+names[0]+".")
	}
	if p.quiet {
		return errQuiet
	}
	return schemaErr("rest_not_in_enum", p.String()+" is not one of "+listAnd(names)+".")
}

// listAnd is wp_sprintf's %l: "A", "A and B", "A, B, and C".
func listAnd(items []string) string {
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

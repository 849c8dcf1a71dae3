package rest

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// path is a parameter path such as categories[0] or meta[foo]. It is a
// value whose segments live in a caller-provided array, so validating does
// not allocate; the string is built only when a message needs it.
type path struct {
	root string
	segs []pathSeg
	// quiet skips building messages: the caller only wants to know whether
	// the value matches (oneOf/anyOf candidates), and errQuiet is returned.
	quiet bool
}

type pathSeg struct {
	name  string
	index int
	isIdx bool
}

// newPath starts a path at param, using buf for the segments.
func newPath(param string, buf []pathSeg) path { return path{root: param, segs: buf[:0]} }

func (p path) key(k string) path {
	return path{root: p.root, segs: append(p.segs, pathSeg{name: k}), quiet: p.quiet}
}

func (p path) index(i int) path {
	return path{root: p.root, segs: append(p.segs, pathSeg{index: i, isIdx: true}), quiet: p.quiet}
}

func (p path) String() string {
	if len(p.segs) == 0 {
		// A copy: returning p.root itself would make escape analysis move
		// every path's segment array to the heap.
		return strings.Clone(p.root)
	}
	var b strings.Builder
	b.WriteString(p.root)
	for _, s := range p.segs {
		b.WriteByte('[')
		if s.isIdx {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(s.name)
		}
		b.WriteByte(']')
	}
	return b.String()
}

// errQuiet is the failure of a quiet validation.
var errQuiet = &Error{Code: "rest_invalid", Message: "invalid"}

func schemaErr(code, msg string) *Error { return &Error{Code: code, Message: msg} }

func typeErr(p path, t string) *Error {
	if p.quiet {
		return errQuiet
	}
	ps := p.String()
	return &Error{
		Code:    "rest_invalid_type",
		Message: ps + " is not of type " + t + ".",
		Data:    Object{{"param", ps}},
	}
}

// Validate checks value against schema exactly as WordPress's
// rest_validate_value_from_schema does; param names the value in messages
// ("per_page", "requests"). It returns nil or the first failure.
func Validate(value any, schema *Schema, param string) *Error {
	var buf [8]pathSeg
	return validate(value, schema, newPath(param, buf[:]))
}

// validate is rest_validate_value_from_schema.
func validate(v any, s *Schema, p path) *Error {
	typ := s.Type
	if len(s.AnyOf) > 0 {
		m, err := findAny(v, s, p)
		if err != nil {
			return err
		}
		if typ == "" && len(s.Types) == 0 {
			typ = m.Type
		}
	}
	if len(s.OneOf) > 0 {
		m, err := findOne(v, s, p)
		if err != nil {
			return err
		}
		if typ == "" && len(s.Types) == 0 {
			typ = m.Type
		}
	}
	if len(s.Types) > 0 {
		typ = bestType(v, s.Types)
		if typ == "" {
			return typeErr(p, strings.Join(s.Types, ","))
		}
	}
	var err *Error
	switch typ {
	case "null":
		if v != nil {
			err = typeErr(p, "null")
		}
	case "boolean":
		if !isBoolean(v) {
			err = typeErr(p, "boolean")
		}
	case "object":
		err = validateObject(v, s, p)
	case "array":
		err = validateArray(v, s, p)
	case "number", "integer":
		err = validateNumber(v, s, p, typ)
	case "string":
		err = validateString(v, s, p)
	}
	if err != nil {
		return err
	}
	if len(s.Enum) > 0 {
		if err := validateEnum(v, s, p, typ); err != nil {
			return err
		}
	}
	if s.Format != "" && (typ == "" || typ == "string") {
		if err := validateFormat(v, s.Format, p); err != nil {
			return err
		}
	}
	return nil
}

// bestType is rest_get_best_type_for_value.
func bestType(v any, types []string) string {
	if str, ok := v.(string); ok && str == "" {
		for _, t := range types {
			if t == "string" {
				return "string"
			}
		}
	}
	for _, t := range types {
		ok := false
		switch t {
		case "array":
			ok = isList(v)
		case "object":
			ok = isObject(v)
		case "integer":
			ok = isInteger(v)
		case "number":
			_, ok = toFloat(v)
		case "boolean":
			ok = isBoolean(v)
		case "string":
			_, ok = v.(string)
		case "null":
			ok = v == nil
		}
		if ok {
			return t
		}
	}
	return ""
}

func validateObject(v any, s *Schema, p path) *Error {
	if !isObject(v) {
		return typeErr(p, "object")
	}
	if l, ok := v.([]any); ok {
		return validateListObject(l, s, p)
	}
	m := toObject(v)
	if err := requiredProps(s, p, func(name string) bool { _, ok := m[name]; return ok }); err != nil {
		return err
	}
	// Go maps have no order; visit declared properties first, then the rest
	// sorted, so the first reported error is deterministic.
	if len(m) > 0 {
		for _, prop := range s.Properties {
			if x, ok := m[prop.Name]; ok {
				if err := validate(x, prop.Schema, p.key(prop.Name)); err != nil {
					return err
				}
			}
		}
		for _, k := range extraKeys(m, s) {
			if err := validateExtraProp(k, m[k], s, p); err != nil {
				return err
			}
		}
	}
	return propertyCount(len(m), s, p)
}

// validateListObject validates a PHP list against an object schema: its
// keys are "0".."n-1".
func validateListObject(l []any, s *Schema, p path) *Error {
	if err := requiredProps(s, p, func(name string) bool {
		i, err := strconv.Atoi(name)
		return err == nil && isCanonicalIntKey(name) && i >= 0 && i < len(l)
	}); err != nil {
		return err
	}
	for i, x := range l {
		k := strconv.Itoa(i)
		if c := s.prop(k); c != nil {
			if err := validate(x, c, p.key(k)); err != nil {
				return err
			}
			continue
		}
		if err := validateExtraProp(k, x, s, p); err != nil {
			return err
		}
	}
	return propertyCount(len(l), s, p)
}

func requiredProps(s *Schema, p path, has func(string) bool) *Error {
	if s.RequiredProps != nil {
		for _, name := range s.RequiredProps {
			if !has(name) {
				if p.quiet {
					return errQuiet
				}
				return schemaErr("rest_property_required", name+" is a required property of "+p.String()+".")
			}
		}
		return nil
	}
	for _, prop := range s.Properties {
		if prop.Schema.Required && !has(prop.Name) {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_property_required", prop.Name+" is a required property of "+p.String()+".")
		}
	}
	return nil
}

// validateExtraProp checks a member that is not a declared property.
func validateExtraProp(k string, x any, s *Schema, p path) *Error {
	cp := p.key(k)
	if ps := patternPropertySchema(k, s); ps != nil {
		return validate(x, ps, cp)
	}
	switch a := s.AdditionalProperties.(type) {
	case bool:
		if !a {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_additional_properties_forbidden", k+" is not a valid property of Object.")
		}
	case *Schema:
		return validate(x, a, cp)
	}
	return nil
}

func propertyCount(n int, s *Schema, p path) *Error {
	if s.MinProperties != nil && n < *s.MinProperties {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_too_few_properties", p.String()+" must contain at least "+countNoun(*s.MinProperties, "property", "properties")+".")
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_too_many_properties", p.String()+" must contain at most "+countNoun(*s.MaxProperties, "property", "properties")+".")
	}
	return nil
}

// extraKeys lists, sorted, the keys of m that are not declared properties.
func extraKeys(m map[string]any, s *Schema) []string {
	var out []string
	for k := range m {
		if s.prop(k) == nil {
			out = append(out, k)
		}
	}
	if len(out) > 1 {
		sort.Strings(out)
	}
	return out
}

func patternPropertySchema(key string, s *Schema) *Schema {
	for _, pp := range s.PatternProperties {
		if matchPattern(pp.Name, nil, key) {
			return pp.Schema
		}
	}
	return nil
}

func validateArray(v any, s *Schema, p path) *Error {
	if !isList(v) {
		return typeErr(p, "array")
	}
	if singleItem(v) {
		// One comma-free string: the list is [v]; no need to build it.
		if s.Items != nil {
			if err := validate(v, s.Items, p.index(0)); err != nil {
				return err
			}
		}
		if s.MinItems != nil && 1 < *s.MinItems {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_too_few_items", p.String()+" must contain at least "+countNoun(*s.MinItems, "item", "items")+".")
		}
		if s.MaxItems != nil && 1 > *s.MaxItems {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_too_many_items", p.String()+" must contain at most "+countNoun(*s.MaxItems, "item", "items")+".")
		}
		return nil
	}
	l := toList(v)
	if s.Items != nil {
		for i, x := range l {
			if err := validate(x, s.Items, p.index(i)); err != nil {
				return err
			}
		}
	}
	if s.MinItems != nil && len(l) < *s.MinItems {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_too_few_items", p.String()+" must contain at least "+countNoun(*s.MinItems, "item", "items")+".")
	}
	if s.MaxItems != nil && len(l) > *s.MaxItems {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_too_many_items", p.String()+" must contain at most "+countNoun(*s.MaxItems, "item", "items")+".")
	}
	if s.UniqueItems && !uniqueItems(l) {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_duplicate_items", p.String()+" has duplicate items.")
	}
	return nil
}

func uniqueItems(l []any) bool {
	if len(l) < 2 {
		return true
	}
	seen := make(map[string]struct{}, len(l))
	var b strings.Builder
	for _, x := range l {
		b.Reset()
		stableKey(&b, x)
		k := b.String()
		if _, dup := seen[k]; dup {
			return false
		}
		seen[k] = struct{}{}
	}
	return true
}

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
		if exMin && f <= *minimum {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_out_of_bounds", p.String()+" must be greater than "+phpD(*minimum))
		}
		if !exMin && f < *minimum {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_out_of_bounds", p.String()+" must be greater than or equal to "+phpD(*minimum))
		}
	case maximum != nil && minimum == nil:
		if exMax && f >= *maximum {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_out_of_bounds", p.String()+" must be less than "+phpD(*maximum))
		}
		if !exMax && f > *maximum {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_out_of_bounds", p.String()+" must be less than or equal to "+phpD(*maximum))
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

type candidateErr struct {
	err    *Error
	schema *Schema
	typ    string
	index  int
}

// candidateType returns the candidate's type, inheriting the parent's.
func candidateType(c, parent *Schema) string {
	if c.Type != "" || len(c.Types) > 0 {
		return c.Type
	}
	return parent.Type
}

func validateCandidate(v any, c, parent *Schema, p path) *Error {
	if c.Type == "" && len(c.Types) == 0 && (parent.Type != "" || len(parent.Types) > 0) {
		cp := *c
		cp.Type, cp.Types = parent.Type, parent.Types
		return validate(v, &cp, p)
	}
	return validate(v, c, p)
}

// quietRoot is the path of quiet validations: no message is built, so the
// path itself does not matter. Sharing it keeps paths on the stack.
var quietRoot = path{quiet: true}

func quietPath(path) path { return quietRoot }

// findAny is rest_find_any_matching_schema. Candidates are first tried
// quietly; messages are only built when none matches.
func findAny(v any, s *Schema, p path) (*Schema, *Error) {
	qp := quietPath(p)
	for _, c := range s.AnyOf {
		if validateCandidate(v, c, s, qp) == nil {
			return c, nil
		}
	}
	if p.quiet {
		return nil, errQuiet
	}
	var errs []candidateErr
	for i, c := range s.AnyOf {
		err := validateCandidate(v, c, s, p)
		if err == nil {
			return c, nil
		}
		errs = append(errs, candidateErr{err, c, candidateType(c, s), i})
	}
	return nil, combiningError(v, p, errs)
}

// findOne is rest_find_one_matching_schema. Candidates are first tried
// quietly; messages are only built when none matches.
func findOne(v any, s *Schema, p path) (*Schema, *Error) {
	qp := quietPath(p)
	first, count := -1, 0
	for i, c := range s.OneOf {
		if validateCandidate(v, c, s, qp) == nil {
			if first < 0 {
				first = i
			}
			count++
		}
	}
	if count == 1 {
		return s.OneOf[first], nil
	}
	if p.quiet {
		return nil, errQuiet
	}
	var errs []candidateErr
	var matches []int
	for i, c := range s.OneOf {
		err := validateCandidate(v, c, s, p)
		if err == nil {
			matches = append(matches, i)
			continue
		}
		errs = append(errs, candidateErr{err, c, candidateType(c, s), i})
	}
	if len(matches) == 0 {
		return nil, combiningError(v, p, errs)
	}
	if len(matches) > 1 {
		positions := make([]any, len(matches))
		var titles []string
		for i, m := range matches {
			positions[i] = m
			if t := s.OneOf[m].Title; t != "" {
				titles = append(titles, t)
			}
		}
		data := Object{{"positions", positions}}
		if len(titles) == len(matches) {
			if p.quiet {
				return nil, errQuiet
			}
			return nil, &Error{Code: "rest_one_of_multiple_matches", Message: p.String() + " matches " + listAnd(titles) + ", but should match only one.", Data: data}
		}
		if p.quiet {
			return nil, errQuiet
		}
		return nil, &Error{Code: "rest_one_of_multiple_matches", Message: p.String() + " matches more than one of the expected formats.", Data: data}
	}
	return s.OneOf[matches[0]], nil
}

// combiningError is rest_get_combining_operation_error.
func combiningError(v any, p path, errs []candidateErr) *Error {
	if len(errs) == 1 {
		return formatCombining(p, errs[0])
	}
	ps := p.String()
	var filtered []candidateErr
	for _, e := range errs {
		if e.err.Code != "rest_invalid_type" {
			filtered = append(filtered, e)
			continue
		}
		if param, ok := dataParam(e.err.Data); ok && param != ps {
			filtered = append(filtered, e)
		}
	}
	if len(filtered) == 1 {
		return formatCombining(p, filtered[0])
	}
	if len(filtered) > 1 && filtered[0].typ == "object" {
		var best *candidateErr
		most := 0
		m, isMap := v.(map[string]any)
		for i := range filtered {
			e := &filtered[i]
			if e.schema.Properties == nil || !isMap {
				continue
			}
			n := 0
			for _, prop := range e.schema.Properties {
				if _, ok := m[prop.Name]; ok {
					n++
				}
			}
			if n > most {
				best, most = e, n
			}
		}
		if best != nil {
			return formatCombining(p, *best)
		}
	}
	titles := make([]string, 0, len(errs))
	for _, e := range errs {
		if e.schema.Title != "" {
			titles = append(titles, e.schema.Title)
		}
	}
	if len(titles) == len(errs) {
		if p.quiet {
			return errQuiet
		}
		return schemaErr("rest_no_matching_schema", ps+" is not a valid "+listAnd(titles)+".")
	}
	if p.quiet {
		return errQuiet
	}
	return schemaErr("rest_no_matching_schema", ps+" does not match any of the expected formats.")
}

func dataParam(d any) (string, bool) {
	if o, ok := d.(Object); ok {
		if v, ok := o.Get("param"); ok {
			s, ok := v.(string)
			return s, ok
		}
	}
	return "", false
}

func formatCombining(p path, e candidateErr) *Error {
	data := Object{{"position", e.index}}
	if e.schema.Title != "" {
		if p.quiet {
			return errQuiet
		}
		return &Error{Code: "rest_no_matching_schema", Message: p.String() + " is not a valid " + e.schema.Title + ". Reason: " + e.err.Message, Data: data}
	}
	if p.quiet {
		return errQuiet
	}
	return &Error{Code: "rest_no_matching_schema", Message: p.String() + " does not match the expected format. Reason: " + e.err.Message, Data: data}
}

func validateFormat(v any, format string, p path) *Error {
	str, ok := v.(string)
	if !ok && isScalar(v) {
		str = phpString(v)
	}
	switch format {
	case "hex-color":
		if !isHexColor(str) {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_invalid_hex_color", "Invalid hex color.")
		}
	case "date-time":
		if !isDateTime(str) {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_invalid_date", "Invalid date.")
		}
	case "email":
		if !isEmail(str) {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_invalid_email", "Invalid email address.")
		}
	case "ip":
		if !isIP(str) {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_invalid_ip", p.String()+" is not a valid IP address.")
		}
	case "uuid":
		if !IsUUID(str) {
			if p.quiet {
				return errQuiet
			}
			return schemaErr("rest_invalid_uuid", p.String()+" is not a valid UUID.")
		}
	}
	return nil
}

package rest

// anyOf and oneOf: finding the candidate schema and its error, as
// rest_find_any_matching_schema and rest_find_one_matching_schema do.

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

package rest

import (
	"errors"
)

// Arguments: gathering, validating and sanitising an endpoint's parameters
// (§1.1 step 8, WordPress's has_valid_params and sanitize_params).

// prepare gathers, validates and sanitises the endpoint's arguments:
// invalid JSON, then all missing required arguments at once, then every
// validation failure at once, then sanitisation failures.
func (s *Server) prepare(req *Request) *Error {
	if req.jsonErr != nil {
		return req.jsonErr
	}
	args := req.endpoint.Args
	req.vals = make([]any, len(args))
	var fromDefault [4]uint64
	var missing []string
	for i, a := range args {
		v, ok := req.raw(a.Name)
		if !ok && a.Schema.Default != nil {
			v = a.Schema.Default
			if i < 256 {
				fromDefault[i/64] |= 1 << (i % 64)
			}
		}
		req.vals[i] = v
		if v == nil && a.Schema.Required {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return missingParams(missing)
	}
	var segs [8]pathSeg
	isDefault := func(i int) bool { return i < 256 && fromDefault[i/64]&(1<<(i%64)) != 0 }
	validErr := eachArg(args, req.vals, func(i int, a Prop, v any) *Error {
		switch {
		case a.Schema.Validate != nil:
			return s.callbackError(req, a.Schema.Validate(req, v, a.Name))
		case isDefault(i) && a.Schema.def.ready:
			return a.Schema.def.err
		default:
			return validate(v, a.Schema, newPath(a.Name, segs[:]))
		}
	})
	if validErr != nil {
		return validErr
	}
	return eachArg(args, req.vals, func(i int, a Prop, v any) *Error {
		var err *Error
		switch {
		case a.Schema.Sanitize != nil:
			sv, e := a.Schema.Sanitize(req, v, a.Name)
			if err = s.callbackError(req, e); err == nil {
				req.vals[i] = sv
			}
		case isDefault(i) && a.Schema.def.ready:
			req.vals[i] = a.Schema.def.value
		default:
			req.vals[i], err = sanitizeArg(v, a.Schema, newPath(a.Name, segs[:]))
		}
		return err
	})
}

// eachArg runs step on every argument that has a value and reports every
// failure at once, as WordPress's has_valid_params and sanitize_params do.
func eachArg(args Props, vals []any, step func(i int, a Prop, v any) *Error) *Error {
	var names []string
	var errs []*Error
	for i, a := range args {
		v := vals[i]
		if v == nil {
			continue
		}
		if err := step(i, a, v); err != nil {
			names = append(names, a.Name)
			errs = append(errs, err)
		}
	}
	if len(names) > 0 {
		return invalidParams(names, errs)
	}
	return nil
}

// sanitizeArg is the default sanitize_callback: only arguments with a type
// (or a combining keyword) are sanitised.
func sanitizeArg(v any, sc *Schema, p path) (any, *Error) {
	if sc.Type == "" && len(sc.Types) == 0 && len(sc.AnyOf) == 0 && len(sc.OneOf) == 0 {
		return v, nil
	}
	return sanitize(v, sc, p)
}

// errInvalidParameter marks a callback that said "false": WordPress reports
// "Invalid parameter." without details.
var errInvalidParameter = &Error{Message: "Invalid parameter."}

// ErrInvalid is what a ValidateFunc returns to reject a value without a
// specific error (WordPress's validate_callback returning false).
var ErrInvalid error = errInvalidParameter

func (s *Server) callbackError(req *Request, err error) *Error {
	if isNil(err) {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if e := FromUnavailable(err); e != nil {
		s.opts.Logger.WarnContext(req.Context(), "rest: database unavailable", "route", req.Pattern, "error", err)
		return e
	}
	s.opts.Logger.ErrorContext(req.Context(), "rest: argument callback failed", "route", req.Pattern, "error", err)
	return errInternal()
}

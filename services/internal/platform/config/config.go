// Package config reads a service's settings from environment variables,
// collecting every problem so that a misconfigured Pod reports all of them in
// one log line instead of one per restart. Error messages name the variable,
// never a secret's value.
package config

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Loader reads variables through lookup and accumulates errors.
type Loader struct {
	lookup func(string) (string, bool)
	errs   []error
}

// New returns a Loader over lookup (os.LookupEnv in production).
func New(lookup func(string) (string, bool)) *Loader {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	return &Loader{lookup: lookup}
}

// FromEnv returns a Loader over the process environment.
func FromEnv() *Loader { return New(os.LookupEnv) }

// Err returns every problem found so far, or nil.
func (l *Loader) Err() error { return errors.Join(l.errs...) }

// Fail records a problem found by the caller (a file that does not parse, say).
func (l *Loader) Fail(format string, args ...any) {
	l.errs = append(l.errs, fmt.Errorf(format, args...))
}

func (l *Loader) get(name string) (string, bool) {
	v, ok := l.lookup(name)
	v = strings.TrimSpace(v)
	return v, ok && v != ""
}

// String returns the variable or def.
func (l *Loader) String(name, def string) string {
	if v, ok := l.get(name); ok {
		return v
	}
	return def
}

// Required returns the variable and records an error when it is unset.
func (l *Loader) Required(name string) string {
	v, ok := l.get(name)
	if !ok {
		l.Fail("%s is required", name)
	}
	return v
}

// Int returns the variable as an integer within [min, max], or def.
func (l *Loader) Int(name string, def, low, high int64) int64 {
	v, ok := l.get(name)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < low || n > high {
		l.Fail("%s must be an integer from %d to %d, got %q", name, low, high, v)
		return def
	}
	return n
}

// Duration returns the variable as a positive Go duration ("20s"), or def.
func (l *Loader) Duration(name string, def time.Duration) time.Duration {
	v, ok := l.get(name)
	if !ok {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		l.Fail("%s must be a positive duration such as 20s, got %q", name, v)
		return def
	}
	return d
}

// Secret returns the value of name, or the content of the file named by
// fileName (a mounted Secret key); exactly one may be set. When required and
// neither is set, an error is recorded. The value never appears in errors.
func (l *Loader) Secret(name, fileName string, required bool) string {
	v, hasValue := l.get(name)
	path, hasFile := l.get(fileName)
	switch {
	case hasValue && hasFile:
		l.Fail("set only one of %s and %s", name, fileName)
		return ""
	case hasValue:
		return v
	case hasFile:
		data, err := os.ReadFile(path)
		if err != nil {
			l.Fail("%s: cannot read %s: %v", fileName, path, errors.Unwrap(err))
			return ""
		}
		s := strings.TrimSpace(string(data))
		if s == "" {
			l.Fail("%s: file %s is empty", fileName, path)
		}
		return s
	case required:
		l.Fail("%s (or %s) is required", name, fileName)
	}
	return ""
}

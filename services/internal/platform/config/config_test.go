package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestLoader(t *testing.T) {
	dir := t.TempDir()
	secretFile := filepath.Join(dir, "dsn")
	if err := os.WriteFile(secretFile, []byte("postgres://u:pw@h/db\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     map[string]string
		check   func(t *testing.T, l *Loader)
		wantErr []string
	}{
		{"defaults", nil, func(t *testing.T, l *Loader) {
			if l.String("A", "x") != "x" || l.Int("N", 5, 1, 9) != 5 || l.Duration("D", time.Second) != time.Second {
				t.Error("defaults not applied")
			}
		}, nil},
		{"values", map[string]string{"A": " y ", "N": "7", "D": "3s"}, func(t *testing.T, l *Loader) {
			if l.String("A", "x") != "y" || l.Int("N", 5, 1, 9) != 7 || l.Duration("D", time.Second) != 3*time.Second {
				t.Error("values not read")
			}
		}, nil},
		{"malformed values are all reported", map[string]string{"N": "ten", "D": "-1s", "M": "99"}, func(t *testing.T, l *Loader) {
			l.Int("N", 5, 1, 9)
			l.Duration("D", time.Second)
			l.Int("M", 5, 1, 9)
			l.Required("R")
		}, []string{`N must be an integer from 1 to 9, got "ten"`, `D must be a positive duration`, `M must be an integer`, `R is required`}},
		{"secret from file", map[string]string{"S_FILE": secretFile}, func(t *testing.T, l *Loader) {
			if got := l.Secret("S", "S_FILE", true); got != "postgres://u:pw@h/db" {
				t.Errorf("secret = %q", got)
			}
		}, nil},
		{"secret missing", nil, func(t *testing.T, l *Loader) { l.Secret("S", "S_FILE", true) }, []string{"S (or S_FILE) is required"}},
		{"secret twice", map[string]string{"S": "a", "S_FILE": secretFile}, func(t *testing.T, l *Loader) { l.Secret("S", "S_FILE", true) }, []string{"set only one of S and S_FILE"}},
		{"secret file unreadable", map[string]string{"S_FILE": filepath.Join(dir, "nope")}, func(t *testing.T, l *Loader) { l.Secret("S", "S_FILE", true) }, []string{"S_FILE: cannot read"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := New(env(tt.env))
			tt.check(t, l)
			err := l.Err()
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("expected errors")
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "pw@") {
				t.Errorf("error leaks a secret: %v", err)
			}
		})
	}
}

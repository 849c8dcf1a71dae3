package devstack

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLogTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "content.log")
	earlier := "an earlier run's line\n"
	if err := os.WriteFile(path, []byte(earlier+"one\ntwo\nlisten tcp 127.0.0.1:1: bind: address already in use\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		path   string
		offset int64
		n      int
		want   string
	}{
		{"only this run's lines", path, int64(len(earlier)), 12, "one\ntwo\nlisten tcp 127.0.0.1:1: bind: address already in use"},
		{"the last n", path, int64(len(earlier)), 1, "listen tcp 127.0.0.1:1: bind: address already in use"},
		{"offset past the end (log rotated)", path, 1 << 20, 12, ""},
		{"no log", filepath.Join(t.TempDir(), "missing.log"), 0, 12, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := logTail(tt.path, tt.offset, tt.n); got != tt.want {
				t.Errorf("logTail = %q, want %q", got, tt.want)
			}
		})
	}
	if got := indent(""); got != "  (the log is empty)" {
		t.Errorf("indent of nothing = %q", got)
	}
}

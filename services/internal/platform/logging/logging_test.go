package logging

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestLoggerLevelsAndRequestID(t *testing.T) {
	tests := []struct {
		level     string
		debugSeen bool
		infoSeen  bool
	}{
		{"debug", true, true},
		{"info", false, true},
		{"", false, true},
		{"warn", false, false},
		{"ERROR", false, false},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		l := New(&buf, "svc", tt.level)
		l.Debug("d")
		l.Info("i")
		out := buf.String()
		if got := strings.Contains(out, `"msg":"d"`); got != tt.debugSeen {
			t.Errorf("level %q: debug logged = %v", tt.level, got)
		}
		if got := strings.Contains(out, `"msg":"i"`); got != tt.infoSeen {
			t.Errorf("level %q: info logged = %v", tt.level, got)
		}
	}

	var buf bytes.Buffer
	base := New(&buf, "content", "info")
	ctx := WithRequestID(context.Background(), "req-1")
	FromContext(ctx, base).Info("hello")
	FromContext(context.Background(), base).Info("bare")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 log lines, got %q", lines)
	}
	var first, second map[string]any
	for i, into := range []*map[string]any{&first, &second} {
		if err := json.Unmarshal([]byte(lines[i]), into); err != nil {
			t.Fatalf("not JSON: %s", lines[i])
		}
	}
	if first["service"] != "content" || first["request_id"] != "req-1" {
		t.Fatalf("line %v lacks service or request id", first)
	}
	// The bare line must be there (with its service) for the absent
	// request id below to mean anything.
	if second["msg"] != "bare" || second["service"] != "content" {
		t.Fatalf("second line %v", second)
	}
	if _, ok := second["request_id"]; ok || RequestID(context.Background()) != "" {
		t.Fatalf("a context without a request id must add none: %v", second)
	}
}

package service

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/config"
)

func TestPprofAddr(t *testing.T) {
	tests := []struct {
		value   string // "" = unset
		want    string
		wantErr bool
	}{
		{"", "", false},
		{"127.0.0.1:6060", "127.0.0.1:6060", false},
		{"[::1]:0", "[::1]:0", false},
		{"localhost:6060", "localhost:6060", false},
		{"0.0.0.0:6060", "", true},
		{":6060", "", true}, // all interfaces
		{"10.0.0.1:6060", "", true},
		{"example.com:6060", "", true},
		{"127.0.0.1", "", true},
	}
	for _, tt := range tests {
		cfg := config.New(func(k string) (string, bool) {
			if k == EnvPprofAddr && tt.value != "" {
				return tt.value, true
			}
			return "", false
		})
		got := pprofAddr(cfg)
		err := cfg.Err()
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("%q: %q, %v; want %q, error %v", tt.value, got, err, tt.want, tt.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), EnvPprofAddr) {
			t.Errorf("%q: error %q does not name %s", tt.value, err, EnvPprofAddr)
		}
	}
}

// The profiling listener serves the index and a short CPU profile, and
// closes when its context ends.
func TestStartPprof(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, err := startPprof(ctx, "127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + addr.String() + "/debug/pprof/"
	for _, path := range []string{"", "profile?seconds=1", "goroutine?debug=1"} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || len(body) == 0 {
			t.Fatalf("%s: %d, %d bytes", path, res.StatusCode, len(body))
		}
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, err := http.Get(base)
		if err != nil {
			break // closed
		}
		res.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("the pprof listener still answers after its context ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

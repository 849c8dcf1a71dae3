package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestParseTarget(t *testing.T) {
	tests := []struct {
		in      string
		want    target
		wantErr bool
	}{
		{"posts=GET http://h/x", target{"posts", "GET", "http://h/x", ""}, false},
		{`v=post http://h/v {"a": 1}`, target{"v", "POST", "http://h/v", `{"a": 1}`}, false},
		{"nourl=GET", target{}, true},
		{"GET http://h", target{}, true},
	}
	for _, tt := range tests {
		got, err := parseTarget(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("parseTarget(%q) = %+v, %v", tt.in, got, err)
		}
	}
}

func TestRunCountsStatuses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/bad" {
			w.WriteHeader(500)
		}
	}))
	defer srv.Close()
	ok := run(target{name: "ok", method: "GET", url: srv.URL + "/ok"}, nil, 100*time.Millisecond, 2)
	bad := run(target{name: "bad", method: "GET", url: srv.URL + "/bad"}, []string{"X-A: b"}, 100*time.Millisecond, 2)
	if len(ok.latencies) == 0 || ok.non2xx != 0 || ok.errors != 0 {
		t.Fatalf("ok target: %d requests, %d non-2xx, %d errors", len(ok.latencies), ok.non2xx, ok.errors)
	}
	if bad.non2xx != len(bad.latencies) || bad.non2xx == 0 {
		t.Fatalf("bad target: %d non-2xx of %d", bad.non2xx, len(bad.latencies))
	}
	table := render([]result{ok, bad}, 2, 100*time.Millisecond)
	if !strings.Contains(table, "| ok |") || !strings.Contains(table, "| bad |") {
		t.Fatalf("table:\n%s", table)
	}
}

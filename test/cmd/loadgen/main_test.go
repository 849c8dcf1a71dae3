package main

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseTarget(t *testing.T) {
	tests := []struct {
		in      string
		want    target
		wantErr bool
	}{
		{"posts=GET http://h/x", target{name: "posts", method: "GET", url: "http://h/x"}, false},
		{`v=post http://h/v {"a": 1}`, target{name: "v", method: "POST", url: "http://h/v", body: `{"a": 1}`}, false},
		{"f=POST http://h/f @/nonexistent/file", target{}, true},
		{"nourl=GET", target{}, true},
		{"GET http://h", target{}, true},
	}
	for _, tt := range tests {
		got, err := parseTarget(tt.in)
		if (err != nil) != tt.wantErr || !reflect.DeepEqual(got, tt.want) {
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

func TestParseTargetsHeaders(t *testing.T) {
	specs := []string{"a=GET http://h/a", "b=POST http://h/b {}"}
	tests := []struct {
		name    string
		specs   []string
		headers []string
		want    map[string][]string
		wantErr bool
	}{
		{"none", specs, nil, map[string][]string{"a": nil, "b": nil}, false},
		{"one target only", specs, []string{"b=Authorization: Bearer k", "b=X-A: 1"},
			map[string][]string{"a": nil, "b": {"Authorization: Bearer k", "X-A: 1"}}, false},
		{"unknown target", specs, []string{"c=X-A: 1"}, nil, true},
		{"no header value", specs, []string{"a=X-A"}, nil, true},
		{"no target name", specs, []string{"X-A: 1"}, nil, true},
		{"repeated target", append(specs, "a=GET http://h/other"), nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			targets, own, err := parseTargets(tt.specs, tt.headers)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if len(targets) != len(tt.specs) || !reflect.DeepEqual(own, tt.want) {
				t.Fatalf("targets %+v, headers %q; want headers %q", targets, own, tt.want)
			}
		})
	}
}

// Headers given to run reach the server. Only 2xx answers count as
// success: a 304 (which the client does not follow) is a failure, and so is
// a connection error.
func TestRunSendsHeadersAndFailsOnErrors(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.Header.Get("Authorization")] = true
		mu.Unlock()
		if r.URL.Path == "/redirect" {
			w.WriteHeader(http.StatusNotModified)
		}
	}))
	ok := run(target{name: "ok", method: "POST", url: srv.URL + "/", body: "{}"}, []string{"Authorization: Bearer k"}, 50*time.Millisecond, 1)
	redirect := run(target{name: "r", method: "GET", url: srv.URL + "/redirect"}, nil, 50*time.Millisecond, 1)
	srv.Close()
	down := run(target{name: "down", method: "GET", url: srv.URL + "/"}, nil, 50*time.Millisecond, 1)
	if !seen["Bearer k"] || len(seen) != 2 {
		t.Fatalf("server saw Authorization values %v", seen)
	}
	tests := []struct {
		name    string
		results []result
		want    bool
	}{
		{"all 2xx", []result{ok}, false},
		{"a 304", []result{ok, redirect}, true},
		{"connection errors", []result{down}, true},
	}
	for _, tt := range tests {
		if got := failed(tt.results); got != tt.want {
			t.Errorf("%s: failed = %v, want %v (ok %+v, redirect non-2xx %d, down errors %d)",
				tt.name, got, tt.want, ok.non2xx, redirect.non2xx, down.errors)
		}
	}
}

func TestFileBodyOptionsAndRSS(t *testing.T) {
	dir := t.TempDir()
	photo := dir + "/p.jpg"
	if err := writePhoto(photo, "64x48"); err != nil {
		t.Fatal(err)
	}
	var got []byte
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = b
		mu.Unlock()
		if r.Header.Get("Content-Type") != "image/jpeg" {
			w.WriteHeader(400)
		}
	}))
	defer srv.Close()
	targets, own, err := parseTargets([]string{"up=POST " + srv.URL + " @" + photo}, []string{"up=Content-Type: image/jpeg"})
	if err != nil {
		t.Fatal(err)
	}
	if err := applyOptions(targets, []string{"up=3"}, []string{fmt.Sprintf("up=%d", os.Getpid())}); err != nil {
		t.Fatal(err)
	}
	if targets[0].concurrency != 3 || targets[0].rssPID != os.Getpid() {
		t.Fatalf("options not applied: %+v", targets[0])
	}
	res := run(targets[0], own["up"], 100*time.Millisecond, targets[0].concurrency)
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(got))
	if err != nil || cfg.Width != 64 || cfg.Height != 48 || res.non2xx != 0 || res.peakRSS <= 0 || res.conc != 3 {
		t.Fatalf("file body: %v %+v, non2xx %d, peak RSS %d", err, cfg, res.non2xx, res.peakRSS)
	}
	if err := applyDurations(targets, []string{"up=2s"}); err != nil || targets[0].duration != 2*time.Second {
		t.Fatalf("duration: %v %v", err, targets[0].duration)
	}
	for _, bad := range []string{"up=forever", "nope=1s", "up=11m"} {
		if err := applyDurations(targets, []string{bad}); err == nil {
			t.Errorf("applyDurations(%q) accepted", bad)
		}
	}
	if table := render([]result{res}, 16, time.Second); !strings.Contains(table, "| up | 3 |") {
		t.Fatalf("table:\n%s", table)
	}
	for _, bad := range [][]string{{"up=0"}, {"nope=2"}, {"up=x"}} {
		if err := applyOptions(targets, bad, nil); err == nil {
			t.Errorf("applyOptions(%v) accepted", bad)
		}
	}
	if err := writePhoto(photo, "axb"); err == nil {
		t.Error("bad size accepted")
	}
}

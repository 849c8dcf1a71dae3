package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A target whose URL is "@file" takes the file's URLs in turn: every one
// is asked, none more than once ahead of another.
func TestTargetURLListTakenInTurn(t *testing.T) {
	var mu sync.Mutex
	got := map[string]int{}
	ts := startHTTP(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.RequestURI()]++
		mu.Unlock()
	}, true)
	list := filepath.Join(t.TempDir(), "urls")
	paths := []string{"/a", "/b?x=1", "/c/"}
	body := "# pages\n\n" + ts.url + strings.Join(paths, "\n"+ts.url) + "\n"
	if err := os.WriteFile(list, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	tg, err := parseTarget("pages=GET @" + list)
	if err != nil {
		t.Fatal(err)
	}
	res := run(tg, nil, 300*time.Millisecond, 2)
	mu.Lock()
	defer mu.Unlock()
	if res.errors != 0 || res.non2xx != 0 || len(got) != len(paths) {
		t.Fatalf("%d errors, %d unexpected, paths asked %v", res.errors, res.non2xx, got)
	}
	lo, hi := len(res.latencies), 0
	for _, p := range paths {
		lo, hi = min(lo, got[p]), max(hi, got[p])
	}
	// in turn across connections: at most one request per connection
	// still in flight when the run stopped
	if lo == 0 || hi-lo > 2 {
		t.Fatalf("not in turn: %v", got)
	}
}

func TestTargetURLListRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	twoHosts := write("two", "http://127.0.0.1:1/a\nhttp://127.0.0.2:1/b\n")
	tests := []struct{ name, spec, want string }{
		{"empty list", "e=GET @" + write("empty", "# none\n\n"), "no URL"},
		{"missing file", "m=GET @" + filepath.Join(dir, "absent"), "no such file"},
		{"two hosts", "h=GET @" + twoHosts, "is not on 127.0.0.1:1"},
		{"seq body", "s=POST @" + twoHosts + ` {"n":{{seq}}}`, "takes no {{seq}} body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg, err := parseTarget(tt.spec)
			if err == nil {
				_, err = newWireRequests(tg, nil)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

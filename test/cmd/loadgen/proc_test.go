package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// a command name with a space and a parenthesis, as /proc allows
	line := "4242 (php-fpm: pool (www)) S 17 4242 4242 0 -1 4194560 1 0 0 0 250 75 0 0 20 0 1 0 100 1000 512 18446744073709551615"
	st, ok := parseStat(line)
	if !ok || st.comm != "php-fpm: pool (www)" || st.ppid != 17 || st.ticks != 325 || st.rss != 512 {
		t.Fatalf("parseStat = %+v, %v", st, ok)
	}
	if _, ok := parseStat("4242 (short) S 1 2"); ok {
		t.Fatal("a truncated line parsed")
	}
}

func TestParseProcSet(t *testing.T) {
	tests := []struct {
		in   string
		want procSet
		err  bool
	}{
		{"gateway=pid:12", procSet{label: "gateway", kind: "pid", pid: 12}, false},
		{"postgres=tree:7", procSet{label: "postgres", kind: "tree", pid: 7}, false},
		{"php=comm:php-fpm8.2|nginx", procSet{label: "php", kind: "comm", comms: []string{"php-fpm8.2", "nginx"}}, false},
		{"x=pid:0", procSet{}, true},
		{"x=pid:abc", procSet{}, true},
		{"x=name:abc", procSet{}, true},
		{"pid:12", procSet{}, true},
	}
	for _, tt := range tests {
		got, err := parseProcSet(tt.in)
		if (err != nil) != tt.err || (err == nil && (got.label != tt.want.label || got.kind != tt.want.kind ||
			got.pid != tt.want.pid || strings.Join(got.comms, "|") != strings.Join(tt.want.comms, "|"))) {
			t.Errorf("parseProcSet(%q) = %+v, %v", tt.in, got, err)
		}
	}
}

// The CPU a handler burns in this very process is what -cpu pid:<self>
// reports per request; an idle process of another set reports none.
func TestCPUPerRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		end := time.Now().Add(2 * time.Millisecond)
		for time.Now().Before(end) {
		}
	}))
	defer srv.Close()
	self := procSet{label: "self", kind: "pid", pid: os.Getpid()}
	sets := []procSet{self, {label: "init", kind: "pid", pid: 1}}
	before := takeCPU(sets)
	r := run(target{name: "burn", method: "GET", url: srv.URL}, nil, 300*time.Millisecond, 1)
	r.cpu = cpuSince(before, takeCPU(sets))
	rep := summarise("t", []result{r}, sets, nil, nil, 0)
	got := rep.Targets[0].CPU
	if got[0] < 1 || got[0] > 20 {
		t.Fatalf("self CPU per request %.3f ms, want about 2 (requests %d)", got[0], rep.Targets[0].Requests)
	}
	if !strings.Contains(renderReport(rep), "self ") {
		t.Fatalf("table lacks the breakdown:\n%s", renderReport(rep))
	}
}

func TestMemWatchSeesThisProcess(t *testing.T) {
	w := watchMemory([]procSet{{label: "self", kind: "pid", pid: os.Getpid()}}, 10*time.Millisecond)
	time.Sleep(30 * time.Millisecond)
	peaks, total := w.Stop()
	if peaks[0] < 1<<20 || total != peaks[0] {
		t.Fatalf("peaks %v total %d", peaks, total)
	}
}

func TestExpectedStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(400) }))
	defer srv.Close()
	want400 := run(target{name: "p", method: "GET", url: srv.URL, expect: 400}, nil, 100*time.Millisecond, 1)
	any2xx := run(target{name: "q", method: "GET", url: srv.URL}, nil, 100*time.Millisecond, 1)
	if want400.non2xx != 0 || any2xx.non2xx == 0 {
		t.Fatalf("unexpected: %d with -expect 400, %d without", want400.non2xx, any2xx.non2xx)
	}
	ts := []target{{name: "p"}}
	if err := applyExpects(ts, []string{"p=400"}); err != nil || ts[0].expect != 400 {
		t.Fatalf("applyExpects: %v %+v", err, ts)
	}
	for _, bad := range []string{"q=400", "p=4000", "p=x"} {
		if err := applyExpects(ts, []string{bad}); err == nil {
			t.Errorf("applyExpects(%q) accepted", bad)
		}
	}
}

func TestCompareReports(t *testing.T) {
	dir := t.TempDir()
	a := report{Title: "Siteplane", Targets: []targetReport{{Name: "list", RPS: 1000, CPUTotal: 0.5}, {Name: "media", RPS: 3}}}
	b := report{Title: "WordPress", Targets: []targetReport{{Name: "list", RPS: 20, CPUTotal: 40}}}
	pa, pb, md := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "c.md")
	if err := writeJSON(pa, a); err != nil {
		t.Fatal(err)
	}
	if err := writeJSON(pb, b); err != nil {
		t.Fatal(err)
	}
	if err := compareReports(pa+","+pb, md, 0); err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(md)
	for _, want := range []string{"| list | 1000 |", "| 50× | 80× |", "| media | 3.00 |", "— | — |"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("comparison lacks %q:\n%s", want, out)
		}
	}
}

// The scaling table flags the routes whose cost (CPU per request when both
// runs have it, else median latency) grew more than the factor given.
func TestScalingTable(t *testing.T) {
	a := report{Title: "200 posts", Targets: []targetReport{{Name: "list", P50: 1, CPUTotal: 1}, {Name: "terms", P50: 1, CPUTotal: 1},
		{Name: "page", P50: 2}, {Name: "feed", P50: 1}, {Name: "gone", P50: 1}}}
	b := report{Title: "1000000 posts", Targets: []targetReport{{Name: "list", P50: 9, CPUTotal: 1.2}, {Name: "terms", P50: 1, CPUTotal: 1.5},
		{Name: "page", P50: 2.5}, {Name: "feed", P50: 1.1}}}
	out := renderScaling(a, b, 1.3)
	for _, c := range []struct {
		want string
		in   bool
	}{
		{"| list | 1.00 | 9.00 | 9.0× | 1.000 | 1.200 | 1.2× |  |", true},
		{"| terms | 1.00 | 1.00 | 1.0× | 1.000 | 1.500 | 1.5× | **grows** |", true},
		{"| page | 2.00 | 2.50 | 1.2× | — | — | — | |", false},
		{"| feed | 1.00 | 1.10 | 1.1× |", true},
		{"| gone | 1.00 | — | — |", true},
		{"1 of 5 routes grow more than 1.3×", true},
	} {
		if strings.Contains(out, c.want) != c.in {
			t.Errorf("%q in the table: %v, want %v:\n%s", c.want, !c.in, c.in, out)
		}
	}
}

func TestWithSeq(t *testing.T) {
	var seq atomic.Int64
	if got := withSeq(`{"a":"x {{seq}}","b":"{{seq}}"}`, &seq); got != `{"a":"x 1","b":"1"}` {
		t.Fatalf("first: %s", got)
	}
	if got := withSeq(`{"a":"x {{seq}}"}`, &seq); got != `{"a":"x 2"}` {
		t.Fatalf("second: %s", got)
	}
	if got := withSeq(`{"a":1}`, &seq); got != `{"a":1}` || seq.Load() != 2 {
		t.Fatalf("no placeholder: %s", got)
	}
}

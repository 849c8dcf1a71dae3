package rest

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used.
func threadCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// manyKeys is n bytes of distinct form keys ("k0=v&k1=v&...").
func manyKeys(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "k%d=v&", i)
	}
	return b.String()[:n]
}

// 1 MiB of keys, in the query string or a form body, is refused with 400
// in well under 100 ms of CPU (it used to take minutes: every key scanned
// every earlier one).
func TestOneMebibyteOfKeysIsRefusedQuickly(t *testing.T) {
	s := newTestServer(t)
	keys := manyKeys(1 << 20)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, tc := range []struct{ name, target, body string }{
		{"query", "/cms/v2/posts?" + keys, ""},
		{"form", "/cms/v2/posts", keys},
	} {
		start, wall := threadCPU(t), time.Now()
		r := do(t, s, "POST", tc.target, admin, tc.body, "Content-Type", "application/x-www-form-urlencoded")
		cpu := threadCPU(t) - start
		t.Logf("%s: %v CPU, %v wall", tc.name, cpu, time.Since(wall))
		if r.status != 400 || !strings.Contains(r.body, `"code":"rest_too_many_params"`) {
			t.Fatalf("%s: %d %.300s", tc.name, r.status, r.body)
		}
		if cpu > 100*time.Millisecond {
			t.Fatalf("%s: %v of CPU", tc.name, cpu)
		}
	}
}

// Parsing stays linear below the limit: an array of MaxInputVars keys is
// filled through the key index, not by scanning.
func TestParseInputIsLinear(t *testing.T) {
	var b strings.Builder
	for i := 0; i < MaxInputVars; i++ {
		fmt.Fprintf(&b, "a[k%d]=%d&", i, i)
	}
	a, err := parseInput(b.String())
	if err != nil {
		t.Fatal(err)
	}
	inner, _ := a.get("a")
	if m, _ := inner.(map[string]any); len(m) != MaxInputVars || m["k999"] != "999" {
		t.Fatalf("got %d keys", len(m))
	}
	// Lists converted to maps keep their index too.
	a, err = parseInput("a[]=x&a[]=y&" + strings.Repeat("a[z]=1&", 20) + "a[]=w")
	if err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(a.asMap()); got != `{"a":{"0":"x","1":"y","2":"w","z":"1"}}` {
		t.Fatalf("got %s", got)
	}
}

func TestInputLimits(t *testing.T) {
	s := newTestServer(t)
	deep := func(n int) string { return "a" + strings.Repeat("[b]", n) + "=1" }
	fields := func(n int) string {
		l := make([]string, n)
		for i := range l {
			l[i] = fmt.Sprint("f", i)
		}
		return strings.Join(l, ",")
	}
	nested := func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
	tests := []struct {
		name, method, target, ctype, body string
		status                            int
		code                              string
	}{
		{"keys at the limit", "GET", "/cms/v2/posts?" + strings.Repeat("x=1&", MaxInputVars), "", "", 200, ""},
		{"one key over", "GET", "/cms/v2/posts?" + strings.Repeat("x=1&", MaxInputVars+1), "", "", 400, "rest_too_many_params"},
		{"form keys over", "POST", "/cms/v2/posts", "application/x-www-form-urlencoded", strings.Repeat("x=1&", MaxInputVars+1), 400, "rest_too_many_params"},
		{"nesting at the limit", "GET", "/cms/v2/posts?" + deep(MaxInputNesting), "", "", 200, ""},
		{"nesting over", "GET", "/cms/v2/posts?" + deep(MaxInputNesting+1), "", "", 400, "rest_params_too_deep"},
		{"form nesting over", "POST", "/cms/v2/posts", "application/x-www-form-urlencoded", deep(MaxInputNesting + 1), 400, "rest_params_too_deep"},
		{"_fields at the limit", "GET", "/cms/v2/posts?_fields=" + fields(MaxFields), "", "", 200, ""},
		{"_fields over", "GET", "/cms/v2/posts?_fields=" + fields(MaxFields+1), "", "", 400, "rest_invalid_param"},
		{"JSON depth at the limit", "POST", "/cms/v2/posts", "application/json", nested(maxJSONDepth), 201, ""},
		{"JSON too deep", "POST", "/cms/v2/posts", "application/json", nested(maxJSONDepth + 1), 400, "rest_invalid_json"},
		{"NUL in the query", "GET", "/cms/v2/posts?search=%00", "", "", 400, "rest_invalid_param"},
		{"invalid UTF-8 in the query", "GET", "/cms/v2/posts?search=%ff", "", "", 400, "rest_invalid_param"},
		{"NUL in a query key", "GET", "/cms/v2/posts?a%00=1", "", "", 400, "rest_invalid_param"},
		{"NUL in a nested value", "GET", "/cms/v2/posts?a[b][]=%00", "", "", 400, "rest_invalid_param"},
		{"NUL in a JSON value", "POST", "/cms/v2/posts", "application/json", `{"title":{"raw":"a\u0000"}}`, 400, "rest_invalid_param"},
		{"NUL in a JSON key", "POST", "/cms/v2/posts", "application/json", `{"x":{"\u0000":1}}`, 400, "rest_invalid_param"},
		{"NUL in a form value", "POST", "/cms/v2/posts", "application/x-www-form-urlencoded", "title=%00", 400, "rest_invalid_param"},
		{"NUL in the URL", "GET", "/cms/v2/posts/1%00", "", "", 404, "rest_no_route"},
		{"valid UTF-8 passes", "GET", "/cms/v2/posts?search=%C3%A9t%C3%A9", "", "", 200, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h []string
			if tc.ctype != "" {
				h = []string{"Content-Type", tc.ctype}
			}
			r := do(t, s, tc.method, tc.target, admin, tc.body, h...)
			if r.status != tc.status || tc.code != "" && !strings.Contains(r.body, `"code":"`+tc.code+`"`) {
				t.Fatalf("%d %.400s", r.status, r.body)
			}
		})
	}
	// The in-process path (batch) has the same limits.
	if err := s.Check(t.Context(), Call{Method: "GET", Path: "/cms/v2/posts?search=%ff"}); err == nil || err.Code != "rest_invalid_param" {
		t.Fatalf("Check: %v", err)
	}
	if err := s.Check(t.Context(), Call{Method: "GET", Path: "/cms/v2/posts?" + strings.Repeat("x=1&", MaxInputVars+1)}); err == nil || err.Code != "rest_too_many_params" {
		t.Fatalf("Check: %v", err)
	}
}

// A _fields of deep dotted paths parses and filters in linear time.
func TestDeepFieldsAreLinear(t *testing.T) {
	s := newTestServer(t)
	deep := strings.Repeat("a.", 50000) + "a"
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU(t)
	r := do(t, s, "GET", "/cms/v2/posts/1?_fields=id,title,"+deep+","+deep[:len(deep)/2], admin, "")
	if cpu := threadCPU(t) - start; cpu > 100*time.Millisecond {
		t.Fatalf("%v of CPU", cpu)
	}
	if r.status != 200 {
		t.Fatalf("%d %.300s", r.status, r.body)
	}
	if got := mustJSON(r.json(t)); !strings.HasPrefix(got, `{"id":1,"title":`) {
		t.Fatalf("got %s", got)
	}
}

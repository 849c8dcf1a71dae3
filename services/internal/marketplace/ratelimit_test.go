package marketplace

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestValidationRateLimit drives the limit through the API: a key gets its
// per-minute allowance whatever the codes' outcome, then 429 with the seed
// message and Retry-After, while other keys and other endpoints are unaffected.
func TestValidationRateLimit(t *testing.T) {
	e := newTestEnv(t, Config{ValidationsPerMinute: 3})
	validate := func(key, code string) resp {
		return e.do(req{method: http.MethodPost, path: PathPurchase, placement: "form",
			params: map[string]any{"api_key": key, "purchase_code": code}})
	}
	alice, bob := e.keys["alice"], e.keys["bob"]
	steps := []struct {
		name   string
		key    string
		code   string
		status int
	}{
		{"valid code", alice, "ALICE-SUPPORTED-0001", 200},
		{"guess 1", alice, "GUESS-1", 404},
		{"guess 2", alice, "GUESS-2", 404},
		{"over the limit, guess", alice, "GUESS-3", 429},
		{"over the limit, even a valid code", alice, "ALICE-SUPPORTED-0001", 429},
		{"another key has its own allowance", bob, "BOB-CODE-0003", 200},
	}
	for _, s := range steps {
		r := validate(s.key, s.code)
		if r.status != s.status {
			t.Fatalf("%s: %d, want %d (%s)", s.name, r.status, s.status, r.raw)
		}
		if s.status == 429 {
			if r.body["msg"] != msgPurchase || r.body["status"] != "error" {
				t.Fatalf("%s: body %s", s.name, r.raw)
			}
			secs, err := strconv.Atoi(r.header.Get("Retry-After"))
			if err != nil || secs < 1 || secs > 20 {
				t.Fatalf("%s: Retry-After %q, want 1..20 seconds at 3/min", s.name, r.header.Get("Retry-After"))
			}
		}
	}
	// A missing or unknown key is refused before it can spend anything.
	if r := validate("unknown", "GUESS"); r.status != 401 {
		t.Fatalf("unknown key: %d", r.status)
	}
	// Reading items is not limited.
	if r := e.do(req{path: PathItems, params: map[string]any{"api_key": alice}}); r.status != 200 {
		t.Fatalf("items while limited: %d", r.status)
	}
	// A second key of the same account has its own bucket.
	if r := validate(e.createKey("alice"), "ALICE-SUPPORTED-0001"); r.status != 200 {
		t.Fatalf("second key of alice: %d", r.status)
	}
}

// TestLimiterRefills checks the bucket arithmetic with a controlled clock.
func TestLimiterRefills(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLimiter(60)
	l.now = func() time.Time { return now }
	k := hashKey("k")
	steps := []struct {
		advance time.Duration
		n       int // requests at this instant
		allowed int
	}{
		{0, 60, 60}, // a full minute's allowance at once
		{0, 1, 0},   // then nothing
		{500 * time.Millisecond, 1, 0},
		{500 * time.Millisecond, 2, 1}, // one per second comes back
		{10 * time.Second, 20, 10},
		{time.Hour, 100, 60}, // never more than a minute's worth
	}
	for i, s := range steps {
		now = now.Add(s.advance)
		got := 0
		for range s.n {
			if ok, wait := l.allow(k); ok {
				got++
			} else if wait <= 0 || wait > time.Second {
				t.Fatalf("step %d: wait %v, want (0, 1s] at 60/min", i, wait)
			}
		}
		if got != s.allowed {
			t.Fatalf("step %d: %d allowed, want %d", i, got, s.allowed)
		}
	}
}

func TestLimiterForgetsIdleBuckets(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLimiter(2)
	l.now = func() time.Time { return now }
	for i := range maxBuckets {
		l.allow(hashKey(strconv.Itoa(i)))
	}
	now = now.Add(time.Minute) // every bucket is full again
	l.allow(hashKey("new"))
	if n := len(l.buckets); n != 1 {
		t.Fatalf("%d buckets after the sweep, want 1", n)
	}
}

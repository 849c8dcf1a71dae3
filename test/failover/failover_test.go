package failover

import (
	"testing"
	"time"
)

// TestSummarise: the rules an attempt breaks (a 500, a 503 without
// Retry-After, a 404, no answer; not a 503 with it, and a request the
// client gave up at its own deadline is counted apart) and the times: the
// first failed write after the primary went, the first acknowledged write
// after the last failed one.
func TestSummarise(t *testing.T) {
	went := time.Date(2026, 11, 28, 23, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return went.Add(time.Duration(ms) * time.Millisecond) }
	w := func(start, end, status int, retryAfter bool) Attempt {
		return Attempt{Write: true, Method: "POST", Path: "/p", Start: at(start), End: at(end), Status: status, RetryAfter: retryAfter}
	}
	noAnswer := func(start, end int, write, gaveUp bool) Attempt {
		return Attempt{Write: write, Method: "GET", Path: "/p", Start: at(start), End: at(end), Err: "EOF", GaveUp: gaveUp}
	}
	for _, tc := range []struct {
		name                 string
		attempts             []Attempt
		bad, gaveUp          int
		classes              []string
		firstFail, recovered time.Duration
	}{
		{"no failure", []Attempt{w(-100, -50, 201, false), w(10, 20, 201, false)}, 0, 0, nil, -1, 20 * time.Millisecond},
		{"503s then success", []Attempt{w(-100, -50, 201, false), w(0, 300, 503, true), w(500, 900, 503, true), w(1100, 1200, 201, false)},
			0, 0, []string{"writes answered 503 with Retry-After"}, 300 * time.Millisecond, 1200 * time.Millisecond},
		{"a success between failures does not end the outage",
			[]Attempt{w(0, 100, 503, true), w(150, 200, 201, false), w(300, 400, 503, true), w(450, 600, 200, false)},
			0, 0, []string{"writes answered 503 with Retry-After"}, 100 * time.Millisecond, 600 * time.Millisecond},
		{"500 and 503 without Retry-After are bad", []Attempt{w(0, 10, 500, false), w(20, 30, 503, false), w(40, 50, 201, false)},
			2, 0, []string{"writes answered 500", "writes answered 503 without Retry-After"}, 10 * time.Millisecond, 50 * time.Millisecond},
		{"a 404 is bad", []Attempt{w(0, 10, 404, false), w(20, 30, 404, false), w(40, 50, 201, false)},
			2, 0, []string{"writes answered 404"}, 10 * time.Millisecond, 50 * time.Millisecond},
		{"no answer is bad", []Attempt{noAnswer(0, 10, true, false), noAnswer(5, 15, false, false), w(40, 50, 201, false)},
			2, 0, []string{"writes with no answer", "reads with no answer"}, 10 * time.Millisecond, 50 * time.Millisecond},
		{"given up by the client: apart, not bad", []Attempt{noAnswer(0, 15000, true, true), w(15100, 15200, 201, false)},
			0, 1, []string{"writes given up by the client at its deadline of 15s"}, 15 * time.Second, 15200 * time.Millisecond},
		{"failures before the primary went are not the outage", []Attempt{w(-300, -200, 503, true), w(10, 20, 201, false)},
			0, 0, []string{"writes answered 503 with Retry-After"}, -1, 20 * time.Millisecond},
		{"no write since", []Attempt{w(0, 100, 503, true)}, 0, 0, []string{"writes answered 503 with Retry-After"}, 100 * time.Millisecond, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := summarise(tc.attempts, went)
			var names []string
			for _, cl := range c.Classes {
				names = append(names, cl.Name)
			}
			if c.Bad != tc.bad || c.GaveUp != tc.gaveUp || c.FirstFail != tc.firstFail || c.Recovered != tc.recovered ||
				len(names) != len(tc.classes) {
				t.Fatalf("bad %d, gave up %d, classes %v, first fail %v, recovered %v; want %d, %d, %v, %v, %v",
					c.Bad, c.GaveUp, c.Classes, c.FirstFail, c.Recovered, tc.bad, tc.gaveUp, tc.classes, tc.firstFail, tc.recovered)
			}
			for i := range names {
				if names[i] != tc.classes[i] {
					t.Errorf("classes %v, want %v", names, tc.classes)
				}
			}
		})
	}
}

package failover

import (
	"testing"
	"time"
)

// TestSummarise: the rules an answer breaks (a 500, a 503 without
// Retry-After; a 503 with it, a 0 and a 4xx are retried, not counted as
// bad) and the times: the first failed write after the primary went, the
// first acknowledged write after the last failed one.
func TestSummarise(t *testing.T) {
	went := time.Date(2026, 11, 28, 23, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return went.Add(time.Duration(ms) * time.Millisecond) }
	w := func(start, end, status int, retryAfter bool) Attempt {
		return Attempt{Write: true, Start: at(start), End: at(end), Status: status, RetryAfter: retryAfter}
	}
	for _, tc := range []struct {
		name                 string
		attempts             []Attempt
		bad                  int
		firstFail, recovered time.Duration
	}{
		{"no failure", []Attempt{w(-100, -50, 201, false), w(10, 20, 201, false)}, 0, -1, 20 * time.Millisecond},
		{"503s then success", []Attempt{w(-100, -50, 201, false), w(0, 300, 503, true), w(500, 900, 503, true), w(1100, 1200, 201, false)},
			0, 300 * time.Millisecond, 1200 * time.Millisecond},
		{"a success between failures does not end the outage",
			[]Attempt{w(0, 100, 0, false), w(150, 200, 201, false), w(300, 400, 503, true), w(450, 600, 200, false)},
			0, 100 * time.Millisecond, 600 * time.Millisecond},
		{"500 and 503 without Retry-After are bad", []Attempt{w(0, 10, 500, false), w(20, 30, 503, false), w(40, 50, 201, false)},
			2, 10 * time.Millisecond, 50 * time.Millisecond},
		{"failures before the primary went are not the outage", []Attempt{w(-300, -200, 503, true), w(10, 20, 201, false)},
			0, -1, 20 * time.Millisecond},
		{"no write since", []Attempt{w(0, 100, 503, true)}, 0, 100 * time.Millisecond, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := summarise(tc.attempts, went)
			if len(c.Bad) != tc.bad || c.FirstFail != tc.firstFail || c.Recovered != tc.recovered {
				t.Errorf("bad %v, first fail %v, recovered %v; want %d bad, %v, %v", c.Bad, c.FirstFail, c.Recovered, tc.bad, tc.firstFail, tc.recovered)
			}
		})
	}
}

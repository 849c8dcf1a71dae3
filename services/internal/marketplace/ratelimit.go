package marketplace

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter allows each key perMinute purchase validations a minute, as a
// token bucket holding a minute's worth: a key can burst its whole minute at
// once and then gets one more every 60s/perMinute. Buckets live in this
// process's memory, so with several replicas a key's effective limit is
// perMinute times the replica count; that keeps guessing codes slow without
// a shared store on the request path.
type limiter struct {
	perMinute int
	now       func() time.Time

	mu      sync.Mutex
	buckets map[keyHash]*rate.Limiter
}

// maxBuckets bounds memory: only authenticated keys get a bucket, so this is
// reached only with very many keys, and then full (idle) buckets are dropped.
const maxBuckets = 10000

func newLimiter(perMinute int) *limiter {
	return &limiter{perMinute: perMinute, now: time.Now, buckets: map[keyHash]*rate.Limiter{}}
}

// allow takes one token from the key's bucket. When it is empty it reports
// how long until the next token.
func (l *limiter) allow(h keyHash) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	b, ok := l.buckets[h]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			l.sweep(now)
		}
		b = rate.NewLimiter(rate.Limit(float64(l.perMinute)/60), l.perMinute)
		l.buckets[h] = b
	}
	l.mu.Unlock()
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// sweep drops buckets that have refilled completely: forgetting them changes
// nothing for their keys. Called with mu held.
func (l *limiter) sweep(now time.Time) {
	for h, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.perMinute) {
			delete(l.buckets, h)
		}
	}
}

//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// loadResult counts what a load run sent and which answers failed: anything
// but a 200 (a transport error, a 5xx, a 401 from a refused identity),
// taken as is (no retry, unlike request).
type loadResult struct {
	sent, failed int
	failures     []string // the first few, for the log
}

// startLoad sends GET url with header from workers goroutines, back to back,
// until the returned stop is called; stop waits for them and returns the
// counts (a second call returns them again).
func startLoad(url string, header http.Header, workers int) (stop func() loadResult) {
	return startLoadPaced(func(int) string { return url }, header, workers, 0)
}

// startLoadPaced is startLoad with the URL of the n-th request (n counts
// from 0 over all workers: a distinct URL per request misses every edge
// cache) and a pause after each request of a worker.
func startLoadPaced(url func(n int) string, header http.Header, workers int, pause time.Duration) (stop func() loadResult) {
	done := make(chan struct{})
	var mu sync.Mutex
	var res loadResult
	var wg sync.WaitGroup
	var seq atomic.Int64
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				case <-time.After(pause):
				}
				r := requestOnce("GET", url(int(seq.Add(1)-1)), nil, header)
				mu.Lock()
				res.sent++
				if r.Status != 200 {
					res.failed++
					if len(res.failures) < 5 {
						res.failures = append(res.failures, fmt.Sprintf("%s: %s", time.Now().UTC().Format("15:04:05.000"), r))
					}
				}
				mu.Unlock()
			}
		}()
	}
	var once sync.Once
	return func() loadResult {
		once.Do(func() { close(done); wg.Wait() })
		return res
	}
}

//go:build e2e

package e2e

import (
	"fmt"
	"sync"
	"time"
)

// loadResult counts what a load run sent and which answers failed: a
// transport error or a 5xx, taken as is (no retry, unlike request).
type loadResult struct {
	sent, failed int
	failures     []string // the first few, for the log
}

// startLoad sends GET url from workers goroutines, back to back, until the
// returned stop is called; stop waits for them and returns the counts.
func startLoad(url string, workers int) (stop func() loadResult) {
	done := make(chan struct{})
	var mu sync.Mutex
	var res loadResult
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				r := requestOnce("GET", url, nil, nil)
				mu.Lock()
				res.sent++
				if r.Status == 0 || r.Status >= 500 {
					res.failed++
					if len(res.failures) < 5 {
						res.failures = append(res.failures, fmt.Sprintf("%s: %s", time.Now().UTC().Format("15:04:05.000"), r))
					}
				}
				mu.Unlock()
			}
		}()
	}
	return func() loadResult {
		close(done)
		wg.Wait()
		return res
	}
}

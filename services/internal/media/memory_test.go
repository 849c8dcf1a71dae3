package media

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
)

// liveHeap is the live heap as the last collection marked it.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// heldDuring runs f while a sampler collects continuously, and returns how
// far the live heap rose above where it was before f (garbage never counts:
// every sample follows a collection). The service under test runs in this
// process, so its requests are what the heap holds.
func heldDuring(t testing.TB, f func()) int64 {
	t.Helper()
	runtime.GC()
	base := liveHeap()
	var peak uint64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
				peak = max(peak, liveHeap())
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return int64(peak) - int64(base)
}

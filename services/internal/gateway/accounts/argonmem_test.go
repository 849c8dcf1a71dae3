package accounts

import (
	"runtime/metrics"
	"sync"
	"testing"
)

// After hashing (and verifying), the heap goal is back near the live heap:
// the 19 MiB argon2 block does not leave the next collection 40 MiB away.
func TestArgonLeavesNoInflatedHeapGoal(t *testing.T) {
	goal := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	var wg sync.WaitGroup
	for range 4 { // more than argonSlots: the queue is exercised too
		wg.Add(1)
		go func() {
			defer wg.Done()
			h, err := HashLoginPassword("correct horse")
			if err != nil || !VerifyLoginPassword(h, "correct horse") || VerifyLoginPassword(h, "wrong") {
				t.Errorf("hash %q, %v", h, err)
			}
		}()
	}
	wg.Wait()
	if g := goal(); g > 16<<20 {
		t.Fatalf("heap goal %d MiB after hashing, want under 16 MiB", g>>20)
	}
}

package service

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"syscall"
	"time"
)

// A service that has gone quiet after a burst of requests keeps, by Go's
// defaults, the memory the burst left: the garbage made since the last
// collection (up to a heap goal set by the burst's live heap, twice it
// under GOGC=100) and the freed pages, which the background scavenger
// returns only slowly (minutes for 10 MiB). Measured with hack/mem-peak.sh:
// while media processes uploads, the gateway, content and the marketplace
// sat idle 12–17, 12 and 7 MiB above their start-up size.
//
// trimIdleHeap samples the allocation rate, the process's CPU time and its
// running goroutines four times a second and, when a quiet tick (little
// allocated, little CPU, no goroutine but its own running) follows a busy
// one, collects and returns the unused heap to the operating system
// (debug.FreeOSMemory) — once per burst: a service under steady load is
// never quiet, and one that is always quiet is never busy, so neither pays
// for collections it would not have made. The CPU and goroutine conditions
// keep a process that computes without allocating (media between the
// allocations of a 12-megapixel decode, even while the machine's other
// processes leave it no CPU for a tick) from being taken for an idle one: a
// trim in the middle of media's uploads was measured to raise its peak from
// 61 to 70 MiB. A trim of these heaps costs a collection of a few MiB of
// live objects and the page faults that bring the returned pages back
// under the next burst: about a millisecond, once per burst.

// Rates of the heap trimmer (per second; each tick is compared with the
// time it really covered).
const (
	trimTick = 250 * time.Millisecond
	// allocating at least trimBusy a second is load (the read scenarios of
	// the bench allocate 20–100 MiB a second in each service)
	trimBusy = 4 << 20
	// allocating less than trimQuiet a second is quiet: at that rate the
	// heap takes many seconds to reach its goal (the gateway proxying eight
	// 12-megapixel uploads allocates about 50 KiB a second)
	trimQuiet = 1 << 20
	// ... and using less than trimQuietCPU of a core (that gateway: 0.5 %;
	// media decoding: most of a core)
	trimQuietCPU = 0.05
)

// heapSample is what the trimmer reads from runtime/metrics and the
// kernel.
type heapSample struct {
	at     time.Duration // monotonic time of the sample
	allocs uint64        // cumulative bytes allocated
	cpu    time.Duration // cumulative CPU time of the process (user and system)
	active uint64        // goroutines running or runnable when sampled (the trimmer's own included)
}

// trimMetrics are the runtime metrics readHeap reads, in its order.
var trimMetrics = []string{"/gc/heap/allocs:bytes", "/sched/goroutines/running:goroutines", "/sched/goroutines/runnable:goroutines"}

func readHeap(s []metrics.Sample, start time.Time) heapSample {
	metrics.Read(s)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru) // cannot fail for RUSAGE_SELF
	return heapSample{at: time.Since(start), allocs: s[0].Value.Uint64(), cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		active: s[1].Value.Uint64() + s[2].Value.Uint64()}
}

// trimState is the trimmer's memory between ticks.
type trimState struct {
	last heapSample // the previous tick's sample
	busy bool       // a busy tick came since the last trim
}

// next decides, from the state and this tick's sample, whether to trim
// now, and returns the state for the next tick. Pure: trimIdleHeap does
// the reading and the collecting.
func (st trimState) next(s heapSample) (trimState, bool) {
	elapsed := s.at - st.last.at
	allocated, cpu := s.allocs-st.last.allocs, s.cpu-st.last.cpu
	st.last = s
	if elapsed <= 0 {
		return st, false
	}
	perSecond := float64(allocated) / elapsed.Seconds()
	if perSecond >= trimBusy {
		st.busy = true
		return st, false
	}
	quiet := perSecond < trimQuiet && float64(cpu) < trimQuietCPU*float64(elapsed) && s.active <= 1
	if !st.busy || !quiet {
		return st, false
	}
	st.busy = false
	return st, true
}

// trimIdleHeap runs the trimmer every tick until ctx ends.
func trimIdleHeap(ctx context.Context, tick time.Duration) {
	samples := make([]metrics.Sample, len(trimMetrics))
	for i, name := range trimMetrics {
		samples[i].Name = name
	}
	start := time.Now()
	st := trimState{last: readHeap(samples, start)}
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var trim bool
		if st, trim = st.next(readHeap(samples, start)); trim {
			debug.FreeOSMemory()
		}
	}
}

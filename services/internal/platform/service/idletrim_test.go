package service

import (
	"context"
	"runtime/metrics"
	"testing"
	"time"
)

func TestTrimStateNext(t *testing.T) {
	const mib = 1 << 20
	sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	// tick is one sample after the previous one: the time it covered, what
	// was allocated and the CPU used in it.
	type tick struct {
		elapsed   time.Duration
		allocated uint64
		cpu       time.Duration
		active    uint64 // goroutines running or runnable at its end
	}
	busy := tick{sec(0.25), 8 * mib, sec(0.2), 3}
	idle := tick{sec(0.25), 10 << 10, sec(0.001), 1}
	tests := []struct {
		name  string
		ticks []tick
		want  []bool // trim after each tick
	}{
		{"steady load never trims", []tick{busy, busy, busy, busy}, []bool{false, false, false, false}},
		{"always idle never trims", []tick{idle, idle, idle}, []bool{false, false, false}},
		{"the first quiet tick after a burst trims, once", []tick{busy, busy, idle, idle, idle}, []bool{false, false, true, false, false}},
		{"every burst trims once", []tick{busy, idle, idle, busy, idle}, []bool{false, true, false, false, true}},
		{"a moderate tick between keeps the burst armed", []tick{busy, {sec(0.25), 512 << 10, sec(0.05), 1}, idle}, []bool{false, false, true}},
		{"busy CPU without allocation is not quiet (a decode)", []tick{busy, {sec(0.25), 10 << 10, sec(0.2), 1}, idle}, []bool{false, false, true}},
		{"a running goroutine is not quiet (a decode the machine left without CPU)", []tick{busy, {sec(0.25), 10 << 10, sec(0.001), 2}, idle}, []bool{false, false, true}},
		{"allocating 1 MiB a second is not quiet", []tick{busy, {sec(0.25), 300 << 10, sec(0.001), 1}}, []bool{false, false}},
		{"rates follow the time a tick covered", []tick{{sec(2), 10 * mib, sec(0.01), 1}, {sec(2), 1536 << 10, sec(0.05), 1}}, []bool{false, true}},
		{"6 MiB in 2 s is no burst", []tick{{sec(2), 6 * mib, sec(0.01), 1}, idle}, []bool{false, false}},
		{"no time passed", []tick{busy, {0, 0, 0, 1}, idle}, []bool{false, false, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := trimState{last: heapSample{at: time.Hour, allocs: 1 << 40, cpu: time.Hour}}
			for i, tk := range tc.ticks {
				s := heapSample{at: st.last.at + tk.elapsed, allocs: st.last.allocs + tk.allocated, cpu: st.last.cpu + tk.cpu, active: tk.active}
				var trim bool
				if st, trim = st.next(s); trim != tc.want[i] {
					t.Fatalf("tick %d: trim %v, want %v", i, trim, tc.want[i])
				}
			}
		})
	}
}

// The memory a burst leaves is returned soon after the burst ends: without
// the trimmer the runtime keeps the burst's last 32 MiB (garbage from the
// moment the burst lets it go) until its next collection, which an idle
// process does not make for two minutes, and freed pages for minutes more.
func TestIdleHeapIsReturnedAfterABurst(t *testing.T) {
	held := func() uint64 { // heap memory not returned: objects, unused slots, free pages
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"},
			{Name: "/memory/classes/heap/free:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64() + s[1].Value.Uint64() + s[2].Value.Uint64()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go trimIdleHeap(ctx, 20*time.Millisecond)

	// a burst: for 300 ms (busy by rate for many ticks), 32 MiB live at a
	// time, the last 32 MiB live to its end
	keep := make([][]byte, 0, 1024)
	for end := time.Now().Add(300 * time.Millisecond); len(keep) < cap(keep) || time.Now().Before(end); {
		if len(keep) == cap(keep) {
			keep = keep[:0]
		}
		keep = append(keep, make([]byte, 32<<10))
	}
	sink = keep
	if h := held(); h < 32<<20 {
		t.Fatalf("the burst's heap is %d MiB, want 32 MiB or more", h>>20)
	}
	sink, keep = nil, nil
	deadline := time.Now().Add(3 * time.Second)
	for held() > 8<<20 {
		if time.Now().After(deadline) {
			t.Fatalf("the heap still holds %d MiB 3 s after the burst, want under 8 MiB", held()>>20)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sink keeps the burst's allocations from being optimised away.
var sink [][]byte

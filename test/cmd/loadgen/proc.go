package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A procSet names the server processes whose CPU time (and memory) a run
// measures, from /proc: LABEL=pid:N (one process), LABEL=tree:N (N and its
// children, e.g. a PostgreSQL postmaster and its backends) or
// LABEL=comm:a|b (every process whose command name is a or b, e.g. the
// php-fpm workers).
type procSet struct {
	label string
	kind  string // pid, tree, comm
	pid   int
	comms []string
}

func parseProcSet(spec string) (procSet, error) {
	label, sel, ok := strings.Cut(spec, "=")
	kind, arg, ok2 := strings.Cut(sel, ":")
	if !ok || !ok2 || label == "" || arg == "" {
		return procSet{}, fmt.Errorf("%q: want LABEL=pid:N, LABEL=tree:N or LABEL=comm:NAME[|NAME]", spec)
	}
	ps := procSet{label: label, kind: kind}
	switch kind {
	case "pid", "tree":
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 {
			return procSet{}, fmt.Errorf("%q: %q is no process id", spec, arg)
		}
		ps.pid = n
	case "comm":
		ps.comms = strings.Split(arg, "|")
	default:
		return procSet{}, fmt.Errorf("%q: unknown selector %q (pid, tree, comm)", spec, kind)
	}
	return ps, nil
}

// procStat is what /proc/PID/stat tells about one process.
type procStat struct {
	comm  string
	ppid  int
	ticks int64 // utime + stime, in clock ticks
	rss   int64 // pages
}

// readStat parses /proc/PID/stat; the command name may hold spaces and
// parentheses, so the fields are counted from its last ')'.
func readStat(pid int) (procStat, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(string(data))
}

func parseStat(s string) (procStat, bool) {
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return procStat{}, false
	}
	f := strings.Fields(s[end+1:])
	// f[0] is field 3 (state): ppid is field 4, utime 14, stime 15, rss 24
	if len(f) < 22 {
		return procStat{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	rss, _ := strconv.ParseInt(f[21], 10, 64)
	return procStat{comm: s[open+1 : end], ppid: ppid, ticks: ut + st, rss: rss}, true
}

// allStats reads every process's stat once.
func allStats() map[int]procStat {
	out := map[int]procStat{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok {
			out[pid] = st
		}
	}
	return out
}

// members picks the set's processes out of a snapshot of every process.
func (ps procSet) members(all map[int]procStat) map[int]procStat {
	out := map[int]procStat{}
	for pid, st := range all {
		switch {
		case ps.kind == "pid" && pid == ps.pid,
			ps.kind == "tree" && (pid == ps.pid || st.ppid == ps.pid),
			ps.kind == "comm" && containsString(ps.comms, st.comm):
			out[pid] = st
		}
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// clockTick is the length of one /proc clock tick (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// cpuSnapshot holds each set's processes' CPU ticks at one moment.
type cpuSnapshot []map[int]int64

func takeCPU(sets []procSet) cpuSnapshot {
	if len(sets) == 0 {
		return nil
	}
	all := allStats()
	out := make(cpuSnapshot, len(sets))
	for i, ps := range sets {
		out[i] = map[int]int64{}
		for pid, st := range ps.members(all) {
			out[i][pid] = st.ticks
		}
	}
	return out
}

// cpuSince is the CPU time each set used between two snapshots: a process
// that started in between counts whole, one that ended in between is lost
// (its time cannot be read any more).
func cpuSince(before, after cpuSnapshot) []time.Duration {
	out := make([]time.Duration, len(after))
	for i := range after {
		var ticks int64
		for pid, t := range after[i] {
			ticks += t - before[i][pid]
		}
		out[i] = time.Duration(ticks) * clockTick
	}
	return out
}

// memWatch samples the resident memory of sets every interval until
// stopped, keeping each set's peak and the peak of their sum.
type memWatch struct {
	sets  []procSet
	stop  chan struct{}
	done  sync.WaitGroup
	peaks []int64 // bytes
	total int64
}

func watchMemory(sets []procSet, every time.Duration) *memWatch {
	w := &memWatch{sets: sets, stop: make(chan struct{}), peaks: make([]int64, len(sets))}
	if len(sets) == 0 {
		return w
	}
	page := int64(os.Getpagesize())
	w.done.Add(1)
	go func() {
		defer w.done.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			all := allStats()
			var sum int64
			for i, ps := range w.sets {
				var b int64
				for _, st := range ps.members(all) {
					b += st.rss * page
				}
				w.peaks[i] = max(w.peaks[i], b)
				sum += b
			}
			w.total = max(w.total, sum)
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// Stop ends the sampling and returns the peaks (bytes).
func (w *memWatch) Stop() ([]int64, int64) {
	if len(w.sets) > 0 {
		close(w.stop)
		w.done.Wait()
	}
	return w.peaks, w.total
}

// samplePeakRSS reads VmRSS of pid every 20ms until done and returns the
// highest value seen, in bytes.
func samplePeakRSS(pid int, done <-chan struct{}) int64 {
	var peak int64
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if v := readRSS(pid); v > peak {
			peak = v
		}
		select {
		case <-done:
			if v := readRSS(pid); v > peak {
				peak = v
			}
			return peak
		case <-tick.C:
		}
	}
}

func readRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

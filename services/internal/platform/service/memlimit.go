package service

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"siteplane.dev/services/pkg/contract"
)

// The Go runtime's soft memory limit (runtime/debug.SetMemoryLimit) is set
// by every service at start, in this order:
//
//  1. GOMEMLIMIT in the environment: the runtime has read it; nothing
//     changes.
//  2. SITEPLANE_MEMORY_LIMIT (contract.EnvMemoryLimit), the container's
//     limit in bytes as the operator passes it through the downward API:
//     containerShare of it. The service's own default does not lower it:
//     whoever sized the container also sized the work (the operator gives
//     media a decode budget from the same limit), and a default meant for
//     an unsized process would only make the collector run hot.
//  3. Otherwise the lower of the service's own default (Options.MemoryLimit:
//     the media service keeps its heap near its decode budget) and
//     containerShare of the container's memory limit, read from the cgroup
//     (v2 memory.max, v1 memory.limit_in_bytes). The limit is read by the
//     process rather than set by the operator, so it holds however the
//     service is run (operator, Helm chart, docker --memory) and follows
//     the limit actually in force.
//  4. None of these: no limit (the runtime's default).
//
// Near the limit the collector works harder instead of letting the heap
// double; the share leaves room for what the limit does not cover (the
// program's text, thread stacks outside the heap, page cache charged to
// the container) so a burst is slowed down rather than OOM-killed.
const containerShare = 0.85

// cgroupFiles are the memory-limit files of cgroup v2 and v1, relative to
// the cgroup mount.
var cgroupFiles = []string{"memory.max", "memory/memory.limit_in_bytes"}

// memoryLimit decides the soft limit (0: none) and says where it came from.
// own is the service's default (0: none); cgroupRoot is the cgroup mount
// (/sys/fs/cgroup).
func memoryLimit(lookup func(string) (string, bool), own int64, cgroupRoot string) (limit int64, source string, err error) {
	if v, ok := lookup("GOMEMLIMIT"); ok && v != "" {
		return 0, "GOMEMLIMIT", nil
	}
	if v, ok := lookup(contract.EnvMemoryLimit); ok && v != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			return 0, "", fmt.Errorf("%s=%q: want the container's memory limit in bytes", contract.EnvMemoryLimit, v)
		}
		return int64(float64(n) * containerShare), fmt.Sprintf("%.0f%% of the container's %d MiB (%s)", containerShare*100, n>>20, contract.EnvMemoryLimit), nil
	}
	container, err := containerMemory(cgroupRoot)
	if err != nil {
		return 0, "", err
	}
	share := int64(float64(container) * containerShare)
	switch {
	case container > 0 && (own == 0 || share < own):
		return share, fmt.Sprintf("%.0f%% of the container's %d MiB", containerShare*100, container>>20), nil
	case own > 0:
		return own, "the service's default", nil
	}
	return 0, "", nil
}

// containerMemory reads the cgroup memory limit: 0 when there is none
// ("max", v1's near-2^63 "unlimited", or no cgroup file).
func containerMemory(root string) (int64, error) {
	for _, f := range cgroupFiles {
		b, err := os.ReadFile(filepath.Join(root, f))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("read the container's memory limit: %w", err)
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return 0, nil
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("read the container's memory limit: %s holds %q", f, s)
		}
		if n >= math.MaxInt64/2 { // cgroup v1 writes "unlimited" as a page-rounded 2^63-1
			return 0, nil
		}
		return n, nil
	}
	return 0, nil
}

// applyMemoryLimit sets the soft memory limit memoryLimit decides and
// returns it and its source for the start-up log ("" when none is set).
func applyMemoryLimit(lookup func(string) (string, bool), own int64) (int64, string, error) {
	limit, source, err := memoryLimit(lookup, own, "/sys/fs/cgroup")
	if err != nil || limit == 0 {
		return 0, source, err
	}
	debug.SetMemoryLimit(limit)
	return limit, source, nil
}

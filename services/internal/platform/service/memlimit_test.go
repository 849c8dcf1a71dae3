package service

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMemoryLimit(t *testing.T) {
	const mib = 1 << 20
	cgroup := func(t *testing.T, file, content string) string {
		root := t.TempDir()
		if file != "" {
			p := filepath.Join(root, file)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return root
	}
	env := func(kv ...string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1], true
				}
			}
			return "", false
		}
	}
	tests := []struct {
		name       string
		env        []string
		own        int64
		file, data string
		want       int64
		wantErr    bool
	}{
		{"GOMEMLIMIT wins", []string{"GOMEMLIMIT", "1GiB"}, 56 * mib, "memory.max", "268435456\n", 0, false},
		{"v2 limit, no own default", nil, 0, "memory.max", "268435456\n", 256 * mib * 85 / 100, false},
		{"v2 limit above the own default", nil, 56 * mib, "memory.max", "536870912\n", 56 * mib, false},
		{"v2 limit below the own default", nil, 56 * mib, "memory.max", "52428800\n", 50 * mib * 85 / 100, false},
		{"v2 unlimited", nil, 0, "memory.max", "max\n", 0, false},
		{"v2 unlimited, own default", nil, 56 * mib, "memory.max", "max\n", 56 * mib, false},
		{"v1 limit", nil, 0, "memory/memory.limit_in_bytes", "134217728\n", 128 * mib * 85 / 100, false},
		{"v1 unlimited", nil, 0, "memory/memory.limit_in_bytes", "9223372036854771712\n", 0, false},
		{"no cgroup", nil, 0, "", "", 0, false},
		{"no cgroup, own default", nil, 56 * mib, "", "", 56 * mib, false},
		{"garbage", nil, 0, "memory.max", "lots\n", 0, true},
		// The downward API's limit (the operator's pods): a share of it, above
		// the own default, and ahead of the cgroup file.
		{"downward API limit", []string{"SITEPLANE_MEMORY_LIMIT", "536870912"}, 48 * mib, "memory.max", "268435456\n", 512 * mib * 85 / 100, false},
		{"downward API limit, no cgroup", []string{"SITEPLANE_MEMORY_LIMIT", "268435456"}, 0, "", "", 256 * mib * 85 / 100, false},
		{"GOMEMLIMIT beats the downward API", []string{"GOMEMLIMIT", "1GiB", "SITEPLANE_MEMORY_LIMIT", "268435456"}, 0, "", "", 0, false},
		{"downward API garbage", []string{"SITEPLANE_MEMORY_LIMIT", "512Mi"}, 0, "", "", 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, source, err := memoryLimit(env(tc.env...), tc.own, cgroup(t, tc.file, tc.data))
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("limit %d (%s), err %v; want %d, error %v", got, source, err, tc.want, tc.wantErr)
			}
			if got > 0 && source == "" {
				t.Fatal("a limit without its source")
			}
		})
	}
}

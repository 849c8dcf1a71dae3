//go:build e2e

package e2e

import (
	"regexp"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"siteplane.dev/services/pkg/contract"
)

var gomemlimit = regexp.MustCompile(`(?m)^go_gc_gomemlimit_bytes ([0-9.e+]+)$`)

// memoryLimits: every service's soft memory limit (the Go runtime's
// GOMEMLIMIT, as its metrics report it) is 85% of its container's memory
// limit, which the operator passes through the downward API; media's
// decode budget is half its limit.
func memoryLimits(t *testing.T, ns, name string) {
	for _, c := range components {
		d := deployment(t, ns, componentName(name, c))
		ctr := d.Spec.Template.Spec.Containers[0]
		limit := ctr.Resources.Limits[corev1.ResourceMemory]
		if limit.IsZero() {
			t.Errorf("%s: no memory limit", d.Name)
			continue
		}
		u := serviceURL(t, ns, componentName(name, c), contract.DefaultMetricsPort) + contract.MetricsPath
		r := request("GET", u, nil, nil)
		m := gomemlimit.FindStringSubmatch(string(r.Body))
		if r.Status != 200 || m == nil {
			t.Errorf("%s: %.200s; want go_gc_gomemlimit_bytes", u, r.String())
			continue
		}
		got, _ := strconv.ParseFloat(m[1], 64)
		if want := float64(int64(float64(limit.Value()) * 0.85)); got != want {
			t.Errorf("%s: GOMEMLIMIT %.0f bytes, want 85%% of the %s limit (%.0f)", c, got, limit.String(), want)
		}
		if c == contract.ServiceMedia {
			budget := ""
			for _, e := range ctr.Env {
				if e.Name == contract.EnvMediaDecodeBytes {
					budget = e.Value
				}
			}
			if want := strconv.FormatInt(limit.Value()/2, 10); budget != want {
				t.Errorf("media decode budget %q, want half the %s limit (%s)", budget, limit.String(), want)
			}
		}
		t.Logf("%s: limit %s, GOMEMLIMIT %.0f MiB", c, limit.String(), got/(1<<20))
	}
}

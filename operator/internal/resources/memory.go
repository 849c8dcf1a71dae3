package resources

import (
	"fmt"
	"net/netip"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// TrustedProxies are the gateway's trusted proxy ranges: the Site's, or
// the operator's default.
func TrustedProxies(site *sitev1.Site, d PodDefaults) []string {
	if len(site.Spec.Exposure.TrustedProxies) > 0 {
		return site.Spec.Exposure.TrustedProxies
	}
	return d.TrustedProxies
}

// ValidTrustedProxies checks spec.exposure.trustedProxies as the gateway
// will parse it: each entry a CIDR or an address.
func ValidTrustedProxies(list []string) error {
	for _, p := range list {
		if _, err := netip.ParsePrefix(p); err == nil {
			continue
		}
		if _, err := netip.ParseAddr(p); err != nil {
			return fmt.Errorf("exposure.trustedProxies: %q is neither a CIDR nor an IP address", p)
		}
	}
	return nil
}

// DecodeShare is the part of the media container's memory limit given to
// decoded pixels (SITEPLANE_MEDIA_DECODE_BYTES). The service's soft limit
// is 85% of the container's (services/internal/platform/service); the
// budget is what uploads hold at once, and the other half covers the
// rest of the heap, the binary and the page cache charged to the pod. At
// the service's own defaults (40 MiB budget under a 48 MiB soft limit)
// eight concurrent 12 MP uploads measured 61 MiB RSS (docs/performance.md),
// so half the limit leaves room with margin.
const DecodeShare = 0.5

// memoryEnv passes the container's memory limit to the service through the
// downward API (the service sets its soft limit to a share of it), and
// sizes media's decode budget from the same limit. Nothing without a
// limit: the downward API would then report the node's allocatable memory.
func memoryEnv(site *sitev1.Site, component string) []corev1.EnvVar {
	res := DefaultResources(component)
	if r := site.Component(component).Resources; r != nil {
		res = *r
	}
	limit, ok := res.Limits[corev1.ResourceMemory]
	if !ok || limit.IsZero() {
		return nil
	}
	env := []corev1.EnvVar{{Name: contract.EnvMemoryLimit, ValueFrom: &corev1.EnvVarSource{
		ResourceFieldRef: &corev1.ResourceFieldSelector{ContainerName: component, Resource: "limits.memory"}}}}
	if component == contract.ServiceMedia {
		budget := max(int64(float64(limit.Value())*DecodeShare), 1<<20)
		env = append(env, corev1.EnvVar{Name: contract.EnvMediaDecodeBytes, Value: strconv.FormatInt(budget, 10)})
	}
	return env
}

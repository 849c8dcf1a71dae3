package controller

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The gateway believes X-Forwarded-For only from trusted proxies. In a
// cluster the proxy in front of it (the ingress controller, a Gateway's
// data plane) runs in pods, so the cluster's pod network is the natural
// default: the nodes' spec.podCIDRs, when the node IPAM sets them (kubeadm,
// kind, the local cluster, most managed clusters with a routed pod range).
// Clusters whose CNI assigns addresses itself leave them empty; there the
// ranges must be given (--trusted-proxies, spec.exposure.trustedProxies).
// +kubebuilder:rbac:groups="",resources=nodes,verbs=list

// PodNetwork lists the nodes' pod CIDRs, deduplicated and sorted; empty
// when the nodes report none.
func PodNetwork(ctx context.Context, c client.Reader) ([]string, error) {
	var nodes corev1.NodeList
	if err := c.List(ctx, &nodes); err != nil {
		return nil, fmt.Errorf("list nodes for their pod CIDRs: %w", err)
	}
	var out []string
	for _, n := range nodes.Items {
		cidrs := n.Spec.PodCIDRs
		if len(cidrs) == 0 && n.Spec.PodCIDR != "" {
			cidrs = []string{n.Spec.PodCIDR}
		}
		for _, cidr := range cidrs {
			if p, err := netip.ParsePrefix(cidr); err == nil && !slices.Contains(out, p.Masked().String()) {
				out = append(out, p.Masked().String())
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// ParseTrustedProxies checks a comma-separated list of CIDRs or addresses
// (the --trusted-proxies flag) and returns its entries.
func ParseTrustedProxies(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if _, err := netip.ParsePrefix(f); err != nil {
			if _, aerr := netip.ParseAddr(f); aerr != nil {
				return nil, fmt.Errorf("trusted proxy %q is neither a CIDR nor an address", f)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

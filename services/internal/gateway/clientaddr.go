package gateway

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// The client's address, for login throttling, sessions, application
// password bookkeeping and cache-plugin/v1/tool/check_ip. Without trusted
// proxies it is the TCP peer. Behind an ingress or load balancer the peer
// is the proxy, and every client would share one address (one client's
// failed logins would lock everybody out): list the proxies' ranges in
// SITEPLANE_GATEWAY_TRUSTED_PROXIES, and the address becomes the right-most
// X-Forwarded-For entry that is not itself a trusted proxy. Entries left of
// it are ignored: anyone can write them.

// ParseTrustedProxies reads a comma-separated list of CIDRs or addresses.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: %w", f, err)
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %w", f, err)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

func trusted(list []netip.Prefix, a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range list {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddress is the request's client address (see above).
func (g *Gateway) clientAddress(r *http.Request) string {
	peer := remoteIP(r)
	if len(g.cfg.TrustedProxies) == 0 {
		return peer
	}
	addr, err := netip.ParseAddr(peer)
	if err != nil || !trusted(g.cfg.TrustedProxies, addr) {
		return peer
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			// A malformed entry: what lies left of it cannot be trusted.
			return addr.Unmap().String()
		}
		if !trusted(g.cfg.TrustedProxies, a) {
			return a.Unmap().String()
		}
		addr = a
	}
	return addr.Unmap().String()
}

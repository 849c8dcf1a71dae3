package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// Outbound fetches of the oEmbed proxy, safe against server-side request
// forgery: the proxy fetches URLs that callers choose, from inside the
// cluster, so it must never reach the site's own services, the node, the
// cloud metadata endpoint or anything else that is not the public Internet.
//
//   - only http and https, on ports 80, 443 and 8080 (WordPress's
//     wp_http_validate_url allows the same three);
//   - the host is resolved once and EVERY address is checked (one bad
//     address refuses the URL); the connection then goes to a checked
//     address, not to the name, so a second DNS answer cannot swap in an
//     internal address (rebinding); the dialer's Control hook checks the
//     socket's address again;
//   - no proxy from the environment (it would dial for us, unchecked);
//   - at most 3 redirects, each target checked the same way;
//   - the whole exchange is bounded in time and the body in size.
//
// AllowLoopbackForTests additionally permits loopback addresses on any port
// (tests run their providers on 127.0.0.1); nothing else changes.

var errBlockedAddress = errors.New("address not allowed")

// blockedPrefixes are the special-purpose ranges refused besides what
// netip classifies (loopback, private, link-local, multicast, unspecified).
var blockedPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // "this network"
		"100.64.0.0/10",   // carrier-grade NAT (shared address space)
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // TEST-NET-1
		"192.88.99.0/24",  // 6to4 relay anycast
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // TEST-NET-2
		"203.0.113.0/24",  // TEST-NET-3
		"240.0.0.0/4",     // reserved, and 255.255.255.255 broadcast
		"64:ff9b::/96",    // NAT64 (checked again on the embedded IPv4)
		"64:ff9b:1::/48",  // local-use NAT64
		"100::/64",        // discard-only
		"2001::/32",       // Teredo
		"2001:db8::/32",   // documentation
		"2002::/16",       // 6to4 (checked again on the embedded IPv4)
		"fc00::/7",        // unique local (incl. fd00:ec2::254, AWS metadata)
		"fec0::/10",       // deprecated site-local
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// addressAllowed reports whether the proxy may connect to ip.
func addressAllowed(ip netip.Addr, allowLoopback bool) bool {
	ip = ip.Unmap() // ::ffff:10.0.0.1 is 10.0.0.1
	if allowLoopback && ip.IsLoopback() {
		return true
	}
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range blockedPrefixes {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// portAllowed: WordPress's three (any port on loopback in test mode).
func portAllowed(port string, ip netip.Addr, allowLoopback bool) bool {
	switch port {
	case "80", "443", "8080":
		return true
	}
	return allowLoopback && ip.Unmap().IsLoopback()
}

// safeFetcher fetches public http(s) URLs only.
type safeFetcher struct {
	allowLoopback bool
	lookup        func(ctx context.Context, host string) ([]netip.Addr, error)
	client        *http.Client
	maxBytes      int64
	userAgent     string // "" : the oEmbed proxy's
}

func newSafeFetcher(allowLoopback bool, timeout time.Duration, maxBytes int64) *safeFetcher {
	f := &safeFetcher{allowLoopback: allowLoopback, maxBytes: maxBytes,
		lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}}
	dialer := &net.Dialer{Timeout: 5 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !addressAllowed(ap.Addr(), f.allowLoopback) {
			return errBlockedAddress
		}
		return nil
	}}
	transport := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			ips, err := f.resolve(ctx, host)
			if err != nil {
				return nil, err
			}
			for _, ip := range ips {
				if !portAllowed(port, ip, f.allowLoopback) {
					return nil, fmt.Errorf("port %s: %w", port, errBlockedAddress)
				}
			}
			var lastErr error
			for _, ip := range ips {
				c, err := dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
				if err == nil {
					return c, nil
				}
				lastErr = err
			}
			return nil, lastErr
		},
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: timeout,
		MaxIdleConns:          16,
		IdleConnTimeout:       30 * time.Second,
		DisableCompression:    false,
	}
	f.client = &http.Client{Transport: transport, Timeout: timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > 3 {
				return errors.New("too many redirects")
			}
			return checkFetchURL(req.URL)
		}}
	return f
}

// resolve returns the host's addresses when all of them are allowed.
func (f *safeFetcher) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else {
		if ips, err = f.lookup(ctx, host); err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("resolve %s: no address", host)
	}
	for _, ip := range ips {
		if !addressAllowed(ip, f.allowLoopback) {
			return nil, fmt.Errorf("%s resolves to %s: %w", host, ip, errBlockedAddress)
		}
	}
	return ips, nil
}

// checkFetchURL refuses what no fetch may start with: another scheme,
// credentials in the URL, or no host.
func checkFetchURL(u *url.URL) error {
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return fmt.Errorf("%s: %w", u.Redacted(), errBlockedAddress)
	}
	if p := u.Port(); p != "" {
		if _, err := strconv.Atoi(p); err != nil {
			return fmt.Errorf("port %q: %w", p, errBlockedAddress)
		}
	}
	return nil
}

// get fetches raw and returns the body and the final URL after redirects.
// A body longer than maxBytes is an error, or, with truncate, cut there
// (discovery only needs the page's head).
func (f *safeFetcher) get(ctx context.Context, raw, accept string, truncate bool) ([]byte, *url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, nil, err
	}
	if err := checkFetchURL(u); err != nil {
		return nil, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", accept)
	ua := f.userAgent
	if ua == "" {
		ua = "Siteplane oEmbed proxy"
	}
	req.Header.Set("User-Agent", ua)
	res, err := f.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("GET %s: status %d", u.Redacted(), res.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, f.maxBytes+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(body)) > f.maxBytes {
		if truncate {
			return body[:f.maxBytes], res.Request.URL, nil
		}
		return nil, nil, fmt.Errorf("GET %s: body larger than %d bytes", u.Redacted(), f.maxBytes)
	}
	return body, res.Request.URL, nil
}

//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"siteplane.dev/services/pkg/contract"
)

var csrfField = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// signIn posts the sign-in form of gw's /cms-login.php as a browser would
// (a GET for the form's token and pre-login cookie, then the POST), with
// X-Forwarded-For set to client, and returns the POST's status and whether
// a session cookie came back.
func signIn(t *testing.T, gw, client, login, password string) (int, bool) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Timeout: httpClient.Timeout, Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(req *http.Request) (int, string) {
		req.Header.Set("X-Forwarded-For", client)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		return res.StatusCode, string(b)
	}
	req, _ := http.NewRequest("GET", gw+"/cms-login.php", nil)
	status, form := do(req)
	m := csrfField.FindStringSubmatch(form)
	if status != 200 || m == nil {
		t.Fatalf("GET /cms-login.php: %d, no form token", status)
	}
	v := url.Values{"log": {login}, "pwd": {password}, "_csrf": {m[1]}}
	req, _ = http.NewRequest("POST", gw+"/cms-login.php", strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, _ = do(req)
	u, _ := url.Parse(gw)
	for _, ck := range jar.Cookies(u) {
		if strings.HasSuffix(ck.Name, "siteplane_session") && ck.Value != "" {
			return status, true
		}
	}
	return status, false
}

// signInBehindProxy: the administrator signs in with the operator's
// generated sign-in password, and failed sign-ins are throttled per client
// address as X-Forwarded-For names it, because the gateway trusts the pod
// network the requests come from (the operator's default: the nodes' pod
// CIDRs). Without trusted proxies every client would share the proxy's
// address, and the second client below would be locked out with the first.
func signInBehindProxy(t *testing.T, ns, name, gw string) {
	ctx := context.Background()
	d, err := env.kube.AppsV1().Deployments(ns).Get(ctx, componentName(name, contract.ServiceGateway), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	proxies := ""
	for _, e := range d.Spec.Template.Spec.Containers[0].Env {
		if e.Name == contract.EnvGatewayTrustedProxies {
			proxies = e.Value
		}
	}
	nodes, err := env.kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes.Items {
		for _, cidr := range n.Spec.PodCIDRs {
			if !strings.Contains(proxies, cidr) {
				t.Errorf("gateway trusts %q, not the node's pod CIDR %s", proxies, cidr)
			}
		}
	}
	if env.provider != "local" {
		// Elsewhere the test reaches the gateway through a port-forward,
		// whose connections come from the pod's loopback, not a proxy.
		t.Skip("throttling behind a proxy needs the Service reached from the pod network (the local provider)")
	}

	login := secretValue(t, ns, name+"-admin", contract.AdminLoginPasswordKey)
	if status, session := signIn(t, gw, "198.51.100.1", "admin", login); status != http.StatusFound && status != http.StatusSeeOther || !session {
		t.Fatalf("admin sign-in with the generated password: %d, session cookie %t; want a redirect with a session", status, session)
	}
	// 20 failures per address in 15 minutes lock that address out
	// (accounts.DefaultThrottle); each uses another login so no account
	// reaches its own limit of 5.
	const perAddress = 20
	for i := range perAddress {
		if status, _ := signIn(t, gw, "203.0.113.1", fmt.Sprintf("nobody%d", i), "wrong"); status != http.StatusUnauthorized {
			t.Fatalf("failed sign-in %d from 203.0.113.1: %d, want 401", i+1, status)
		}
	}
	if status, _ := signIn(t, gw, "203.0.113.1", "nobody-more", "wrong"); status != http.StatusTooManyRequests {
		t.Fatalf("sign-in %d from 203.0.113.1: %d, want 429 (throttled)", perAddress+1, status)
	}
	if status, _ := signIn(t, gw, "203.0.113.2", "nobody-else", "wrong"); status != http.StatusUnauthorized {
		t.Fatalf("another client (203.0.113.2) behind the same proxy: %d, want 401 (not throttled with 203.0.113.1)", status)
	}
	if status, session := signIn(t, gw, "203.0.113.2", "admin", login); !session {
		t.Fatalf("admin sign-in from another client: %d without a session", status)
	}
}

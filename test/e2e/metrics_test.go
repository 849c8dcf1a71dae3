//go:build e2e

package e2e

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// scrapeOperator reads the operator's metrics as a Prometheus would: over
// HTTPS with the token of a ServiceAccount bound to the chart's
// <release>-metrics-reader ClusterRole (the endpoint authenticates and
// authorizes every scrape).
func scrapeOperator(t *testing.T, ns string) string {
	t.Helper()
	ctx := context.Background()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "e2e-scraper"}}
	if _, err := env.kube.CoreV1().ServiceAccounts(ns).Create(ctx, sa, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	crb := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-scraper-" + ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: release + "-metrics-reader"},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: sa.Name, Namespace: ns}},
	}
	if _, err := env.kube.RbacV1().ClusterRoleBindings().Create(ctx, crb, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = env.kube.RbacV1().ClusterRoleBindings().Delete(context.Background(), crb.Name, metav1.DeleteOptions{})
	})
	tr, err := env.kube.CoreV1().ServiceAccounts(ns).CreateToken(ctx, sa.Name, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](600)}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	u := "https://" + serviceAddr(t, operatorNamespace, release+"-metrics", 8443) + "/metrics"
	// The operator serves a self-signed certificate unless one is mounted.
	c := &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // self-signed, loopback cluster
	get := func(token string) (int, string) {
		req, _ := http.NewRequest("GET", u, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := c.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, _ := get(""); code != 401 && code != 403 {
		t.Errorf("anonymous scrape of %s: %d; want it refused", u, code)
	}
	var body string
	eventually(t, "operator metrics scraped", 30*time.Second, func() (bool, string) {
		code, b := get(tr.Status.Token)
		body = b
		return code == 200, fmt.Sprintf("%d %.200s", code, b)
	})
	return body
}

func checkOperatorMetrics(t *testing.T, ns, site string) {
	body := scrapeOperator(t, ns)
	for _, want := range []string{
		fmt.Sprintf(`siteplane_site_ready{namespace=%q,site=%q} 1`, ns, site),
		"controller_runtime_reconcile_total",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("operator metrics lack %s", want)
		}
	}
}

package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// TestOperatorBinary runs the operator as main does (one run per process:
// controller names and the metrics registry are global), as the Helm chart
// deploys it with watchNamespace: as a user holding the generated rules in a
// Role of that namespace only (plus the metrics authn/authz role), with
// HTTPS metrics. The operator must start, answer its probes, reconcile Sites
// of its namespace and ignore the others, and serve controller-runtime's
// series and the Site collector's to authorized scrapers only.
func TestOperatorBinary(t *testing.T) {
	env, admin := startEnv(t)
	ctx := context.Background()
	c, err := client.New(admin, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{"watched", "other"} {
		if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			t.Fatal(err)
		}
	}

	// The generated rules, granted per namespace (Roles), never cluster-wide.
	// The other namespace gets them too: then only the operator's own
	// scoping, not a missing permission, keeps it from reconciling there.
	var generated rbacv1.ClusterRole
	readYAML(t, "role.yaml", &generated)
	const user = "siteplane-operator-scoped"
	subject := rbacv1.Subject{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}
	for _, ns := range []string{"watched", "other"} {
		mustCreate(t, c,
			&rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "operator", Namespace: ns}, Rules: generated.Rules},
			&rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "operator", Namespace: ns},
				RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: "operator"}, Subjects: []rbacv1.Subject{subject}})
	}
	var metricsAuth, metricsReader rbacv1.ClusterRole
	readYAML(t, "metrics_auth_role.yaml", &metricsAuth)
	readYAML(t, "metrics_reader_role.yaml", &metricsReader)
	mustCreate(t, c, &metricsAuth, &metricsReader,
		&rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "operator-metrics-auth"},
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: metricsAuth.Name},
			Subjects: []rbacv1.Subject{subject}})
	// Leader election under exactly the shipped leader-election Role: its
	// Lease and the LeaderElection event (core API) in the Lease's namespace.
	var election rbacv1.Role
	readYAML(t, "leader_election_role.yaml", &election)
	election.Namespace = "watched"
	mustCreate(t, c, &election, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "operator-election", Namespace: "watched"},
		RoleRef: rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: election.Name}, Subjects: []rbacv1.Subject{subject}})
	operator, err := env.AddUser(envtest.User{Name: user}, admin)
	if err != nil {
		t.Fatal(err)
	}

	metricsAddr, probeAddr := freeAddr(t), freeAddr(t)
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- run(runCtx, flag.NewFlagSet("test", flag.ContinueOnError), []string{
			"--watch-namespace=watched", "--max-concurrent-reconciles=2", "--leader-elect", "--leader-election-namespace=watched", "--metrics-bind-address=" + metricsAddr, "--metrics-secure=true",
			"--health-probe-bind-address=" + probeAddr, "--zap-log-level=error",
		}, func() (*rest.Config, error) { return operator.Config(), nil })
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run returned %v", err)
		}
	}()

	for _, ns := range []string{"watched", "other"} {
		mustCreate(t, c,
			&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s-db", Namespace: ns}, Data: map[string][]byte{"dsn": []byte("postgres://x")}},
			&sitev1.Site{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: ns},
				Spec: sitev1.SiteSpec{URL: "https://s.example.com", Database: sitev1.DatabaseSpec{SecretRef: &sitev1.DatabaseSecretRef{Name: "s-db"}},
					Marketplace: sitev1.MarketplaceSpec{APIKeys: []sitev1.APIKeySpec{{Name: "k", Account: "a"}}}}})
	}
	// Ready only once the namespaced caches synced, which a cluster-wide
	// list (forbidden here) would prevent.
	poll(t, "readyz", func() error { _, err := fetch("http://" + probeAddr + "/readyz"); return err })
	poll(t, "healthz", func() error { _, err := fetch("http://" + probeAddr + "/healthz"); return err })
	poll(t, "the watched Site's status", func() error {
		var s sitev1.Site
		if err := c.Get(ctx, client.ObjectKey{Namespace: "watched", Name: "s"}, &s); err != nil {
			return err
		}
		if s.Status.Phase == "" {
			return fmt.Errorf("no status yet")
		}
		return nil
	})
	// The election's event is refused without core events in the Role (the
	// Lease alone is not enough for a leader that reports its election).
	poll(t, "the LeaderElection event", func() error {
		var evs corev1.EventList
		if err := c.List(ctx, &evs, client.InNamespace("watched")); err != nil {
			return err
		}
		for _, e := range evs.Items {
			if e.Reason == "LeaderElection" && e.InvolvedObject.Kind == "Lease" {
				return nil
			}
		}
		return fmt.Errorf("no LeaderElection event among %d", len(evs.Items))
	})
	time.Sleep(time.Second)
	if err := c.Get(ctx, client.ObjectKey{Namespace: "other", Name: "s-config"}, &corev1.ConfigMap{}); !apierrors.IsNotFound(err) {
		t.Errorf("a Site outside the watched namespace was reconciled: %v", err)
	}
	var other sitev1.Site
	if err := c.Get(ctx, client.ObjectKey{Namespace: "other", Name: "s"}, &other); err != nil || other.Status.Phase != "" {
		t.Errorf("a Site outside the watched namespace got a status (%v): %+v", err, other.Status)
	}

	// HTTPS metrics: a scraper needs a token, and the token's owner needs
	// GET on /metrics (the metrics-reader role).
	// Two scrapers, so that a cached denial of one cannot hide the other's grant.
	token := func(name string) string {
		sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "other"}}
		mustCreate(t, c, sa)
		tr := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptrTo[int64](600)}}
		if err := c.SubResource("token").Create(ctx, sa, tr); err != nil {
			t.Fatal(err)
		}
		return tr.Status.Token
	}
	intruder, prometheus := token("intruder"), token("prometheus")
	mustCreate(t, c, &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "prometheus-metrics-reader"},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: metricsReader.Name},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "prometheus", Namespace: "other"}}})
	scrape := func(token string) (int, string, error) {
		req, _ := http.NewRequest(http.MethodGet, "https://"+metricsAddr+"/metrics", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // the metrics certificate is self-signed (no --metrics-cert-dir)
		resp, err := hc.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body), err
	}
	wantStatus := func(what, token string, want int, series ...string) {
		t.Helper()
		poll(t, what, func() error {
			got, body, err := scrape(token)
			if err != nil {
				return err
			}
			if got != want {
				return fmt.Errorf("status %d, want %d", got, want)
			}
			for _, s := range series {
				if !strings.Contains(body, s) {
					return fmt.Errorf("no %s", s)
				}
			}
			return nil
		})
	}
	wantStatus("anonymous scrape refused", "", http.StatusUnauthorized)
	wantStatus("scrape without metrics-reader forbidden", intruder, http.StatusForbidden)
	wantStatus("authorized scrape", prometheus, http.StatusOK,
		`siteplane_site_ready{namespace="watched",site="s"} 0`,
		`siteplane_site_component_ready{component="gateway",namespace="watched",site="s"} 0`,
		`siteplane_apikey_age_seconds{key="k",namespace="watched",site="s"}`,
		`controller_runtime_reconcile_total{controller="site"`)
	// The chart's Grafana dashboard queries only series the operator exports.
	_, body, err := scrape(prometheus)
	if err != nil {
		t.Fatal(err)
	}
	checkDashboardOperatorMetrics(t, body)
}

func readYAML(t *testing.T, name string, into any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "config", "rbac", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, into); err != nil {
		t.Fatal(err)
	}
}

func mustCreate(t *testing.T, c client.Client, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		if err := c.Create(context.Background(), o); err != nil {
			t.Fatalf("create %T %s: %v", o, o.GetName(), err)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

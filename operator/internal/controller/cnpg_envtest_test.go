package controller

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// The envtest suite runs no CloudNativePG operator: the tests play it,
// writing the application Secret, the Cluster's and the Database's status
// as CloudNativePG would.

// cnpgObject is an empty object of a CloudNativePG kind.
func cnpgObject(kind string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(resources.CNPGClusterGVK.GroupVersion().WithKind(kind))
	return u
}

// createCluster creates a Cluster of someone else (the platform team's),
// with one managed role of theirs.
func createCluster(t *testing.T, ns, name string, instances int64) {
	t.Helper()
	u := cnpgObject("Cluster")
	u.SetNamespace(ns)
	u.SetName(name)
	u.Object["spec"] = map[string]any{"instances": instances, "storage": map[string]any{"size": "1Gi"},
		"managed": map[string]any{"roles": []any{map[string]any{"name": "platform", "login": true}}}}
	if err := k8s.Create(ctx, u); err != nil {
		t.Fatal(err)
	}
}

// setClusterStatus plays CloudNativePG's status of a Cluster: Ready or
// not, and the managed roles it reconciled.
func setClusterStatus(t *testing.T, ns, name string, ready bool, roles ...string) {
	t.Helper()
	eventually(t, "status of Cluster "+name, func() error {
		u := cnpgObject("Cluster")
		if err := k8s.Get(ctx, key(ns, name), u); err != nil {
			return err
		}
		instances, _, _ := unstructured.NestedInt64(u.Object, "spec", "instances")
		status, readyInstances := "False", int64(0)
		if ready {
			status, readyInstances = "True", instances
		}
		u.Object["status"] = map[string]any{
			"phase": "Cluster in healthy state", "instances": instances, "readyInstances": readyInstances,
			"conditions": []any{map[string]any{"type": "Ready", "status": status, "reason": "Test", "message": "test",
				"lastTransitionTime": metav1.Now().UTC().Format("2006-01-02T15:04:05Z")}},
			"managedRolesStatus": map[string]any{"byStatus": map[string]any{"reconciled": toAny(roles)}},
		}
		return k8s.Status().Update(ctx, u)
	})
}

func toAny(s []string) []any {
	out := make([]any, 0, len(s))
	for _, v := range s {
		out = append(out, v)
	}
	return out
}

// createAppSecret plays CloudNativePG's application Secret of a Cluster.
func createAppSecret(t *testing.T, ns, cluster string) {
	t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: resources.CNPGAppSecretName(cluster), Namespace: ns},
		Data: map[string][]byte{"username": []byte("app"), "password": []byte("p@ss/word"), "dbname": []byte("app")}}
	if err := k8s.Create(ctx, s); err != nil {
		t.Fatal(err)
	}
}

// waitDatabaseReason waits for DatabaseReady with reason.
func waitDatabaseReason(t *testing.T, ns, name, reason string) *metav1.Condition {
	t.Helper()
	return waitReason(t, ns, name, sitev1.ConditionDatabaseReady, reason)
}

// databaseDSNs reads the DSN Secret the operator wrote, parsed.
func databaseDSNs(t *testing.T, ns, site string) (rw, ro *url.URL) {
	t.Helper()
	var s corev1.Secret
	eventually(t, "the DSN Secret", func() error { return k8s.Get(ctx, key(ns, resources.DatabaseSecretName(site)), &s) })
	var err error
	if rw, err = url.Parse(string(s.Data[contract.DatabaseURLSecretKey])); err != nil {
		t.Fatal(err)
	}
	if ro, err = url.Parse(string(s.Data[resources.DatabaseReadURLSecretKey])); err != nil {
		t.Fatal(err)
	}
	return rw, ro
}

// cnpgSite is a Site whose database mode mutate sets.
func cnpgSite(ns, name string, mutate func(*sitev1.DatabaseSpec)) *sitev1.Site {
	s := newSite(ns, name)
	s.Spec.Database = sitev1.DatabaseSpec{}
	mutate(&s.Spec.Database)
	return s
}

// TestCNPGExistingCluster: a Site on an existing Cluster waits for its
// application Secret and readiness, then gets DSNs on the -rw and -ro
// Services; content and media mount the read pool's, the gateway does
// not; and the Site turns Ready only with the Cluster ready.
func TestCNPGExistingCluster(t *testing.T) {
	requireCNPG(t)
	ns := newNamespace(t)
	createCluster(t, ns, "pg", 3)
	if err := k8s.Create(ctx, cnpgSite(ns, "blog", func(d *sitev1.DatabaseSpec) { d.Cluster = &sitev1.CNPGClusterRef{Name: "pg"} })); err != nil {
		t.Fatal(err)
	}
	waitDatabaseReason(t, ns, "blog", sitev1.ReasonDatabaseClusterNotReady)
	setClusterStatus(t, ns, "pg", true)
	c := waitDatabaseReason(t, ns, "blog", sitev1.ReasonDatabaseCredentialsMissing)
	if !strings.Contains(c.Message, `"pg-app"`) {
		t.Errorf("message %q does not name the application Secret", c.Message)
	}
	createAppSecret(t, ns, "pg")
	waitCondition(t, ns, "blog", sitev1.ConditionDatabaseReady, metav1.ConditionTrue)

	rw, ro := databaseDSNs(t, ns, "blog")
	if rw.Host != "pg-rw."+ns+".svc:5432" || ro.Host != "pg-ro."+ns+".svc:5432" || rw.Path != "/app" || rw.Query().Get("sslmode") != "require" {
		t.Errorf("DSNs %s and %s", rw.Redacted(), ro.Redacted())
	}
	if pw, _ := rw.User.Password(); pw != "p@ss/word" || rw.User.Username() != "app" {
		t.Errorf("credentials of %s", rw.Redacted())
	}
	for _, tc := range []struct {
		component string
		readPool  bool
	}{{contract.ServiceGateway, false}, {contract.ServiceContent, true}, {contract.ServiceMedia, true}, {contract.ServiceMarketplace, false}} {
		var d appsv1.Deployment
		eventually(t, "Deployment "+tc.component, func() error { return k8s.Get(ctx, key(ns, resources.ComponentName("blog", tc.component)), &d) })
		env := containerEnv(&d)
		_, hasRead := env[contract.EnvDatabaseReadURLFile]
		if hasRead != tc.readPool || !mountsSecretKey(d, resources.DatabaseSecretName("blog"), contract.DatabaseURLSecretKey) ||
			mountsSecretKey(d, resources.DatabaseSecretName("blog"), resources.DatabaseReadURLSecretKey) != tc.readPool {
			t.Errorf("%s: read pool %v, env %v", tc.component, tc.readPool, env)
		}
	}

	setAllAvailable(t, ns, "blog")
	waitCondition(t, ns, "blog", sitev1.ConditionReady, metav1.ConditionTrue)
	setClusterStatus(t, ns, "pg", false)
	poke(t, ns, "blog")
	s := waitCondition(t, ns, "blog", sitev1.ConditionReady, metav1.ConditionFalse)
	if r := meta.FindStatusCondition(s.Status.Conditions, sitev1.ConditionReady); !strings.Contains(r.Message, sitev1.ConditionDatabaseReady) {
		t.Errorf("Ready does not say the database blocks: %q", r.Message)
	}
}

// TestCNPGManagedCluster: a managed database is a Cluster child of the Site
// with the spec's instances, storage and parameters; an edit reaches it.
func TestCNPGManagedCluster(t *testing.T) {
	requireCNPG(t)
	ns := newNamespace(t)
	site := cnpgSite(ns, "shop", func(d *sitev1.DatabaseSpec) {
		d.Managed = &sitev1.ManagedDatabase{Instances: 3, ImageName: "example.test/postgresql:17",
			Storage:    sitev1.ManagedDatabaseStorage{Size: resource.MustParse("5Gi"), StorageClass: "fast"},
			Parameters: map[string]string{"max_connections": "200"}}
	})
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	cluster := cnpgObject("Cluster")
	eventually(t, "the managed Cluster", func() error { return k8s.Get(ctx, key(ns, "shop-db"), cluster) })
	owner := metav1.GetControllerOf(cluster)
	if owner == nil || owner.Kind != "Site" || owner.Name != "shop" {
		t.Errorf("controller of the Cluster: %+v", owner)
	}
	for _, tc := range []struct {
		path []string
		want string
	}{
		{[]string{"spec", "instances"}, "3"},
		{[]string{"spec", "storage", "size"}, "5Gi"},
		{[]string{"spec", "storage", "storageClass"}, "fast"},
		{[]string{"spec", "postgresql", "parameters", "max_connections"}, "200"},
		{[]string{"spec", "imageName"}, "example.test/postgresql:17"},
		{[]string{"spec", "enableSuperuserAccess"}, "false"},
		{[]string{"spec", "smartShutdownTimeout"}, "10"},
	} {
		got, _, _ := unstructured.NestedFieldNoCopy(cluster.Object, tc.path...)
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s = %v, want %s", strings.Join(tc.path, "."), got, tc.want)
		}
	}
	waitDatabaseReason(t, ns, "shop", sitev1.ReasonDatabaseClusterNotReady)
	createAppSecret(t, ns, "shop-db")
	setClusterStatus(t, ns, "shop-db", true)
	waitCondition(t, ns, "shop", sitev1.ConditionDatabaseReady, metav1.ConditionTrue)
	if rw, ro := databaseDSNs(t, ns, "shop"); rw.Host != "shop-db-rw."+ns+".svc:5432" || ro.Host != "shop-db-ro."+ns+".svc:5432" {
		t.Errorf("DSNs %s and %s", rw.Redacted(), ro.Redacted())
	}

	updateSite(t, ns, "shop", func(s *sitev1.Site) { s.Spec.Database.Managed.Instances = 5 })
	eventually(t, "5 instances on the Cluster", func() error {
		u := cnpgObject("Cluster")
		if err := k8s.Get(ctx, key(ns, "shop-db"), u); err != nil {
			return err
		}
		if n, _, _ := unstructured.NestedInt64(u.Object, "spec", "instances"); n != 5 {
			return fmt.Errorf("instances %d", n)
		}
		return nil
	})
}

// TestCNPGSharedCluster: two Sites on one shared Cluster each get a role
// and a database of their own, owned by that role; the platform's own role
// stays; each DSN names its own role and database.
func TestCNPGSharedCluster(t *testing.T) {
	requireCNPG(t)
	ns := newNamespace(t)
	createCluster(t, ns, "shared", 3)
	for _, name := range []string{"one", "two-b"} {
		if err := k8s.Create(ctx, cnpgSite(ns, name, func(d *sitev1.DatabaseSpec) { d.Shared = &sitev1.SharedDatabase{Cluster: "shared"} })); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"platform", "siteplane_one", "siteplane_two_b"}
	eventually(t, "both roles on the Cluster", func() error {
		u := cnpgObject("Cluster")
		if err := k8s.Get(ctx, key(ns, "shared"), u); err != nil {
			return err
		}
		roles, _, _ := unstructured.NestedSlice(u.Object, "spec", "managed", "roles")
		var names []string
		for _, r := range roles {
			names = append(names, fmt.Sprint(r.(map[string]any)["name"]))
		}
		slices.Sort(names)
		if !slices.Equal(names, want) {
			return fmt.Errorf("roles %v", names)
		}
		return nil
	})
	for _, tc := range []struct{ site, role string }{{"one", "siteplane_one"}, {"two-b", "siteplane_two_b"}} {
		db := cnpgObject("Database")
		eventually(t, "Database "+tc.site, func() error { return k8s.Get(ctx, key(ns, tc.site), db) })
		dbName, _, _ := unstructured.NestedString(db.Object, "spec", "name")
		owner, _, _ := unstructured.NestedString(db.Object, "spec", "owner")
		if dbName != tc.role || owner != tc.role || metav1.GetControllerOf(db) == nil {
			t.Errorf("Database %s: %v", tc.site, db.Object["spec"])
		}
		var secret corev1.Secret
		if err := get(t, ns, resources.DatabaseRoleSecretName(tc.site), &secret); err != nil ||
			string(secret.Data["username"]) != tc.role || len(secret.Data["password"]) < 32 || secret.Labels["cnpg.io/reload"] != "true" {
			t.Errorf("role Secret of %s: %v %v", tc.site, err, secret.Labels)
		}
		waitDatabaseReason(t, ns, tc.site, sitev1.ReasonDatabaseClusterNotReady)
	}
	setClusterStatus(t, ns, "shared", true, want...)
	for _, site := range []string{"one", "two-b"} {
		waitDatabaseReason(t, ns, site, sitev1.ReasonDatabaseNotApplied)
		eventually(t, "Database status", func() error {
			db := cnpgObject("Database")
			if err := k8s.Get(ctx, key(ns, site), db); err != nil {
				return err
			}
			db.Object["status"] = map[string]any{"applied": true}
			return k8s.Status().Update(ctx, db)
		})
		waitCondition(t, ns, site, sitev1.ConditionDatabaseReady, metav1.ConditionTrue)
	}
	rw, ro := databaseDSNs(t, ns, "two-b")
	if rw.User.Username() != "siteplane_two_b" || rw.Path != "/siteplane_two_b" || ro.Host != "shared-ro."+ns+".svc:5432" {
		t.Errorf("DSNs %s and %s", rw.Redacted(), ro.Redacted())
	}
}

// TestCNPGSpecRules: exactly one database mode, and the mode and the
// Cluster cannot change.
func TestCNPGSpecRules(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	for _, tc := range []struct {
		name string
		db   sitev1.DatabaseSpec
		want string
	}{
		{"no mode", sitev1.DatabaseSpec{}, "set exactly one of database.secretRef"},
		{"two modes", sitev1.DatabaseSpec{SecretRef: &sitev1.DatabaseSecretRef{Name: "x"}, Managed: &sitev1.ManagedDatabase{}},
			"set exactly one of database.secretRef"},
		{"zero instances", sitev1.DatabaseSpec{Managed: &sitev1.ManagedDatabase{Instances: -1}}, "instances"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(ns, "rules")
			s.Spec.Database = tc.db
			err := k8s.Create(ctx, s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
	if err := k8s.Create(ctx, cnpgSite(ns, "fixed", func(d *sitev1.DatabaseSpec) { d.Shared = &sitev1.SharedDatabase{Cluster: "a"} })); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		mutate func(*sitev1.Site)
		want   string
	}{
		{"other cluster", func(s *sitev1.Site) { s.Spec.Database.Shared.Cluster = "b" }, "database.shared.cluster is immutable"},
		{"other mode", func(s *sitev1.Site) {
			s.Spec.Database = sitev1.DatabaseSpec{Cluster: &sitev1.CNPGClusterRef{Name: "a"}}
		}, "the database mode is immutable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tryUpdate(t, ns, "fixed", tc.mutate); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

package resources

import (
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"siteplane.dev/services/pkg/contract"
)

func TestMarketplaceKeyProjection(t *testing.T) {
	m := testMounted()
	d := typed[appsv1.Deployment](t, Deployment(testSite(), contract.ServiceMarketplace, PodDefaults{}, m))
	var proj *corev1.ProjectedVolumeSource
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name == volKeys {
			proj = v.Projected
		}
	}
	if proj == nil || len(proj.Sources) != 2 {
		t.Fatalf("projected key volume %+v", proj)
	}
	got := map[string]string{}
	for _, src := range proj.Sources {
		if src.Secret.Optional == nil || !*src.Secret.Optional {
			t.Errorf("%s must be optional so an expired key cannot block pods", src.Secret.Name)
		}
		for _, it := range src.Secret.Items {
			got[it.Path] = src.Secret.Name + ":" + it.Key
		}
	}
	want := map[string]string{
		"shop/api-key":          "blog-apikey-shop:api-key",
		"shop/account":          "blog-apikey-shop:account",
		"shop-previous/api-key": "blog-apikey-shop-previous:api-key",
		"shop-previous/account": "blog-apikey-shop-previous:account",
		"shop/account-email":    "blog-apikey-shop:account-email",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("path %s from %q, want %q", k, got[k], v)
		}
	}

	// No keys: still a valid (empty) projected volume.
	m.APIKeys = nil
	d = typed[appsv1.Deployment](t, Deployment(testSite(), contract.ServiceMarketplace, PodDefaults{}, m))
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name == volKeys && (v.Projected == nil || len(v.Projected.Sources) != 0) {
			t.Errorf("empty key volume %+v", v)
		}
	}
}

func TestDatabaseMountUsesSpecKey(t *testing.T) {
	d := typed[appsv1.Deployment](t, Deployment(testSite(), contract.ServiceContent, PodDefaults{}, testMounted()))
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name != volDatabase {
			continue
		}
		if v.Secret.SecretName != "blog-db" || len(v.Secret.Items) != 1 ||
			v.Secret.Items[0].Key != "uri" || v.Secret.Items[0].Path != contract.DatabaseURLSecretKey {
			t.Errorf("database volume %+v", v.Secret)
		}
		return
	}
	t.Fatal("no database volume")
}

// TestPodHashes proves each component's hashes follow exactly what it mounts:
// a change rolls the pods that see it and only those.
func TestPodHashes(t *testing.T) {
	tests := []struct {
		name    string
		change  func(*Mounted)
		rolls   []string // components whose hashes must change
		unmoved []string // components whose hashes must not
	}{
		{
			name:    "route file",
			change:  func(m *Mounted) { m.Config[contract.RoutesFileName] = `{"version":2}` },
			rolls:   []string{contract.ServiceGateway},
			unmoved: []string{contract.ServiceContent, contract.ServiceMedia, contract.ServiceMarketplace},
		},
		{
			name:   "site file",
			change: func(m *Mounted) { m.Config[contract.SiteFileName] = `{"title":"b"}` },
			rolls:  []string{contract.ServiceGateway, contract.ServiceContent, contract.ServiceMedia, contract.ServiceMarketplace},
		},
		{
			name:    "admin password",
			change:  func(m *Mounted) { m.Secrets["blog-admin"][contract.AdminPasswordKey] = []byte("p2") },
			rolls:   []string{contract.ServiceGateway},
			unmoved: []string{contract.ServiceContent, contract.ServiceMarketplace},
		},
		{
			// The marketplace re-reads its key directory: a rotated or
			// expired key reaches it without a restart.
			name:    "api key rotated",
			change:  func(m *Mounted) { m.Secrets["blog-apikey-shop"][contract.KeyDirAPIKeyFile] = []byte("key2") },
			unmoved: []string{contract.ServiceMarketplace, contract.ServiceGateway, contract.ServiceContent, contract.ServiceMedia},
		},
		{
			name:    "previous api key expired",
			change:  func(m *Mounted) { delete(m.Secrets, "blog-apikey-shop-previous") },
			unmoved: []string{contract.ServiceMarketplace},
		},
		{
			name:   "database dsn",
			change: func(m *Mounted) { m.Secrets["blog-db"]["uri"] = []byte("postgres://y") },
			rolls:  []string{contract.ServiceGateway, contract.ServiceContent, contract.ServiceMedia, contract.ServiceMarketplace},
		},
		{
			name:    "unmounted key of the database Secret",
			change:  func(m *Mounted) { m.Secrets["blog-db"]["password"] = []byte("other") },
			unmoved: []string{contract.ServiceGateway, contract.ServiceContent, contract.ServiceMedia, contract.ServiceMarketplace},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := testSite()
			before := map[string]string{}
			for _, c := range contract.Services {
				cfg, sec := PodHashes(site, c, testMounted())
				before[c] = cfg + sec
			}
			m := testMounted()
			tt.change(&m)
			for _, c := range tt.rolls {
				cfg, sec := PodHashes(site, c, m)
				if cfg+sec == before[c] {
					t.Errorf("%s: hashes did not change", c)
				}
			}
			for _, c := range tt.unmoved {
				cfg, sec := PodHashes(site, c, m)
				if cfg+sec != before[c] {
					t.Errorf("%s: hashes changed but it does not mount what changed", c)
				}
			}
		})
	}
}

// The grace period covers the shutdown delay and the drain, from the
// defaults or from spec env; the marketplace mounts no internal key; a
// rotation of the internal key changes no pod hash (no restart).
func TestShutdownGraceAndInternalKeyMounts(t *testing.T) {
	site := testSite()
	d := typed[appsv1.Deployment](t, Deployment(site, contract.ServiceContent, PodDefaults{Tag: "v1"}, testMounted()))
	if got := *d.Spec.Template.Spec.TerminationGracePeriodSeconds; got != 30 {
		t.Errorf("grace %d, want 5s delay + 20s drain + 5s = 30", got)
	}
	if got := TerminationGracePeriodSeconds([]corev1.EnvVar{{Name: contract.EnvShutdownDelay, Value: "10s"}, {Name: contract.EnvShutdownTimeout, Value: "45s"}}); got != 60 {
		t.Errorf("grace from env = %d, want 60", got)
	}
	mp := typed[appsv1.Deployment](t, Deployment(site, contract.ServiceMarketplace, PodDefaults{Tag: "v1"}, testMounted()))
	for _, v := range mp.Spec.Template.Spec.Volumes {
		if v.Name == volInternalKey || v.Name == volGateway {
			t.Errorf("the marketplace mounts %s", v.Name)
		}
	}
	before := testMounted()
	after := testMounted()
	name := InternalKeySecretName(site.Name)
	after.Secrets[name] = map[string][]byte{contract.InternalKeySecretKey: []byte("new"), contract.InternalKeyPreviousSecretKey: []byte("old")}
	for _, c := range contract.Services {
		_, h1 := PodHashes(site, c, before)
		_, h2 := PodHashes(site, c, after)
		if h1 != h2 {
			t.Errorf("%s: a rotated internal key changes the pod hash (a restart)", c)
		}
	}
	var items []string
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name == volInternalKey {
			for _, it := range v.Secret.Items {
				items = append(items, it.Key)
			}
		}
	}
	if strings.Join(items, ",") != "internal-key,internal-key-previous,internal-key-rotated-at" {
		t.Errorf("internal key items %v", items)
	}
}

func TestPlanInternalKey(t *testing.T) {
	now := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	n := 0
	gen := func() string { n++; return fmt.Sprintf("key-%d", n) }
	plan := PlanInternalKey(nil, "", "", now, gen)
	if !plan.Generated || string(plan.Data[contract.InternalKeySecretKey]) != "key-1" || len(plan.Data) != 3 || !plan.Next.IsZero() {
		t.Fatalf("fresh: %+v", plan)
	}
	stored := plan.Data
	if p := PlanInternalKey(stored, "", "", now, gen); p.Rotated || string(p.Data[contract.InternalKeySecretKey]) != "key-1" {
		t.Fatalf("steady: %+v", p)
	}
	rot := PlanInternalKey(stored, "", "r1", now, gen)
	if !rot.Rotated || string(rot.Data[contract.InternalKeySecretKey]) != "key-2" || string(rot.Data[contract.InternalKeyPreviousSecretKey]) != "key-1" ||
		string(rot.Data[contract.InternalKeyRotatedAtSecretKey]) != now.Format(time.RFC3339) || rot.Handled != "r1" || !rot.Next.Equal(now.Add(InternalKeyGrace)) {
		t.Fatalf("rotation: %+v", rot)
	}
	// the same request again does nothing; a new one waits for the grace
	if p := PlanInternalKey(rot.Data, "r1", "r1", now.Add(time.Minute), gen); p.Rotated || string(p.Data[contract.InternalKeyPreviousSecretKey]) != "key-1" {
		t.Fatalf("handled request: %+v", p)
	}
	if p := PlanInternalKey(rot.Data, "r1", "r2", now.Add(time.Minute), gen); p.Rotated || !p.Deferred {
		t.Fatalf("second rotation inside the grace window: %+v", p)
	}
	exp := PlanInternalKey(rot.Data, "r1", "r1", now.Add(InternalKeyGrace), gen)
	if !exp.PreviousExpired || len(exp.Data[contract.InternalKeyPreviousSecretKey]) != 0 || string(exp.Data[contract.InternalKeySecretKey]) != "key-2" || !exp.Next.IsZero() {
		t.Fatalf("after the grace: %+v", exp)
	}
	if p := PlanInternalKey(rot.Data, "r1", "r2", now.Add(InternalKeyGrace), gen); !p.Rotated || string(p.Data[contract.InternalKeyPreviousSecretKey]) != "key-2" {
		t.Fatalf("deferred rotation after the grace: %+v", p)
	}
}

// TestInternalKeyPropagationDelayEnv: the operator's delay reaches every
// component that holds the internal key (the senders among them), and an
// unset delay leaves the pod templates as they were (no roll on upgrade).
func TestInternalKeyPropagationDelayEnv(t *testing.T) {
	site := testSite()
	for _, component := range []string{contract.ServiceGateway, contract.ServiceContent, contract.ServiceMedia, contract.ServiceMarketplace} {
		value := func(d PodDefaults) (string, bool) {
			for _, e := range Env(site, component, d) {
				if e.Name == contract.EnvInternalKeyPropagationDelay {
					return e.Value, true
				}
			}
			return "", false
		}
		got, set := value(PodDefaults{InternalKeyPropagationDelay: 45 * time.Second})
		if wantSet := component != contract.ServiceMarketplace; set != wantSet || (set && got != "45s") {
			t.Errorf("%s with a 45s delay: %q (set %t), want set=%t to 45s", component, got, set, wantSet)
		}
		if got, set := value(PodDefaults{}); set {
			t.Errorf("%s without a delay: %s=%q; want the variable absent", component, contract.EnvInternalKeyPropagationDelay, got)
		}
	}
}

package resources

import (
	"fmt"
	"net/url"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

func cnpgTestSite(db sitev1.DatabaseSpec) *sitev1.Site {
	return &sitev1.Site{ObjectMeta: metav1.ObjectMeta{Name: "my-blog", Namespace: "web"}, Spec: sitev1.SiteSpec{Database: db}}
}

// TestMergeRole: the site's role is added or updated in place; every other
// entry, the platform's own roles included, is kept as it is.
func TestMergeRole(t *testing.T) {
	site := cnpgTestSite(sitev1.DatabaseSpec{Shared: &sitev1.SharedDatabase{Cluster: "pg"}})
	want := SharedRole(site)
	stale := map[string]any{"name": "siteplane_my_blog", "login": false}
	other := map[string]any{"name": "platform", "login": true}
	for _, tc := range []struct {
		name        string
		roles       []any
		wantNames   string
		wantChanged bool
	}{
		{"empty", nil, "[siteplane_my_blog]", true},
		{"added after others", []any{other}, "[platform siteplane_my_blog]", true},
		{"stale entry replaced in place", []any{stale, other}, "[siteplane_my_blog platform]", true},
		{"up to date", []any{other, want}, "[platform siteplane_my_blog]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			merged, changed := MergeRole(tc.roles, want)
			names := make([]string, 0, len(merged))
			for _, r := range merged {
				names = append(names, fmt.Sprint(r.(map[string]any)["name"]))
			}
			if fmt.Sprint(names) != tc.wantNames || changed != tc.wantChanged {
				t.Errorf("got %v changed=%v, want %s changed=%v", names, changed, tc.wantNames, tc.wantChanged)
			}
			if tc.name == "stale entry replaced in place" && merged[0].(map[string]any)["login"] != true {
				t.Errorf("stale entry kept: %v", merged[0])
			}
		})
	}
}

// TestDatabaseSecretData: the DSNs escape the credentials, name the -rw
// and -ro Services, and a single instance (whose -ro Service has no
// endpoint) reads from the primary.
func TestDatabaseSecretData(t *testing.T) {
	site := cnpgTestSite(sitev1.DatabaseSpec{Cluster: &sitev1.CNPGClusterRef{Name: "pg"}})
	creds := DatabaseCredentials{Username: "app", Password: "a:b@c/d?e", Database: "app"}
	for _, tc := range []struct {
		instances        int64
		wantRW, wantRead string
	}{
		{1, "pg-rw.web.svc:5432", "pg-rw.web.svc:5432"},
		{3, "pg-rw.web.svc:5432", "pg-ro.web.svc:5432"},
	} {
		data := DatabaseSecretData(site, "pg", creds, tc.instances)
		rw, err := url.Parse(string(data[contract.DatabaseURLSecretKey]))
		if err != nil {
			t.Fatal(err)
		}
		ro, err := url.Parse(string(data[DatabaseReadURLSecretKey]))
		if err != nil {
			t.Fatal(err)
		}
		pw, _ := rw.User.Password()
		if rw.Host != tc.wantRW || ro.Host != tc.wantRead || pw != creds.Password || rw.Path != "/app" {
			t.Errorf("%d instances: %s, %s", tc.instances, rw.Redacted(), ro.Redacted())
		}
	}
}

// TestReadPoolEnv: content and media get the read pool's DSN file on a
// CloudNativePG database, and no component does with a DSN Secret.
func TestReadPoolEnv(t *testing.T) {
	for _, tc := range []struct {
		db        sitev1.DatabaseSpec
		component string
		want      bool
	}{
		{sitev1.DatabaseSpec{Managed: &sitev1.ManagedDatabase{}}, contract.ServiceContent, true},
		{sitev1.DatabaseSpec{Shared: &sitev1.SharedDatabase{Cluster: "pg"}}, contract.ServiceMedia, true},
		{sitev1.DatabaseSpec{Cluster: &sitev1.CNPGClusterRef{Name: "pg"}}, contract.ServiceGateway, false},
		{sitev1.DatabaseSpec{SecretRef: &sitev1.DatabaseSecretRef{Name: "db"}}, contract.ServiceContent, false},
	} {
		got := false
		for _, e := range Env(cnpgTestSite(tc.db), tc.component, PodDefaults{}) {
			if e.Name == contract.EnvDatabaseReadURLFile {
				got = e.Value == contract.DatabaseMountPath+"/"+DatabaseReadURLSecretKey
			}
		}
		if got != tc.want {
			t.Errorf("%s with %+v: read pool %v, want %v", tc.component, tc.db, got, tc.want)
		}
	}
}

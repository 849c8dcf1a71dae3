package resources

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

func TestConfigDataParsesWithContract(t *testing.T) {
	site := testSite()
	site.Spec.Extensions.HostTools = ptr.To(false)
	data, err := ConfigData(site)
	if err != nil {
		t.Fatal(err)
	}

	// The route file must be what the gateway's own parser accepts.
	routes, err := contract.ParseRouteFile([]byte(data[contract.RoutesFileName]))
	if err != nil {
		t.Fatalf("gateway would reject the route file: %v", err)
	}
	for _, svc := range []string{contract.ServiceContent, contract.ServiceMedia, contract.ServiceMarketplace} {
		b, ok := routes.Backend(svc)
		if !ok {
			t.Fatalf("no backend %s", svc)
		}
		if want := "http://blog-" + svc + ":8080"; b.URL != want {
			t.Errorf("backend %s URL %q, want %q", svc, b.URL, want)
		}
	}
	if _, ok := routes.Backend(contract.ServiceGateway); ok {
		t.Error("the gateway must not route to itself")
	}

	var s contract.Site
	if err := json.Unmarshal([]byte(data[contract.SiteFileName]), &s); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("services would reject the site file: %v", err)
	}
	want := contract.Site{Title: "Blog", URL: "https://blog.example.com", ShowOnFront: "posts",
		Extensions: contract.Extensions{CachePlugin: true, HostTools: false}}
	if s != want {
		t.Errorf("site file\n got %+v\nwant %+v", s, want)
	}
}

func TestSiteSettings(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*sitev1.Site)
		wantErr string
		check   func(*testing.T, contract.Site)
	}{
		{name: "named zone kept", mutate: func(s *sitev1.Site) { s.Spec.Timezone = "Europe/Paris" },
			check: func(t *testing.T, c contract.Site) {
				if c.Timezone != "Europe/Paris" {
					t.Errorf("timezone %q", c.Timezone)
				}
			}},
		{name: "unknown zone rejected", mutate: func(s *sitev1.Site) { s.Spec.Timezone = "Mars/Olympus" }, wantErr: "timezone"},
		{name: "static front page", mutate: func(s *sitev1.Site) {
			s.Spec.FrontPage = sitev1.FrontPageSpec{Show: "page", PageOnFront: 7, PageForPosts: 9}
		}, check: func(t *testing.T, c contract.Site) {
			if c.ShowOnFront != "page" || c.PageOnFront != 7 || c.PageForPosts != 9 {
				t.Errorf("front page %+v", c)
			}
		}},
		{name: "wp/v2 alias off by default", mutate: func(*sitev1.Site) {}, check: func(t *testing.T, c contract.Site) {
			if c.WPAlias {
				t.Error("alias on without wpAlias")
			}
		}},
		{name: "wp/v2 alias on", mutate: func(s *sitev1.Site) { s.Spec.WPAlias = ptr.To(true) }, check: func(t *testing.T, c contract.Site) {
			if !c.WPAlias {
				t.Error("wpAlias: true not in the site file")
			}
		}},
		{name: "url trailing slashes trimmed", mutate: func(s *sitev1.Site) { s.Spec.URL = "http://x.test/sub//" },
			check: func(t *testing.T, c contract.Site) {
				if c.URL != "http://x.test/sub" {
					t.Errorf("url %q", c.URL)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := testSite()
			tt.mutate(site)
			got, err := SiteSettings(site)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one mentioning %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, got)
		})
	}
}

func TestConfigDataDeterministic(t *testing.T) {
	a, err := ConfigData(testSite())
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		b, _ := ConfigData(testSite())
		if a[contract.RoutesFileName] != b[contract.RoutesFileName] || a[contract.SiteFileName] != b[contract.SiteFileName] {
			t.Fatal("rendering is not deterministic: the config hash would flap")
		}
	}
}

package contract

import (
	"strings"
	"testing"
)

func TestRouteFileValidate(t *testing.T) {
	good := DefaultRoutes(map[string]string{ServiceContent: "http://c:8080", ServiceMarketplace: "http://m:8080"})
	tests := []struct {
		name    string
		edit    func(*RouteFile)
		wantErr []string
	}{
		{"default table is valid", func(*RouteFile) {}, nil},
		{"wrong version", func(f *RouteFile) { f.Version = 2 }, []string{"version 2 is not supported"}},
		{"unknown service", func(f *RouteFile) { f.Routes[0].Service = "nope" }, []string{`unknown service "nope"`}},
		{"relative url", func(f *RouteFile) { f.Services[0].URL = "c:8080" }, []string{"is not an absolute http(s) URL"}},
		{"duplicate service", func(f *RouteFile) { f.Services = append(f.Services, f.Services[0]) }, []string{"duplicate name"}},
		{"duplicate prefix, case and slash folded", func(f *RouteFile) {
			f.Routes = append(f.Routes, Route{Prefix: "/CMS/v2/", Service: ServiceContent})
		}, []string{"duplicate prefix"}},
		{"prefix without slash", func(f *RouteFile) { f.Routes[0].Prefix = "api" }, []string{"must start with /"}},
		{"every problem reported", func(f *RouteFile) { f.Version = 0; f.Routes[0].Service = "x" }, []string{"version 0", `unknown service "x"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := good
			f.Services = append([]Backend(nil), good.Services...)
			f.Routes = append([]Route(nil), good.Routes...)
			tt.edit(&f)
			err := f.Validate()
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			for _, w := range tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("error %v does not mention %q", err, w)
				}
			}
		})
	}
}

func TestRouteFileRoundTrip(t *testing.T) {
	f := DefaultRoutes(map[string]string{ServiceContent: "http://c:8080", ServiceMedia: "http://m:8080", ServiceMarketplace: "http://k:8080"})
	a, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	// Marshal sorts routes, so reordering the input changes nothing: the
	// operator's config hash moves only when the content does.
	f.Routes[0], f.Routes[len(f.Routes)-1] = f.Routes[len(f.Routes)-1], f.Routes[0]
	b, _ := f.Marshal()
	if string(a) != string(b) {
		t.Fatalf("Marshal depends on route order:\n%s\n%s", a, b)
	}
	back, err := ParseRouteFile(a)
	if err != nil {
		t.Fatal(err)
	}
	// the theme files' route (ThemesPath), the installed fonts' (FontsPath)
	// and cms-abilities/v1 are the seventh to ninth
	if len(back.Routes) != 9 || len(back.Services) != 3 {
		t.Fatalf("parsed %d routes, %d services", len(back.Routes), len(back.Services))
	}
	if b, ok := back.Backend(ServiceMedia); !ok || !b.Describes {
		t.Fatalf("media backend %+v", b)
	}
	if _, err := ParseRouteFile([]byte(`{"version":1,"services":[],"routes":[],"extra":1}`)); err == nil {
		t.Fatal("an unknown field must be refused: a typo must not silently drop a route")
	}
	// Services missing from the URL map are left out with their routes.
	if f := DefaultRoutes(map[string]string{ServiceContent: "http://c"}); len(f.Services) != 1 || len(f.Routes) != 6 {
		t.Fatalf("content only: %+v", f)
	}
}

func TestSiteValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Site)
		wantErr string
	}{
		{"default", func(*Site) {}, ""},
		{"time zone", func(s *Site) { s.Timezone = "Europe/Paris" }, ""},
		{"bad time zone", func(s *Site) { s.Timezone = "Mars/Olympus" }, `timezone "Mars/Olympus"`},
		{"bad url", func(s *Site) { s.URL = "example.com" }, "is not an absolute http(s) URL"},
		{"bad show_on_front", func(s *Site) { s.ShowOnFront = "both" }, "must be posts or page"},
		{"negative page", func(s *Site) { s.PageOnFront = -1 }, "must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := DefaultSite("https://example.com")
			tt.edit(&s)
			err := s.Validate()
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Validate() = %v, want %q", err, tt.wantErr)
			}
		})
	}
	if loc := (&Site{Timezone: "Asia/Tokyo"}).Location(); loc.String() != "Asia/Tokyo" {
		t.Fatalf("Location = %v", loc)
	}
}

func TestServiceEnv(t *testing.T) {
	c := ServiceConfig{Listen: "127.0.0.1:1", Metrics: "off", DatabaseURL: "postgres://db", InternalKey: "k",
		SiteFile: "/s.json", LogLevel: "debug", RoutesFile: "/r.json", AdminUser: "admin", AdminEmail: "a@example.com",
		AdminPassword: "pw", MediaDir: "/media"}
	tests := []struct {
		name      string
		want, not []string
		edit      func(*ServiceConfig)
	}{
		{ServiceGateway, []string{EnvRoutesFile + "=/r.json", EnvAdminUser + "=admin", EnvListenAddr + "=127.0.0.1:1"}, []string{EnvMediaDir, EnvShutdownTimeout}, nil},
		{ServiceMedia, []string{EnvMediaDir + "=/media", EnvDatabaseURL + "=postgres://db"}, []string{EnvRoutesFile}, nil},
		{ServiceContent, nil, []string{EnvGatewayURL, EnvAdminPassword}, nil},
		{ServiceContent, []string{EnvGatewayURL + "=http://gw", EnvShutdownTimeout + "=2s"}, nil,
			func(c *ServiceConfig) { c.GatewayURL, c.ShutdownTimeout = "http://gw", "2s" }},
	}
	for _, tt := range tests {
		cfg := c
		if tt.edit != nil {
			tt.edit(&cfg)
		}
		env := strings.Join(ServiceEnv(tt.name, cfg), "\n") + "\n"
		for _, w := range tt.want {
			if !strings.Contains(env, w+"\n") {
				t.Errorf("%s: %s missing from\n%s", tt.name, w, env)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(env, n+"=") {
				t.Errorf("%s: %s must not be set:\n%s", tt.name, n, env)
			}
		}
	}
}

func TestSiteRoute(t *testing.T) {
	f := DefaultRoutes(map[string]string{ServiceContent: "http://c"})
	site := 0
	for _, r := range f.Routes {
		if r.Site {
			site++
			if r.Prefix != "/" || !r.Public || r.Service != ServiceContent {
				t.Errorf("site route %+v", r)
			}
		}
	}
	if site != 1 {
		t.Fatalf("%d site routes", site)
	}
	f.Routes = append(f.Routes, Route{Prefix: "/x", Service: ServiceContent, Site: true})
	if err := f.Validate(); err == nil || !strings.Contains(err.Error(), "a site route must be public") {
		t.Errorf("a non-public site route: %v", err)
	}
	for _, tt := range []struct {
		path string
		want bool
	}{{"/api", true}, {"/api/x", true}, {"/apis/", false}, {"/CMS-ADMIN/", true}, {"/cms-login.php", true}, {"/", false}, {"/hello/", false}} {
		if got := IsSiteReserved(tt.path); got != tt.want {
			t.Errorf("IsSiteReserved(%q) = %v", tt.path, got)
		}
	}
}

package resources

import (
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

func TestPlanKey(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	hour := time.Hour
	rot := &sitev1.KeyRotation{Period: metav1.Duration{Duration: 10 * hour}, GracePeriod: &metav1.Duration{Duration: 2 * hour}}
	gen := func() string { return "NEW" }
	tests := []struct {
		name     string
		rotation *sitev1.KeyRotation
		current  *KeyState
		previous *KeyState
		now      time.Time
		want     KeyPlan
	}{
		{
			name: "first issue",
			now:  t0,
			want: KeyPlan{Current: KeyState{"NEW", t0}, Generated: true},
		},
		{
			name:    "existing key is never replaced without rotation",
			current: &KeyState{"OLD", t0},
			now:     t0.Add(10000 * hour),
			want:    KeyPlan{Current: KeyState{"OLD", t0}},
		},
		{
			name:     "first issue with rotation schedules the next",
			rotation: rot,
			now:      t0,
			want:     KeyPlan{Current: KeyState{"NEW", t0}, Generated: true, Next: t0.Add(10 * hour)},
		},
		{
			name:     "not yet due",
			rotation: rot,
			current:  &KeyState{"OLD", t0},
			now:      t0.Add(9 * hour),
			want:     KeyPlan{Current: KeyState{"OLD", t0}, Next: t0.Add(10 * hour)},
		},
		{
			name:     "due: old key becomes previous for the grace period",
			rotation: rot,
			current:  &KeyState{"OLD", t0},
			now:      t0.Add(10 * hour),
			want: KeyPlan{Current: KeyState{"NEW", t0.Add(10 * hour)}, Previous: &KeyState{"OLD", t0.Add(12 * hour)},
				Generated: true, Rotated: true, Next: t0.Add(12 * hour)},
		},
		{
			name:     "inside the grace period the previous key stays",
			rotation: rot,
			current:  &KeyState{"NEW", t0.Add(10 * hour)},
			previous: &KeyState{"OLD", t0.Add(12 * hour)},
			now:      t0.Add(11 * hour),
			want:     KeyPlan{Current: KeyState{"NEW", t0.Add(10 * hour)}, Previous: &KeyState{"OLD", t0.Add(12 * hour)}, Next: t0.Add(12 * hour)},
		},
		{
			name:     "after the grace period the previous key goes",
			rotation: rot,
			current:  &KeyState{"NEW", t0.Add(10 * hour)},
			previous: &KeyState{"OLD", t0.Add(12 * hour)},
			now:      t0.Add(12 * hour),
			want:     KeyPlan{Current: KeyState{"NEW", t0.Add(10 * hour)}, PreviousExpired: true, Next: t0.Add(20 * hour)},
		},
		{
			name:     "rotation removed: previous still expires on time",
			current:  &KeyState{"NEW", t0},
			previous: &KeyState{"OLD", t0.Add(2 * hour)},
			now:      t0.Add(hour),
			want:     KeyPlan{Current: KeyState{"NEW", t0}, Previous: &KeyState{"OLD", t0.Add(2 * hour)}, Next: t0.Add(2 * hour)},
		},
		{
			name:     "default grace period",
			rotation: &sitev1.KeyRotation{Period: metav1.Duration{Duration: 48 * hour}},
			current:  &KeyState{"OLD", t0},
			now:      t0.Add(48 * hour),
			want: KeyPlan{Current: KeyState{"NEW", t0.Add(48 * hour)}, Previous: &KeyState{"OLD", t0.Add(72 * hour)},
				Generated: true, Rotated: true, Next: t0.Add(72 * hour)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PlanKey(sitev1.APIKeySpec{Name: "shop", Account: "acme", Rotation: tt.rotation}, tt.current, tt.previous, tt.now, gen)
			if got.Current != tt.want.Current || got.Generated != tt.want.Generated || got.Rotated != tt.want.Rotated ||
				got.PreviousExpired != tt.want.PreviousExpired || !got.Next.Equal(tt.want.Next) ||
				(got.Previous == nil) != (tt.want.Previous == nil) ||
				(got.Previous != nil && *got.Previous != *tt.want.Previous) {
				t.Errorf("plan\n got %+v (previous %+v)\nwant %+v (previous %+v)", got, got.Previous, tt.want, tt.want.Previous)
			}
		})
	}
}

func TestSecretData(t *testing.T) {
	site := testSite()
	admin := AdminData(site, "p", "s")
	if string(admin[contract.AdminUsernameKey]) != "admin" || string(admin[contract.AdminEmailKey]) != "admin@blog.example.com" ||
		string(admin[contract.AdminPasswordKey]) != "p" || string(admin[contract.AdminLoginPasswordKey]) != "s" {
		t.Errorf("admin data %q", admin)
	}
	site.Spec.Admin.Email = "ops@example.com"
	if got := AdminEmail(site); got != "ops@example.com" {
		t.Errorf("email %q", got)
	}
	key := APIKeyData(site, sitev1.APIKeySpec{Name: "shop", Account: "acme"}, "k")
	if string(key[contract.KeyDirAPIKeyFile]) != "k" || string(key[contract.KeyDirAccountFile]) != "acme" ||
		string(key[contract.KeyDirAccountEmailFile]) != "acme@blog.example.com" || len(key) != 3 {
		t.Errorf("key data %q", key)
	}
}

// TestAccountEmail: the address the marketplace gives an account it
// creates must pass the same rule as the administrator's.
func TestAccountEmail(t *testing.T) {
	tests := []struct {
		url, account, email, want string
	}{
		{"https://blog.example.com", "acme", "", "acme@blog.example.com"},
		{"https://blog.example.com", "acme", "sales@acme.example", "sales@acme.example"},
		{"http://blog", "acme", "", "acme@blog.invalid"},
		{"https://blog.example.com", "Jane Doe", "", "marketplace@blog.example.com"},
		{"https://blog.example.com", ".dot", "", "marketplace@blog.example.com"},
		{"https://blog.example.com", strings.Repeat("a", 100), "", "marketplace@blog.example.com"},
		{"http://[::1]:8080", "acme", "", "acme@siteplane.invalid"},
	}
	for _, tt := range tests {
		site := &sitev1.Site{Spec: sitev1.SiteSpec{URL: tt.url}}
		got := AccountEmail(site, sitev1.APIKeySpec{Account: tt.account, AccountEmail: tt.email})
		if got != tt.want || !gatewayEmail.MatchString(got) || len(got) > maxAdminEmail {
			t.Errorf("AccountEmail(%s, %q, %q) = %q, want %q", tt.url, tt.account, tt.email, got, tt.want)
		}
	}
}

// gatewayEmail is the gateway's rule for the bootstrap administrator's
// address (services/internal/gateway/accounts ValidEmail): the gateway
// refuses to start when the address fails it.
var gatewayEmail = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)

func TestAdminEmailIsAcceptedByTheGateway(t *testing.T) {
	long := strings.Repeat("a", 60) + "." + strings.Repeat("b", 40) + ".example.com"
	tests := []struct {
		url, email, want string
	}{
		{"https://blog.example.com", "", "admin@blog.example.com"},
		{"https://Blog.Example.com./path", "", "admin@Blog.Example.com"},
		{"http://blog", "", "admin@blog.invalid"},
		{"http://localhost:8080", "", "admin@localhost.invalid"},
		{"http://10.0.0.7:8080", "", "admin@10.0.0.7"},
		{"http://[::1]:8080", "", "admin@siteplane.invalid"},
		{"https://" + long, "", "admin@siteplane.invalid"},
		{"https://blog.example.com", "ops@example.com", "ops@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			site := testSite()
			site.Spec.URL, site.Spec.Admin.Email = tt.url, tt.email
			got := AdminEmail(site)
			if got != tt.want {
				t.Errorf("AdminEmail = %q, want %q", got, tt.want)
			}
			if !gatewayEmail.MatchString(got) || len(got) > 100 {
				t.Errorf("the gateway would reject %q", got)
			}
		})
	}
}

func TestPlanLoginPassword(t *testing.T) {
	gen := func() string { return "new" }
	tests := []struct {
		name                     string
		stored, handled, request string
		want                     LoginPasswordPlan
	}{
		{"first pass generates", "", "", "", LoginPasswordPlan{Value: "new", Generated: true}},
		{"a request made before the first password is satisfied by it", "", "", "r1", LoginPasswordPlan{Value: "new", Handled: "r1", Generated: true}},
		{"kept", "old", "", "", LoginPasswordPlan{Value: "old"}},
		{"kept when the request was handled", "old", "r1", "r1", LoginPasswordPlan{Value: "old", Handled: "r1"}},
		{"a new request rotates", "old", "r1", "r2", LoginPasswordPlan{Value: "new", Handled: "r2", Rotated: true}},
		{"removing the annotation changes nothing", "old", "r1", "", LoginPasswordPlan{Value: "old", Handled: "r1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PlanLoginPassword(tt.stored, tt.handled, tt.request, gen); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

package resources

import (
	"crypto/rand"
	"net/url"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// Lengths of generated values.
const (
	// ApplicationPasswordLength is WordPress's application password length.
	ApplicationPasswordLength = 24
	InternalKeyLength         = 64
	APIKeyLength              = 32
)

const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// RandomAlphanumeric returns n characters from crypto/rand, uniformly drawn
// from [A-Za-z0-9].
func RandomAlphanumeric(n int) string {
	return randomFrom(alphanumerics, n)
}

func randomFrom(alphabet string, n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, 64)
	// 62 symbols: reject bytes >= 248 (4*62) to keep the draw uniform.
	limit := byte(256 - 256%len(alphabet))
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic("crypto/rand failed: " + err.Error())
		}
		for _, b := range buf {
			if b < limit && len(out) < n {
				out = append(out, alphabet[int(b)%len(alphabet)])
			}
		}
	}
	return string(out)
}

// Secret is a generated Secret of site.
func Secret(site *sitev1.Site, name, component string, data map[string][]byte, annotations map[string]string) *corev1ac.SecretApplyConfiguration {
	s := corev1ac.Secret(name, site.Namespace).
		WithLabels(Labels(site, component)).
		WithOwnerReferences(OwnerReference(site)).
		WithType(corev1.SecretTypeOpaque).
		WithData(data)
	if len(annotations) > 0 {
		s.WithAnnotations(annotations)
	}
	return s
}

// maxAdminEmail is the longest address the gateway accepts.
const maxAdminEmail = 100

// fallbackAdminEmail is used when the site's host cannot make an address.
const fallbackAdminEmail = "admin@siteplane.invalid"

// AdminEmail is spec.admin.email, or an address derived from the site's
// host. The gateway validates the bootstrap administrator like any user
// (a dot in the domain, at most 100 characters) and refuses to start
// otherwise, so a host without a dot (http://blog, http://localhost) gets
// the reserved .invalid suffix, and an IPv6 or overly long host the
// fallback address.
func AdminEmail(site *sitev1.Site) string {
	if site.Spec.Admin.Email != "" {
		return site.Spec.Admin.Email
	}
	host := ""
	if u, err := url.Parse(site.Spec.URL); err == nil {
		host = strings.TrimSuffix(u.Hostname(), ".")
	}
	switch {
	case host == "" || strings.Contains(host, ":"):
		return fallbackAdminEmail
	case !strings.Contains(host, "."):
		host += ".invalid"
	}
	if email := "admin@" + host; len(email) <= maxAdminEmail {
		return email
	}
	return fallbackAdminEmail
}

// AdminUsername is spec.admin.username with the CRD default.
func AdminUsername(site *sitev1.Site) string {
	if site.Spec.Admin.Username == "" {
		return "admin"
	}
	return site.Spec.Admin.Username
}

// AdminData is the bootstrap administrator Secret's data: the application
// password (REST clients) and the sign-in password (cms-login.php). The
// sign-in key is always present, empty while a user-supplied password is
// missing, so the volume's items never change; the gateway leaves the
// stored password alone when it is empty.
func AdminData(site *sitev1.Site, password, loginPassword string) map[string][]byte {
	return map[string][]byte{
		contract.AdminUsernameKey:      []byte(AdminUsername(site)),
		contract.AdminEmailKey:         []byte(AdminEmail(site)),
		contract.AdminPasswordKey:      []byte(password),
		contract.AdminLoginPasswordKey: []byte(loginPassword),
	}
}

// AnnotationRotateAdminPassword on a Site asks for a new generated sign-in
// password: a value the operator has not handled yet replaces it once (the
// handled value is recorded on the admin Secret, AnnotationRotationHandled),
// as siteplane.dev/rotate-internal-key does for the internal key.
const AnnotationRotateAdminPassword = "siteplane.dev/rotate-admin-password"

// LoginPasswordLength is the generated sign-in password's length.
const LoginPasswordLength = 24

// LoginPasswordPlan is the generated sign-in password a pass writes.
type LoginPasswordPlan struct {
	Value, Handled     string
	Generated, Rotated bool
}

// PlanLoginPassword keeps the stored sign-in password, makes one when there
// is none, and replaces it when the Site's rotation request differs from
// the one handled last. A request made before the first password existed
// is satisfied by it.
func PlanLoginPassword(stored, handled, request string, gen func() string) LoginPasswordPlan {
	switch {
	case stored == "":
		return LoginPasswordPlan{Value: gen(), Handled: request, Generated: true}
	case request != "" && request != handled:
		return LoginPasswordPlan{Value: gen(), Handled: request, Rotated: true}
	}
	return LoginPasswordPlan{Value: stored, Handled: handled}
}

// APIKeyData is one marketplace key Secret's data, laid out as the key
// directory expects once projected into <dir>/<key-name>/: the key, its
// account, and the email the marketplace gives the account if it has to
// create it.
func APIKeyData(site *sitev1.Site, spec sitev1.APIKeySpec, key string) map[string][]byte {
	return map[string][]byte{
		contract.KeyDirAPIKeyFile:       []byte(key),
		contract.KeyDirAccountFile:      []byte(spec.Account),
		contract.KeyDirAccountEmailFile: []byte(AccountEmail(site, spec)),
	}
}

// AccountEmail is spec.accountEmail, or <account>@<site host> derived as
// the administrator's address is (see AdminEmail) when the account name
// makes a plain local part, else marketplace@<site host>.
func AccountEmail(site *sitev1.Site, spec sitev1.APIKeySpec) string {
	if spec.AccountEmail != "" {
		return spec.AccountEmail
	}
	admin := AdminEmail(&sitev1.Site{Spec: sitev1.SiteSpec{URL: site.Spec.URL}})
	domain := admin[strings.IndexByte(admin, '@'):]
	local := spec.Account
	if !plainLocalPart(local) {
		local = "marketplace"
	}
	if email := local + domain; len(email) <= maxAdminEmail {
		return email
	}
	return "marketplace" + domain
}

// plainLocalPart reports whether s is a dot-atom of letters, digits and
// ._+- (no leading, trailing or doubled dot).
func plainLocalPart(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._+-", r)) {
			return false
		}
	}
	return true
}

// KeyState is a marketplace key as stored: its value and a timestamp (when
// it was created, or for a previous key, when it expires).
type KeyState struct {
	Value string
	At    time.Time
}

// KeyPlan is what one pass does to one marketplace key.
type KeyPlan struct {
	// Current is the key to keep or write; At is its creation time.
	Current KeyState
	// Previous is the rotated-out key still in its grace period, or nil.
	Previous *KeyState
	// Generated is true when Current is new (first issue or rotation).
	Generated bool
	// Rotated is true when this pass rotated the key.
	Rotated bool
	// PreviousExpired is true when this pass dropped an expired previous key.
	PreviousExpired bool
	// Next is when the plan changes again by time alone (rotation or expiry);
	// zero when never.
	Next time.Time
}

// DefaultGracePeriod is the CRD default of rotation.gracePeriod.
const DefaultGracePeriod = 24 * time.Hour

// PlanKey decides the current and previous values of one key at now. An
// existing value is never replaced except by a due rotation, so a pass that
// merely re-applies cannot invalidate a key in use.
func PlanKey(spec sitev1.APIKeySpec, current, previous *KeyState, now time.Time, generate func() string) KeyPlan {
	var p KeyPlan
	if current == nil || current.Value == "" {
		p.Current = KeyState{Value: generate(), At: now}
		p.Generated = true
	} else {
		p.Current = *current
	}
	if previous != nil && previous.Value != "" {
		prev := *previous
		p.Previous = &prev
	}
	if spec.Rotation != nil && !p.Generated {
		period := spec.Rotation.Period.Duration
		grace := DefaultGracePeriod
		if spec.Rotation.GracePeriod != nil {
			grace = spec.Rotation.GracePeriod.Duration
		}
		if period > 0 && !now.Before(p.Current.At.Add(period)) {
			p.Previous = &KeyState{Value: p.Current.Value, At: now.Add(grace)}
			p.Current = KeyState{Value: generate(), At: now}
			p.Generated, p.Rotated = true, true
		}
	}
	if p.Previous != nil && !now.Before(p.Previous.At) {
		p.Previous = nil
		p.PreviousExpired = true
	}
	if spec.Rotation != nil && spec.Rotation.Period.Duration > 0 {
		p.Next = p.Current.At.Add(spec.Rotation.Period.Duration)
	}
	if p.Previous != nil && (p.Next.IsZero() || p.Previous.At.Before(p.Next)) {
		p.Next = p.Previous.At
	}
	return p
}

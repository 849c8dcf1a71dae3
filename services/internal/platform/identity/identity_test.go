package identity

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

func TestSignVerify(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	key, ring := NewKey(secret), Static(secret)
	now := time.Unix(1_800_000_000, 0)
	good := Sign(key, "content", Identity{UserID: 7, Role: Editor}, now.Add(time.Minute))
	year2100 := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)

	tamper := func(s string) string {
		p, m, _ := strings.Cut(s, ".")
		// Flip the role inside the payload but keep the old MAC.
		return strings.Replace(p, p[len(p)-4:], "AAAA", 1) + "." + m
	}
	// same key id, another secret: the MAC must still fail
	impostor := Key{ID: key.ID, Secret: []byte("another key of the same length!!")}
	tests := []struct {
		name     string
		ring     Keyring
		audience string
		header   string
		now      time.Time
		want     Identity
		wantErr  error
	}{
		{"valid", ring, "content", good, now, Identity{UserID: 7, Role: Editor}, nil},
		{"expired", ring, "content", good, now.Add(time.Minute), Identity{}, ErrExpired},
		{"other key", Static([]byte("another key of the same length!!")), "content", good, now, Identity{}, ErrUnknownKey},
		{"key id of ours, signed with another secret", ring, "content", Sign(impostor, "content", Identity{UserID: 1, Role: Administrator}, now.Add(time.Minute)), now, Identity{}, ErrSignature},
		{"payload tampered", ring, "content", tamper(good), now, Identity{}, ErrSignature},
		{"mac truncated", ring, "content", good[:len(good)-3], now, Identity{}, ErrSignature},
		{"for another service", ring, "media", good, now, Identity{}, ErrAudience},
		{"expires in the year 2100", ring, "content", Sign(key, "content", Identity{UserID: 1, Role: Administrator}, year2100), now, Identity{}, ErrLifetime},
		{"lifetime just above the maximum", ring, "content", Sign(key, "content", Identity{UserID: 1, Role: Administrator}, now.Add(MaxLifetime+ClockSkew+time.Second)), now, Identity{}, ErrLifetime},
		{"lifetime at the maximum", ring, "content", Sign(key, "content", Identity{UserID: 1, Role: Author}, now.Add(MaxLifetime)), now, Identity{UserID: 1, Role: Author}, nil},
		{"version 1 header", ring, "content", v1Header(secret, now.Add(time.Minute)), now, Identity{}, ErrMalformed},
		{"no dot", ring, "content", "abc", now, Identity{}, ErrMalformed},
		{"bad base64", ring, "content", "!!.!!", now, Identity{}, ErrMalformed},
		{"empty", ring, "content", "", now, Identity{}, ErrMalformed},
		{"unknown role signed", ring, "content", Sign(key, "content", Identity{UserID: 1, Role: "root"}, now.Add(time.Minute)), now, Identity{}, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Verify(tt.ring, tt.audience, tt.header, tt.now)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Fatalf("identity = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// v1Header is the header format before key ids, audiences and the lifetime
// bound: it must not be accepted any more.
func v1Header(secret []byte, exp time.Time) string {
	payload := fmt.Sprintf("v1|1|administrator|%d", exp.Unix())
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(mac(secret, payload))
}

func TestRotation(t *testing.T) {
	oldKey, newKey := NewKey([]byte("old secret")), NewKey([]byte("new secret"))
	if oldKey.ID == newKey.ID || len(oldKey.ID) != 12 {
		t.Fatalf("key ids %q %q: want distinct 12-digit ids", oldKey.ID, newKey.ID)
	}
	rotated := time.Unix(1_800_000_000, 0)
	ring := Keyring{Current: newKey, Previous: oldKey, RotatedAt: rotated}

	// Senders keep the old key while the new one propagates, then switch.
	if got := ring.SigningKey(rotated.Add(time.Minute)); got.ID != oldKey.ID {
		t.Errorf("signing key right after the rotation = %s, want the previous %s", got.ID, oldKey.ID)
	}
	if got := ring.SigningKey(rotated.Add(PropagationDelay)); got.ID != newKey.ID {
		t.Errorf("signing key after the propagation delay = %s, want the current %s", got.ID, newKey.ID)
	}
	// A configured delay replaces the default one.
	short := ring
	short.Delay = 30 * time.Second
	for _, tt := range []struct {
		after time.Duration
		want  Key
	}{{29 * time.Second, oldKey}, {30 * time.Second, newKey}, {time.Minute, newKey}} {
		if got := short.SigningKey(rotated.Add(tt.after)); got.ID != tt.want.ID {
			t.Errorf("delay 30s: signing key %s after the rotation = %s, want %s", tt.after, got.ID, tt.want.ID)
		}
	}
	// Receivers accept both during the grace window...
	now := rotated.Add(time.Minute)
	for _, k := range []Key{oldKey, newKey} {
		if _, err := Verify(ring, "content", Sign(k, "content", Identity{UserID: 2, Role: Author}, now.Add(time.Minute)), now); err != nil {
			t.Errorf("key %s during the grace window: %v", k.ID, err)
		}
	}
	// ...and, once the previous key is gone, only the current one.
	after := Static([]byte("new secret"))
	if _, err := Verify(after, "content", Sign(oldKey, "content", Identity{UserID: 2, Role: Author}, now.Add(time.Minute)), now); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("retired key: err = %v, want ErrUnknownKey", err)
	}
}

func TestFileKeysRereadsRotatedFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, value string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(value+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(contract.InternalKeySecretKey, "first")
	keys, err := NewFileKeys(filepath.Join(dir, contract.InternalKeySecretKey), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(1_800_000_000, 0)
	keys.now = func() time.Time { return clock }
	keys.SetPropagationDelay(20 * time.Second)
	if got := keys.Keyring(); got.Current.ID != NewKey([]byte("first")).ID || got.Previous.ID != "" || got.Delay != 20*time.Second {
		t.Fatalf("initial ring %+v", got)
	}
	// The operator rotates: previous, time, then the new current key.
	write(contract.InternalKeyPreviousSecretKey, "first")
	write(contract.InternalKeyRotatedAtSecretKey, clock.UTC().Format(time.RFC3339))
	write(contract.InternalKeySecretKey, "second")
	if got := keys.Keyring(); got.Current.ID != NewKey([]byte("first")).ID {
		t.Fatal("re-read before the reload interval")
	}
	clock = clock.Add(time.Hour)
	got := keys.Keyring()
	if got.Current.ID != NewKey([]byte("second")).ID || got.Previous.ID != NewKey([]byte("first")).ID || !got.RotatedAt.Equal(clock.Add(-time.Hour)) {
		t.Fatalf("after rotation: %+v", got)
	}
	if got.Delay != 20*time.Second {
		t.Fatalf("a re-read keyring lost the configured delay: %v", got.Delay)
	}
	// A vanished file keeps the last good keyring.
	os.Remove(filepath.Join(dir, contract.InternalKeySecretKey))
	clock = clock.Add(time.Hour)
	if again := keys.Keyring(); again.Current.ID != got.Current.ID {
		t.Fatalf("after a failed read: %+v", again)
	}
	if _, err := NewFileKeys(filepath.Join(dir, "missing"), 0); err == nil {
		t.Fatal("a missing key file must fail at start")
	}
}

func TestRoleCapabilities(t *testing.T) {
	tests := []struct {
		role Role
		cap  string
		want bool
	}{
		{Administrator, "list_users", true},
		{Administrator, "edit_others_posts", true},
		{Editor, "edit_others_posts", true},
		{Editor, "list_users", false},
		{Author, "publish_posts", true},
		{Author, "edit_others_posts", false},
		{Author, "upload_files", true},
		{Contributor, "edit_posts", true},
		{Contributor, "publish_posts", false},
		{Contributor, "upload_files", false},
		{Subscriber, "read", true},
		{Subscriber, "edit_posts", false},
		{Role("nobody"), "read", false},
	}
	for _, tt := range tests {
		if got := tt.role.Can(tt.cap); got != tt.want {
			t.Errorf("%s.Can(%q) = %v, want %v", tt.role, tt.cap, got, tt.want)
		}
	}
	if (Identity{Role: Administrator}).Can("read") {
		t.Error("an anonymous identity must have no capability, whatever its role field")
	}
}

func TestMiddleware(t *testing.T) {
	key := NewKey([]byte("k"))
	now := time.Unix(1_800_000_000, 0)
	var seen Identity
	var observed []string // "<key id>/<reason>" per header checked
	h := Middleware(Static([]byte("k")), "content", func() time.Time { return now }, func(w http.ResponseWriter, _ *http.Request, err error) {
		http.Error(w, "rejected", http.StatusUnauthorized)
	}, func(kid string, err error) {
		reason := ""
		if err != nil {
			reason = Reason(err)
		}
		observed = append(observed, kid+"/"+reason)
	})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = FromContext(r.Context()) }))

	tests := []struct {
		name     string
		header   string
		status   int
		want     Identity
		observed string // what the observer is told; "" when not called
	}{
		{"anonymous", "", 200, Identity{}, ""},
		{"signed", Sign(key, "content", Identity{UserID: 3, Role: Author}, now.Add(time.Second)), 200, Identity{UserID: 3, Role: Author}, key.ID + "/"},
		{"expired", Sign(key, "content", Identity{UserID: 3, Role: Author}, now), 401, Identity{}, "/expired"},
		{"year 2100", Sign(key, "content", Identity{UserID: 1, Role: Administrator}, now.AddDate(70, 0, 0)), 401, Identity{}, "/lifetime"},
		{"for media", Sign(key, "media", Identity{UserID: 1, Role: Administrator}, now.Add(time.Minute)), 401, Identity{}, "/audience"},
		{"forged", Sign(NewKey([]byte("x")), "content", Identity{UserID: 1, Role: Administrator}, now.Add(time.Minute)), 401, Identity{}, "/unknown_key"},
		{"garbage", "not-a-header", 401, Identity{}, "/malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen, observed = Identity{}, nil
			defer func() {
				want := []string(nil)
				if tt.observed != "" {
					want = []string{tt.observed}
				}
				if !slices.Equal(observed, want) {
					t.Errorf("observed %q, want %q", observed, want)
				}
			}()
			req := httptest.NewRequest("GET", "/", nil)
			if tt.header != "" {
				req.Header.Set(contract.IdentityHeader, tt.header)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status || seen != tt.want {
				t.Fatalf("status %d identity %+v, want %d %+v", rec.Code, seen, tt.status, tt.want)
			}
		})
	}
}

// The capability table is WordPress's: 61 primitive capabilities for an
// administrator (62 with the role name the users routes add), levels by role.
func TestCapabilityTable(t *testing.T) {
	counts := map[Role]int{Administrator: 61, Editor: 34, Author: 10, Contributor: 5, Subscriber: 2}
	for role, n := range counts {
		if got := len(role.Capabilities()); got != n {
			t.Errorf("%s: %d capabilities, want %d", role, got, n)
		}
	}
	checks := []struct {
		role Role
		cap  string
		want bool
	}{
		{Administrator, "level_10", true}, {Administrator, "unfiltered_upload", true}, {Administrator, "edit_theme_options", true},
		{Editor, "level_7", true}, {Editor, "level_8", false}, {Editor, "moderate_comments", true}, {Editor, "edit_theme_options", false},
		{Editor, "read_private_posts", true}, {Author, "level_2", true}, {Author, "edit_pages", false},
		{Contributor, "edit_posts", true}, {Contributor, "upload_files", false}, {Subscriber, "level_0", true}, {Subscriber, "edit_posts", false},
	}
	for _, c := range checks {
		if c.role.Can(c.cap) != c.want {
			t.Errorf("%s can %s: want %v", c.role, c.cap, c.want)
		}
	}
	if caps := Administrator.Capabilities(); caps[0] != "switch_themes" || caps[len(caps)-1] != "export" {
		t.Errorf("order: %v", caps)
	}
}

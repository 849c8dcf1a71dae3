package accounts

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"siteplane.dev/services/internal/gateway/migrations"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	pool := pgtest.NewPool(t, "gateway", migrations.FS)
	return New(pool, NewHasher([]byte("internal-key")))
}

func TestPasswordHelpers(t *testing.T) {
	p := GeneratePassword()
	if len(p) != PasswordLength || Normalize(p) != p {
		t.Fatalf("generated %q: want %d alphanumerics", p, PasswordLength)
	}
	if GeneratePassword() == p {
		t.Fatal("two generated passwords are equal")
	}
	if got := Chunk("abcdefghijklmnopqrstuvwx"); got != "abcd efgh ijkl mnop qrst uvwx" {
		t.Fatalf("Chunk = %q", got)
	}
	h := NewHasher([]byte("k"))
	for _, variant := range []string{"abcd efgh ijkl mnop qrst uvwx", "abcd-efgh-ijkl-mnop-qrst-uvwx", " abcdefghijklmnopqrstuvwx\t"} {
		if string(h.Hash(variant)) != string(h.Hash("abcdefghijklmnopqrstuvwx")) {
			t.Errorf("%q does not hash like its normalised form", variant)
		}
	}
	if string(h.Hash("abcdefghijklmnopqrstuvwx")) == string(NewHasher([]byte("other")).Hash("abcdefghijklmnopqrstuvwx")) {
		t.Error("the hash does not depend on the key")
	}
	if ValidateIssued("short") == nil || ValidateIssued(p) != nil {
		t.Error("ValidateIssued accepts a short password or rejects a generated one")
	}
}

func TestBasicCredentials(t *testing.T) {
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	tests := []struct {
		header     string
		user, pass string
		ok         bool
	}{
		{"Basic " + enc("admin:ab cd"), "admin", "ab cd", true},
		{"basic " + enc("a@b.c:x:y"), "a@b.c", "x:y", true},
		{"Basic " + enc("nocolon"), "nocolon", "", true},
		{"Basic !!!", "", "", false},
		{"Bearer abc", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		if tt.header != "" {
			r.Header.Set("Authorization", tt.header)
		}
		u, p, ok := BasicCredentials(r)
		if u != tt.user || p != tt.pass || ok != tt.ok {
			t.Errorf("%q: got %q %q %v", tt.header, u, p, ok)
		}
	}
}

func TestAuthenticateOutcomes(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	u, err := s.CreateUser(ctx, NewUser{Login: "Editor1", Email: "ed@example.com", Role: "editor"})
	if err != nil {
		t.Fatal(err)
	}
	plain, ap, err := s.CreatePassword(ctx, u.ID, "laptop", "")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := s.CreateUser(ctx, NewUser{Login: "other", Email: "other@example.com", Role: "author"})
	otherPlain, _, _ := s.CreatePassword(ctx, other.ID, "x", "")

	tests := []struct {
		name, login, password string
		wantErr               error
	}{
		{"login", "Editor1", plain, nil},
		{"login case-insensitive", "editor1", plain, nil},
		{"email", "ED@example.com", plain, nil},
		{"chunked with spaces", "Editor1", Chunk(plain), nil},
		{"dashes", "Editor1", strings.ReplaceAll(Chunk(plain), " ", "-"), nil},
		{"unknown username", "nobody", plain, ErrUnknownUsername},
		{"unknown email", "nobody@example.com", plain, ErrUnknownEmail},
		{"wrong password", "Editor1", GeneratePassword(), ErrBadPassword},
		{"another user's password", "Editor1", otherPlain, ErrBadPassword},
		{"empty password", "Editor1", "", ErrBadPassword},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Authenticate(ctx, tt.login, tt.password, "127.0.0.1")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr == nil && (got.ID != u.ID || got.Identity() != (identity.Identity{UserID: u.ID, Role: identity.Editor})) {
				t.Fatalf("user = %+v", got)
			}
		})
	}
	after, err := s.GetPassword(ctx, u.ID, ap.UUID)
	if err != nil || after.LastUsed == nil || after.LastIP == nil || *after.LastIP != "127.0.0.1" {
		t.Fatalf("last_used/last_ip not recorded: %+v %v", after, err)
	}
	if _, err := s.DeletePassword(ctx, u.ID, ap.UUID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, "Editor1", plain, ""); !errors.Is(err, ErrBadPassword) {
		t.Fatalf("revoked password still works: %v", err)
	}
}

func TestCreateUserConflictsAndValidation(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	if _, err := s.CreateUser(ctx, NewUser{Login: "alice", Email: "alice@example.com", Role: "author"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   NewUser
		want error
	}{
		{NewUser{Login: "ALICE", Email: "a2@example.com", Role: "author"}, ErrLoginTaken},
		{NewUser{Login: "alice2", Email: "Alice@Example.com", Role: "author"}, ErrEmailTaken},
		{NewUser{Login: "alice3", Email: "a3@example.com", Role: "author", Slug: "alice"}, ErrSlugTaken},
		{NewUser{Login: "bad<login>", Email: "b@example.com", Role: "author"}, ErrInvalidLogin},
		{NewUser{Login: "bob", Email: "not-an-email", Role: "author"}, ErrInvalidEmail},
		{NewUser{Login: "bob", Email: "bob@example.com", Role: "root"}, ErrInvalidRole},
	}
	for _, tt := range tests {
		if _, err := s.CreateUser(ctx, tt.in); !errors.Is(err, tt.want) {
			t.Errorf("%+v: err = %v, want %v", tt.in, err, tt.want)
		}
	}
}

func TestBootstrapIsIdempotentAndRotates(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	first := Admin{Login: "admin", Email: "admin@example.com", Password: GeneratePassword()}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = s.Bootstrap(ctx, first) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	u, err := s.Authenticate(ctx, "admin", first.Password, "")
	if err != nil || u.Role != identity.Administrator {
		t.Fatalf("bootstrap admin cannot log in: %+v %v", u, err)
	}
	if list, _ := s.ListPasswords(ctx, u.ID); len(list) != 1 {
		t.Fatalf("concurrent bootstraps left %d passwords, want 1", len(list))
	}
	// Demoted by someone, rotated Secret: role restored, old password gone.
	role := "subscriber"
	if _, err := s.UpdateUser(ctx, u.ID, UserPatch{Role: &role}); err != nil {
		t.Fatal(err)
	}
	second := first
	second.Password = GeneratePassword()
	if _, err := s.Bootstrap(ctx, second); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, "admin", first.Password, ""); !errors.Is(err, ErrBadPassword) {
		t.Fatalf("rotated-out password: err = %v", err)
	}
	if u, err := s.Authenticate(ctx, "admin", second.Password, ""); err != nil || u.Role != identity.Administrator {
		t.Fatalf("after rotation: %+v %v", u, err)
	}
	if _, err := s.Bootstrap(ctx, Admin{Login: "admin", Email: "admin@example.com", Password: "short"}); err == nil {
		t.Fatal("a short bootstrap password was accepted")
	}
}

func TestAdminFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	pw := GeneratePassword()
	if _, ok, err := AdminFromEnv(env(nil)); ok || err != nil {
		t.Fatalf("nothing configured: ok=%v err=%v", ok, err)
	}
	a, ok, err := AdminFromEnv(env(map[string]string{"SITEPLANE_ADMIN_USER": "admin", "SITEPLANE_ADMIN_EMAIL": "a@example.com", "SITEPLANE_ADMIN_PASSWORD": pw}))
	if !ok || err != nil || a.Password != pw {
		t.Fatalf("env: %+v %v %v", a, ok, err)
	}
	if _, _, err := AdminFromEnv(env(map[string]string{"SITEPLANE_ADMIN_USER": "admin"})); err == nil {
		t.Fatal("partial configuration accepted")
	}
	// A mounted Secret directory wins over the variables.
	dir := t.TempDir()
	for k, v := range map[string]string{"username": "root-admin", "email": "r@example.com", "application-password": Chunk(pw) + "\n"} {
		if err := os.WriteFile(filepath.Join(dir, k), []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a, ok, err = AdminFromEnv(env(map[string]string{"SITEPLANE_ADMIN_DIR": dir, "SITEPLANE_ADMIN_USER": "ignored"}))
	if !ok || err != nil || a.Login != "root-admin" || Normalize(a.Password) != pw {
		t.Fatalf("dir: %+v %v %v", a, ok, err)
	}
	os.Remove(filepath.Join(dir, "email"))
	if _, _, err := AdminFromEnv(env(map[string]string{"SITEPLANE_ADMIN_DIR": dir})); err == nil {
		t.Fatal("a Secret directory without email accepted")
	}
}

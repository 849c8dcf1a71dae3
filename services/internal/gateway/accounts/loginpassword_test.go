package accounts

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestBootstrapLoginPassword(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	a := Admin{Login: "admin", Email: "admin@example.com", Password: GeneratePassword()}
	// No login password configured: none is set.
	if _, err := s.Bootstrap(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CheckLoginPassword(ctx, "admin", ""); !errors.Is(err, ErrBadLogin) {
		t.Fatalf("login without a password: %v", err)
	}
	a.LoginPassword = "first login password"
	if _, err := s.Bootstrap(ctx, a); err != nil {
		t.Fatal(err)
	}
	if u, err := s.CheckLoginPassword(ctx, "ADMIN@example.com", "first login password"); err != nil || u.Login != "admin" {
		t.Fatalf("bootstrap login password (by email): %+v %v", u, err)
	}
	// Changed through the API, then the configured one is re-applied.
	if err := s.SetLoginPassword(ctx, 1, "changed"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Bootstrap(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CheckLoginPassword(ctx, "admin", "first login password"); err != nil {
		t.Fatalf("configured password not re-applied: %v", err)
	}
	if _, err := s.CheckLoginPassword(ctx, "admin", "changed"); !errors.Is(err, ErrBadLogin) {
		t.Fatalf("old password still works: %v", err)
	}
	// Application passwords are not login passwords, and the reverse.
	if _, err := s.CheckLoginPassword(ctx, "admin", a.Password); !errors.Is(err, ErrBadLogin) {
		t.Fatal("an application password signs in at the login page")
	}
	if _, err := s.Authenticate(ctx, "admin", a.LoginPassword, ""); err == nil {
		t.Fatal("the login password works as an application password")
	}
	a.LoginPassword = `back\slash`
	if _, err := s.Bootstrap(ctx, a); err == nil {
		t.Fatal("an invalid bootstrap login password was accepted")
	}
}

func TestAdminFromEnvLoginPassword(t *testing.T) {
	pw := GeneratePassword()
	env := map[string]string{"SITEPLANE_ADMIN_USER": "admin", "SITEPLANE_ADMIN_EMAIL": "a@example.com", "SITEPLANE_ADMIN_PASSWORD": pw,
		"SITEPLANE_ADMIN_LOGIN_PASSWORD": "typed"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	if a, ok, err := AdminFromEnv(lookup); !ok || err != nil || a.LoginPassword != "typed" {
		t.Fatalf("env: %+v %v %v", a, ok, err)
	}
	dir := t.TempDir()
	for k, v := range map[string]string{"username": "admin", "email": "a@example.com", "application-password": pw} {
		os.WriteFile(filepath.Join(dir, k), []byte(v), 0o600)
	}
	env = map[string]string{"SITEPLANE_ADMIN_DIR": dir}
	if a, _, err := AdminFromEnv(lookup); err != nil || a.LoginPassword != "" {
		t.Fatalf("Secret without login-password: %+v %v", a, err)
	}
	os.WriteFile(filepath.Join(dir, "login-password"), []byte("  spaced phrase \n"), 0o600)
	if a, _, err := AdminFromEnv(lookup); err != nil || a.LoginPassword != "  spaced phrase " {
		t.Fatalf("Secret with login-password: %+v %v", a, err)
	}
}

func TestSessionsExpireAndEnd(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	u, err := s.CreateUser(ctx, NewUser{Login: "u", Email: "u@example.com", Role: "author", Password: "pw"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	s.SetClock(func() time.Time { return now })
	token, sess, err := s.CreateSession(ctx, u.ID, time.Hour, "192.0.2.1")
	if err != nil || sess.User.ID != u.ID {
		t.Fatal(err)
	}
	if got, err := s.SessionByToken(ctx, token); err != nil || got.User.Login != "u" {
		t.Fatalf("live session: %+v %v", got, err)
	}
	if _, err := s.SessionByToken(ctx, token+"x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("wrong token: %v", err)
	}
	now = now.Add(61 * time.Minute)
	if _, err := s.SessionByToken(ctx, token); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired session: %v", err)
	}
	// A new session sweeps expired rows; the table never holds the token.
	token2, _, _ := s.CreateSession(ctx, u.ID, time.Hour, "")
	var n int
	var stored []byte
	if err := s.pool.QueryRow(ctx, `SELECT count(*) OVER (), token_hash FROM sessions`).Scan(&n, &stored); err != nil {
		t.Fatal(err)
	}
	if n != 1 || string(stored) == token2 || string(stored) != string(HashToken(token2)) {
		t.Fatalf("sessions table: %d rows", n)
	}
	if err := s.DeleteSession(ctx, token2); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionByToken(ctx, token2); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted session: %v", err)
	}
}

func TestThrottleCountsIPv6ByPrefix(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	th := Throttle{Window: time.Minute, PerAccount: 100, PerAddress: 2}
	s.RecordFailure(ctx, th, "a", "2001:db8:1:2::1")
	s.RecordFailure(ctx, th, "b", "2001:db8:1:2:ffff::9")
	if wait, err := s.Locked(ctx, th, "c", "2001:db8:1:2::77"); err != nil || wait <= 0 {
		t.Fatalf("same /64 not locked: %v %v", wait, err)
	}
	if wait, _ := s.Locked(ctx, th, "c", "2001:db8:1:3::1"); wait != 0 {
		t.Fatal("another /64 is locked")
	}
	if wait, _ := s.Locked(ctx, th, "c", "192.0.2.1"); wait != 0 {
		t.Fatal("an IPv4 client is locked")
	}
}

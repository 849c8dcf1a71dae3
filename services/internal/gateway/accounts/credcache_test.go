package accounts

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/postgres"
)

// credFixture is a store with one editor and one application password,
// and a credential cache in front of it (online unless said otherwise).
type credFixture struct {
	s     *Store
	c     *CredentialCache
	user  User
	plain string
	uuid  string
}

func newCredFixture(t *testing.T, limit int) *credFixture {
	t.Helper()
	s := newStore(t)
	ctx := context.Background()
	u, err := s.CreateUser(ctx, NewUser{Login: "cached", Email: "cached@example.com", Role: "editor"})
	if err != nil {
		t.Fatal(err)
	}
	plain, ap, err := s.CreatePassword(ctx, u.ID, "laptop", "")
	if err != nil {
		t.Fatal(err)
	}
	c := NewCredentialCache(s, limit, 30*time.Second)
	c.SetOnline(true)
	return &credFixture{s: s, c: c, user: u, plain: plain, uuid: ap.UUID}
}

func (f *credFixture) check(t *testing.T, password string) error {
	t.Helper()
	u, uuid, err := f.c.AuthenticatePassword(context.Background(), "cached", password, "127.0.0.1")
	if err == nil && (u.ID != f.user.ID || u.Role != f.user.Role || uuid != f.uuid) {
		t.Fatalf("verified as %+v (%s), want %+v (%s)", u, uuid, f.user, f.uuid)
	}
	return err
}

// revokeBehindItsBack deletes the password with plain SQL, as another
// process would: only a notification tells the cache.
func (f *credFixture) revokeBehindItsBack(t *testing.T) {
	t.Helper()
	if _, err := f.s.pool.Exec(context.Background(), `DELETE FROM application_passwords WHERE uuid = $1::uuid`, f.uuid); err != nil {
		t.Fatal(err)
	}
}

func TestCredentialCacheKeepsOnlySuccessesUntilInvalidated(t *testing.T) {
	f := newCredFixture(t, 100)
	if err := f.check(t, f.plain); err != nil {
		t.Fatal(err)
	}
	if f.c.Len() != 1 {
		t.Fatalf("%d credentials kept, want 1", f.c.Len())
	}
	// failures go to the database every time and are never kept
	wrong := GeneratePassword()
	for range 2 {
		if err := f.check(t, wrong); !errors.Is(err, ErrBadPassword) {
			t.Fatalf("wrong password: %v", err)
		}
	}
	if _, _, err := f.c.AuthenticatePassword(context.Background(), "nobody", f.plain, ""); !errors.Is(err, ErrUnknownUsername) {
		t.Fatalf("unknown user with a valid password: %v", err)
	}
	if f.c.Len() != 1 {
		t.Fatalf("%d credentials kept after failures, want 1", f.c.Len())
	}
	// the kept credential answers without the database ...
	f.revokeBehindItsBack(t)
	if err := f.check(t, f.plain); err != nil {
		t.Fatalf("kept credential not answered from the cache: %v", err)
	}
	// ... until a change is heard
	f.c.Invalidate()
	if err := f.check(t, f.plain); !errors.Is(err, ErrBadPassword) {
		t.Fatalf("revoked password after Invalidate: %v", err)
	}
}

func TestCredentialCacheOwnWritesInvalidate(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		write func(f *credFixture) error
		// the credential's answer after the write
		wantErr  error
		wantRole string
	}{
		{"revoke the password", func(f *credFixture) error { _, err := f.s.DeletePassword(ctx, f.user.ID, f.uuid); return err },
			ErrBadPassword, ""},
		{"revoke every password", func(f *credFixture) error { _, err := f.s.DeleteAllPasswords(ctx, f.user.ID); return err },
			ErrBadPassword, ""},
		{"delete the user", func(f *credFixture) error { _, err := f.s.DeleteUser(ctx, f.user.ID); return err },
			ErrUnknownUsername, ""},
		{"change the role", func(f *credFixture) error {
			role := "author"
			_, err := f.s.UpdateUser(ctx, f.user.ID, UserPatch{Role: &role})
			return err
		}, nil, "author"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newCredFixture(t, 100)
			if err := f.check(t, f.plain); err != nil {
				t.Fatal(err)
			}
			if err := tt.write(f); err != nil {
				t.Fatal(err)
			}
			u, _, err := f.c.AuthenticatePassword(ctx, "cached", f.plain, "")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("after the write: %v, want %v", err, tt.wantErr)
			}
			if tt.wantRole != "" && string(u.Role) != tt.wantRole {
				t.Fatalf("role %q after the write, want %q", u.Role, tt.wantRole)
			}
		})
	}
}

func TestCredentialCacheOfflineAndExpiry(t *testing.T) {
	f := newCredFixture(t, 100)
	// offline (as it starts): nothing is kept, every check reads the database
	f.c.SetOnline(false)
	if err := f.check(t, f.plain); err != nil || f.c.Len() != 0 {
		t.Fatalf("offline: %v, %d kept", err, f.c.Len())
	}
	f.c.SetOnline(true)
	if err := f.check(t, f.plain); err != nil || f.c.Len() != 1 {
		t.Fatalf("online: %v, %d kept", err, f.c.Len())
	}
	// going offline forgets (a change may go unheard from now on)
	f.c.SetOnline(false)
	if f.c.Len() != 0 {
		t.Fatal("going offline kept credentials")
	}
	f.c.SetOnline(true)

	// a kept credential is checked again once its usage is due to be
	// recorded (a minute after last_used) or its TTL ends, whichever first
	now := time.Now()
	f.s.SetClock(func() time.Time { return now })
	if err := f.check(t, f.plain); err != nil {
		t.Fatal(err)
	}
	f.revokeBehindItsBack(t)
	now = now.Add(29 * time.Second)
	if err := f.check(t, f.plain); err != nil {
		t.Fatalf("within the TTL: %v", err)
	}
	now = now.Add(2 * time.Second)
	if err := f.check(t, f.plain); !errors.Is(err, ErrBadPassword) {
		t.Fatalf("past the TTL: %v", err)
	}
}

func TestCredentialCacheIsBounded(t *testing.T) {
	f := newCredFixture(t, 2)
	ctx := context.Background()
	for i := range 4 {
		plain, _, err := f.s.CreatePassword(ctx, f.user.ID, "p", "")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.c.AuthenticatePassword(ctx, "cached", plain, ""); err != nil {
			t.Fatalf("password %d: %v", i, err)
		}
		if f.c.Len() > 2 {
			t.Fatalf("%d credentials kept, limit 2", f.c.Len())
		}
	}
}

// Another process's change reaches the cache through the database: the
// gateway's tables notify on the control channel (migration 0006) and a
// listener that invalidates on the gateway's payload, as the gateway's
// does, makes the next check go to the database. Recording a password's
// use does not notify.
func TestCredentialCacheHearsOtherWriters(t *testing.T) {
	f := newCredFixture(t, 100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := f.s.pool.Config().ConnConfig.Copy()
	heard := make(chan string, 16)
	online := make(chan bool, 4)
	l := &postgres.ChangeListener{
		Connect: func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, cfg) },
		Online:  func(on bool) { f.c.SetOnline(on); online <- on },
		// the marker on the change channel; credentials on the control
		// channel (migration 0006), as the gateway's hookup hears them
		Changed: func(payload string) {
			if payload == "marker" {
				heard <- payload
			}
		},
		Control: func(payload string) {
			if payload == "gateway" {
				f.c.Invalidate()
			}
			heard <- payload
		},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Name: "credentials"}
	go l.Run(ctx)
	select {
	case <-online:
	case <-time.After(10 * time.Second):
		t.Fatal("listener not online")
	}
	if err := f.check(t, f.plain); err != nil {
		t.Fatal(err)
	}
	// the usage bookkeeping of that check announced nothing
	if _, err := f.s.pool.Exec(context.Background(), `UPDATE application_passwords SET last_used = now(), last_ip = 'x', name = 'renamed'`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.pool.Exec(context.Background(), `SELECT pg_notify('siteplane_changes', 'marker')`); err != nil {
		t.Fatal(err)
	}
	if p := <-heard; p != "marker" {
		t.Fatalf("recording a use announced %q", p)
	}
	if f.c.Len() != 1 {
		t.Fatal("the credential was dropped by a use's bookkeeping")
	}
	f.revokeBehindItsBack(t)
	select {
	case p := <-heard:
		if p != "gateway" {
			t.Fatalf("heard %q", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the revocation was not announced")
	}
	if err := f.check(t, f.plain); !errors.Is(err, ErrBadPassword) {
		t.Fatalf("password revoked by another writer still accepted: %v", err)
	}
}

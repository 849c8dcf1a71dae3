package service_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/internal/platform/service/servicetest"
	"siteplane.dev/services/pkg/contract"
)

func TestRunReportsEveryConfigurationProblem(t *testing.T) {
	err := servicetest.Run(service.Options{Name: "svc", Migrations: fstest.MapFS{}}, map[string]string{
		contract.EnvShutdownTimeout: "soon",
	}, func(context.Context, *service.Env) error { return nil })
	if err == nil {
		t.Fatal("expected a configuration error")
	}
	for _, want := range []string{contract.EnvDatabaseURL, contract.EnvInternalKey, contract.EnvShutdownTimeout} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}

// TestRunServesWithIdentityAndDatabase starts a service the way main does and
// checks migrations, readiness, and that handlers see the signed identity.
func TestRunServesWithIdentityAndDatabase(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	key := "test-internal-key"
	migrations := fstest.MapFS{"0001_init.up.sql": {Data: []byte("CREATE TABLE thing (id int);")}}
	base := servicetest.Start(t, service.Options{Name: "svc", Migrations: migrations}, map[string]string{
		contract.EnvDatabaseURL: dsn, contract.EnvInternalKey: key,
	}, func(ctx context.Context, env *service.Env) error {
		env.Router.HandleFunc("/whoami", func(w http.ResponseWriter, r *http.Request) {
			id := identity.FromContext(r.Context())
			var n int
			if err := env.Pool.QueryRow(r.Context(), "SELECT count(*) FROM thing").Scan(&n); err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			io.WriteString(w, string(id.Role))
		})
		return nil
	})

	do := func(header string) (int, string) {
		req, _ := http.NewRequest("GET", base+"/whoami", nil)
		if header != "" {
			req.Header.Set(contract.IdentityHeader, header)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	exp := time.Now().Add(time.Minute)
	tests := []struct {
		name   string
		header string
		status int
		body   string
	}{
		{"anonymous", "", 200, ""},
		{"signed editor", identity.Sign(identity.NewKey([]byte(key)), "svc", identity.Identity{UserID: 2, Role: identity.Editor}, exp), 200, "editor"},
		{"forged", identity.Sign(identity.NewKey([]byte("other")), "svc", identity.Identity{UserID: 1, Role: identity.Administrator}, exp), 401, "rest_invalid_identity"},
		{"for another service", identity.Sign(identity.NewKey([]byte(key)), "media", identity.Identity{UserID: 1, Role: identity.Administrator}, exp), 401, "rest_invalid_identity"},
		{"valid until 2100", identity.Sign(identity.NewKey([]byte(key)), "svc", identity.Identity{UserID: 1, Role: identity.Administrator},
			time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)), 401, "rest_invalid_identity"},
	}
	for _, tt := range tests {
		status, body := do(tt.header)
		if status != tt.status || !strings.Contains(body, tt.body) {
			t.Errorf("%s: %d %q, want %d containing %q", tt.name, status, body, tt.status, tt.body)
		}
	}
	readyz := func() int {
		res, err := http.Get(base + contract.ReadyzPath)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := readyz(); code != 200 {
		t.Fatalf("readyz = %d, want 200", code)
	}
	// Readiness means "migrated", not just "reachable": a schema left dirty
	// by a failed migration takes the service out of rotation.
	pool, err := postgres.Open(context.Background(), dsn, "svc")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(context.Background(), "UPDATE schema_migrations SET dirty = true"); err != nil {
		t.Fatal(err)
	}
	if code := readyz(); code != 503 {
		t.Fatalf("readyz with a dirty schema = %d, want 503", code)
	}
}

// A service that takes no identities (the marketplace) starts without an
// internal key and never lets a handler see an identity header.
func TestNoIdentityServiceNeedsNoKey(t *testing.T) {
	base := servicetest.Start(t, service.Options{Name: "mp", NoIdentity: true}, map[string]string{}, func(ctx context.Context, env *service.Env) error {
		if env.Keys != nil {
			t.Error("a NoIdentity service got keys")
		}
		env.Router.HandleFunc("/h", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "["+r.Header.Get(contract.IdentityHeader)+"]")
		})
		return nil
	})
	req, _ := http.NewRequest("GET", base+"/h", nil)
	req.Header.Set(contract.IdentityHeader, "anything")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || string(b) != "[]" {
		t.Fatalf("%d %q, want 200 and no header", res.StatusCode, b)
	}
}

// The internal key is read from its file and re-read there: a rotation
// written to the mounted files is accepted without a restart.
func TestInternalKeyFileIsReread(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, contract.InternalKeySecretKey)
	if err := os.WriteFile(path, []byte("first-key"), 0o600); err != nil {
		t.Fatal(err)
	}
	var keys identity.Keys
	servicetest.Start(t, service.Options{Name: "svc"}, map[string]string{contract.EnvInternalKeyFile: path},
		func(ctx context.Context, env *service.Env) error { keys = env.Keys; return nil })
	if got := keys.Keyring().Current.ID; got != identity.NewKey([]byte("first-key")).ID {
		t.Fatalf("current key %s", got)
	}
	if _, ok := keys.(*identity.FileKeys); !ok {
		t.Fatalf("keys from a file are %T, want *identity.FileKeys (re-read)", keys)
	}
}

// TestIdentityMetricsAndPropagationDelay: the propagation delay of the
// environment reaches the keyring, and every identity header checked is
// counted, verified ones by the id of the key that signed them.
func TestIdentityMetricsAndPropagationDelay(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, contract.InternalKeySecretKey)
	if err := os.WriteFile(path, []byte("the-key"), 0o600); err != nil {
		t.Fatal(err)
	}
	var env *service.Env
	base := servicetest.Start(t, service.Options{Name: "svc"}, map[string]string{
		contract.EnvInternalKeyFile: path, contract.EnvInternalKeyPropagationDelay: "45s",
	}, func(ctx context.Context, e *service.Env) error {
		env = e
		e.Router.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) {})
		return nil
	})
	if d := env.Keys.Keyring().Delay; d != 45*time.Second {
		t.Errorf("keyring delay %s, want the configured 45s", d)
	}
	key := identity.NewKey([]byte("the-key"))
	exp := time.Now().Add(time.Minute)
	for _, h := range []string{
		identity.Sign(key, "svc", identity.Identity{UserID: 2, Role: identity.Editor}, exp),
		identity.Sign(key, "svc", identity.Identity{UserID: 3, Role: identity.Author}, exp),
		identity.Sign(identity.NewKey([]byte("other")), "svc", identity.Identity{UserID: 1, Role: identity.Administrator}, exp),
	} {
		req, _ := http.NewRequest("GET", base+"/x", nil)
		req.Header.Set(contract.IdentityHeader, h)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	families, err := env.Server.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			name := f.GetName()
			for _, l := range m.GetLabel() {
				name += "," + l.GetName() + "=" + l.GetValue()
			}
			got[name] = m.GetCounter().GetValue()
		}
	}
	for name, want := range map[string]float64{
		"siteplane_identity_verified_total,key_id=" + key.ID + ",service=svc": 2,
		"siteplane_identity_rejected_total,reason=unknown_key,service=svc":    1,
	} {
		if got[name] != want {
			t.Errorf("%s = %v, want %v", name, got[name], want)
		}
	}

	for _, bad := range []string{"2s", "1h", "soon"} {
		err := servicetest.Run(service.Options{Name: "svc"}, map[string]string{
			contract.EnvInternalKeyFile: path, contract.EnvInternalKeyPropagationDelay: bad,
		}, func(context.Context, *service.Env) error { return nil })
		if err == nil || !strings.Contains(err.Error(), contract.EnvInternalKeyPropagationDelay) {
			t.Errorf("delay %q: %v, want a configuration error naming %s", bad, err, contract.EnvInternalKeyPropagationDelay)
		}
	}
}

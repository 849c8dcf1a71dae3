package devstack

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"siteplane.dev/services/internal/platform/service"
)

func TestWithDatabase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "postgres://postgres@127.0.0.1:5432/siteplane?sslmode=disable"},
		{"postgres://u@h:1/x", "postgres://u@h:1/siteplane"},
	}
	for _, tt := range tests {
		if got := withDatabase(tt.in, "siteplane"); got != tt.want {
			t.Errorf("withDatabase(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The env file must be sourceable by a POSIX shell and give back each value
// unchanged, whatever characters it holds.
func TestEnvFileIsSourceable(t *testing.T) {
	s := Summary{GatewayURL: "http://127.0.0.1:8080", RESTRoot: "http://127.0.0.1:8080/cms-json",
		AdminUser: "admin", AdminAppPassword: "abc'def $x", MarketplaceKey: "k",
		ServiceURLs: map[string]string{"content": "http://127.0.0.1:1"}}
	path := filepath.Join(t.TempDir(), "env")
	if err := os.WriteFile(path, []byte(s.EnvFile()), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("sh", "-c", `. "$0" && printf '%s|%s|%s' "$ADMIN_APP_PASSWORD" "$CONTENT_URL" "$REST_ROOT"`, path).Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), "abc'def $x|http://127.0.0.1:1|http://127.0.0.1:8080/cms-json"; got != want {
		t.Fatalf("sourced %q, want %q", got, want)
	}
}

func TestSecretsPersist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run", "secrets.json")
	a, err := LoadOrCreateSecrets(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadOrCreateSecrets(path)
	if err != nil || a != b {
		t.Fatalf("second load = %+v, %v; want the first run's secrets", b, err)
	}
	if len(a.AdminAppPassword) != 24 || strings.Trim(a.AdminAppPassword, alphanumerics) != "" {
		t.Fatalf("application password %q is not 24 alphanumerics", a.AdminAppPassword)
	}
	if len(a.AdminLoginPassword) != 20 || a.AdminLoginPassword == a.AdminAppPassword {
		t.Fatalf("login password %q: want 20 fresh characters", a.AdminLoginPassword)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("secrets file mode %v, want 0600", fi.Mode().Perm())
	}
}

// Only the allow-listed tuning variables reach the services, and a tuning
// value comes after the supervisor's own so that it is the one used.
func TestTuningEnv(t *testing.T) {
	shell := map[string]string{
		"SITEPLANE_VALIDATION_RATE_PER_MINUTE": "100000",
		"SITEPLANE_LOG_LEVEL":                  "debug",
		"SITEPLANE_DATABASE_URL":               "postgres://elsewhere",
		"SITEPLANE_INTERNAL_KEY":               "secret",
		"HTTP_PROXY":                           "http://proxy",
	}
	lookup := func(k string) (string, bool) { v, ok := shell[k]; return v, ok }
	got := tuningEnv(lookup)
	want := []string{"SITEPLANE_VALIDATION_RATE_PER_MINUTE=100000", "SITEPLANE_LOG_LEVEL=debug"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("tuningEnv = %q, want %q", got, want)
	}

	// The child sees the last value of a repeated key.
	out, err := RunOutput(t.Context(), "sh", []string{"-c", `printf %s "$SITEPLANE_LOG_LEVEL"`},
		append([]string{"SITEPLANE_LOG_LEVEL=info"}, got...), os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if out != "debug" {
		t.Fatalf("child saw SITEPLANE_LOG_LEVEL=%q, want debug", out)
	}
}

// The media storage settings (S3 credentials included) are picked for the
// media service alone, and nothing else with them.
func TestMediaStorageEnv(t *testing.T) {
	shell := map[string]string{
		"SITEPLANE_MEDIA_STORAGE":              "s3",
		"SITEPLANE_MEDIA_S3_BUCKET":            "media",
		"SITEPLANE_MEDIA_S3_SECRET_ACCESS_KEY": "secret",
		"SITEPLANE_LOG_LEVEL":                  "debug",
		"SITEPLANE_MEDIA_DIR":                  "/elsewhere",
	}
	lookup := func(k string) (string, bool) { v, ok := shell[k]; return v, ok }
	got := strings.Join(mediaStorageEnv(lookup), " ")
	want := "SITEPLANE_MEDIA_STORAGE=s3 SITEPLANE_MEDIA_S3_BUCKET=media SITEPLANE_MEDIA_S3_SECRET_ACCESS_KEY=secret"
	if got != want {
		t.Fatalf("mediaStorageEnv = %q, want %q", got, want)
	}
	if tuning := strings.Join(tuningEnv(lookup), " "); strings.Contains(tuning, "MEDIA") {
		t.Fatalf("tuningEnv passes media settings to every service: %q", tuning)
	}
}

// The pprof variable is spelled out in TuningEnv to keep the supervisor free
// of the service package; it must stay the service's name for it.
func TestTuningEnvNamesPprof(t *testing.T) {
	for _, k := range TuningEnv {
		if k == service.EnvPprofAddr {
			return
		}
	}
	t.Fatalf("TuningEnv %q lacks %s", TuningEnv, service.EnvPprofAddr)
}

// The test instance trades durability for speed; Durable tells it apart
// from make run's (checked end to end in test/devstack).
func TestDurableSeesTheTestInstanceIsNot(t *testing.T) {
	dsn := os.Getenv("SITEPLANE_TEST_DATABASE_URL")
	if dsn == "" {
		t.Skip("SITEPLANE_TEST_DATABASE_URL is not set")
	}
	durable, err := Durable(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	if durable {
		t.Fatal("the test instance reports durability on: hack/postgres.sh no longer tells the instances apart")
	}
}

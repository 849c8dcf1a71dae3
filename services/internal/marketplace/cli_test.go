package marketplace

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/pkg/contract"
)

// TestCommands runs the subcommands as the binary does, against one
// database, in order: seed-demo twice, key management, import.
func TestCommands(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	env := func(k string) (string, bool) {
		if k == contract.EnvDatabaseURL {
			return dsn, true
		}
		return "", false
	}
	run := func(args ...string) (code int, stdout, stderr string) {
		var out, errb bytes.Buffer
		code = Command(context.Background(), args, env, &out, &errb)
		return code, out.String(), errb.String()
	}
	keyRE := regexp.MustCompile(`^mkt_[0-9a-f]{40}\n$`)

	_, key1, _ := run("seed-demo")
	code, key2, stderr := run("seed-demo")
	if code != 0 || !keyRE.MatchString(key1) || !keyRE.MatchString(key2) || key1 == key2 {
		t.Fatalf("seed-demo: code %d, stdout %q then %q (stderr %s): want a fresh key alone on stdout each time", code, key1, key2, stderr)
	}
	if strings.Contains(stderr, strings.TrimSpace(key2)) {
		t.Fatal("seed-demo logged the key")
	}

	pool, err := OpenDatabase(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var items int
	var kinds []string
	var supported, unsupported int
	err = pool.QueryRow(context.Background(), `SELECT count(*), array_agg(DISTINCT media_kind ORDER BY media_kind),
		(SELECT count(*) FROM purchases WHERE supported_until IS NOT NULL), (SELECT count(*) FROM purchases WHERE supported_until IS NULL)
		FROM items i JOIN accounts a ON a.id = i.account_id WHERE a.username = $1`, DemoAccount).Scan(&items, &kinds, &supported, &unsupported)
	if err != nil {
		t.Fatal(err)
	}
	if items != 20 || strings.Join(kinds, ",") != "audio,image,video" || supported == 0 || unsupported == 0 {
		t.Fatalf("demo data after two seeds: %d items of kinds %v, %d supported and %d unsupported purchases", items, kinds, supported, unsupported)
	}

	file := filepath.Join(t.TempDir(), "import.json")
	if err := os.WriteFile(file, []byte(importBase), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"accounts": [{"username": ""}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args      []string
		code      int
		stdout    *regexp.Regexp
		stderrHas string
	}{
		{[]string{}, 2, regexp.MustCompile(`^$`), "usage:"},
		{[]string{"frobnicate"}, 2, regexp.MustCompile(`^$`), `unknown subcommand "frobnicate"`},
		{[]string{"import", file}, 0, regexp.MustCompile(`^imported 1 account\(s\), 1 item\(s\), 1 purchase\(s\)\n$`), ""},
		{[]string{"import", bad}, 1, regexp.MustCompile(`^$`), "accounts[0] (): username"},
		{[]string{"import", "/nonexistent.json"}, 1, regexp.MustCompile(`^$`), "no such file"},
		{[]string{"key", "create"}, 2, regexp.MustCompile(`^$`), "needs --account"},
		{[]string{"key", "create", "--account", "nobody"}, 1, regexp.MustCompile(`^$`), `account "nobody" does not exist`},
		{[]string{"key", "create", "--account", "dave", "--name", "ci"}, 0, keyRE, `"name":"ci"`},
		{[]string{"key", "list", "--account", "dave"}, 0, regexp.MustCompile(`(?s)^ID +PREFIX +NAME +CREATED +REVOKED\n\d+ +mkt_[0-9a-f]{8} +ci +\S+Z +-\n$`), ""},
		{[]string{"key", "revoke", "mkt_nothing"}, 1, regexp.MustCompile(`^$`), "no active key"},
		{[]string{"key", "revoke"}, 2, regexp.MustCompile(`^$`), "one PREFIX-or-ID"},
		{[]string{"key", "list", "--account", DemoAccount}, 0, regexp.MustCompile(`(?m)^\d+ +mkt_\w{8} +seed-demo-\d{8}-\d{6} `), ""},
	}
	var daveKey string
	for _, s := range steps {
		code, out, errOut := run(s.args...)
		if code != s.code || !s.stdout.MatchString(out) || !strings.Contains(errOut, s.stderrHas) {
			t.Fatalf("marketplace %v: code %d stdout %q stderr %q; want code %d, stdout /%s/, stderr containing %q",
				s.args, code, out, errOut, s.code, s.stdout, s.stderrHas)
		}
		if len(s.args) > 1 && s.args[1] == "create" && code == 0 {
			daveKey = strings.TrimSpace(out)
		}
	}
	code, out, errOut := run("key", "revoke", displayPrefix(daveKey))
	if code != 0 || !strings.Contains(out, "revoked key") || !strings.Contains(out, "of dave") {
		t.Fatalf("revoke: %d %q %q", code, out, errOut)
	}
	var revoked bool
	if err := pool.QueryRow(context.Background(), `SELECT revoked_at IS NOT NULL FROM api_keys WHERE prefix = $1`,
		displayPrefix(daveKey)).Scan(&revoked); err != nil || !revoked {
		t.Fatalf("key not revoked in the database (%v)", err)
	}
}

func TestCommandNeedsDatabase(t *testing.T) {
	var out, errb bytes.Buffer
	code := Command(context.Background(), []string{"seed-demo"}, func(string) (string, bool) { return "", false }, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), contract.EnvDatabaseURL) {
		t.Fatalf("code %d, stderr %q: want 1 naming %s", code, errb.String(), contract.EnvDatabaseURL)
	}
}

// TestSecretsStayOutOfLogs runs requests carrying keys and codes in every
// placement and checks that neither appears in the logs, even on errors.
func TestSecretsStayOutOfLogs(t *testing.T) {
	e := newTestEnv(t, Config{ValidationsPerMinute: 2})
	key := e.keys["alice"]
	codes := []string{"ALICE-SUPPORTED-0001", "SECRET-GUESS-12345", "ANOTHER-GUESS-6789"}
	for _, placement := range []string{"query", "form", "json", "bearer"} {
		for _, c := range codes {
			e.do(req{method: "POST", path: PathPurchase, placement: placement, params: map[string]any{"api_key": key, "purchase_code": c}})
		}
		e.do(req{path: PathItem, placement: placement, params: map[string]any{"api_key": key, "item_id": "x"}})
		e.do(req{path: PathAccount, placement: placement, params: map[string]any{"api_key": key + "-wrong"}})
	}
	logs := e.logs.String()
	if !strings.Contains(logs, `"status":429`) || !strings.Contains(logs, displayPrefix(key)) {
		t.Fatalf("the test did not exercise the logged paths:\n%s", logs)
	}
	for _, secret := range append(codes, key) {
		if strings.Contains(logs, secret) {
			t.Fatalf("the logs contain %q", secret)
		}
	}
}

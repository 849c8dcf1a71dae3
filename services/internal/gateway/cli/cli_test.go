package cli

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/pkg/contract"
)

func TestCommands(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	env := func(k string) (string, bool) {
		switch k {
		case contract.EnvDatabaseURL:
			return dsn, true
		case contract.EnvInternalKey:
			return "cli-test-key", true
		}
		return "", false
	}
	run := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		if code := Command(context.Background(), args, env, &out, &errOut); code != 0 {
			return out.String(), fmt.Errorf("exit %d: %s", code, errOut.String())
		}
		return out.String(), nil
	}
	if out, err := run("user", "create", "--login", "ed", "--email", "ed@example.com", "--role", "editor"); err != nil || !strings.Contains(out, "created user 1 ed (editor)") {
		t.Fatalf("user create: %q %v", out, err)
	}
	if _, err := run("user", "create", "--login", "ed", "--email", "other@example.com", "--role", "editor"); err == nil {
		t.Fatal("duplicate login accepted")
	}
	if _, err := run("user", "create", "--login", "x", "--email", "x@example.com", "--role", "root"); err == nil {
		t.Fatal("unknown role accepted")
	}
	out, err := run("app-password", "create", "--user", "ed@example.com", "--name", "laptop")
	pw := regexp.MustCompile(`password: ([A-Za-z0-9]{24})\n`).FindStringSubmatch(out)
	uuid := regexp.MustCompile(`uuid: ([0-9a-f-]{36})\n`).FindStringSubmatch(out)
	if err != nil || pw == nil || uuid == nil {
		t.Fatalf("app-password create: %q %v", out, err)
	}
	out, err = run("app-password", "list", "--user", "ed")
	if err != nil || !strings.Contains(out, uuid[1]) || !strings.Contains(out, "laptop") || strings.Contains(out, pw[1]) {
		t.Fatalf("list (must never show the password): %q %v", out, err)
	}
	if out, err := run("app-password", "revoke", "--user", "ed", "--uuid", uuid[1]); err != nil || !strings.Contains(out, "revoked") {
		t.Fatalf("revoke: %q %v", out, err)
	}
	if _, err := run("app-password", "revoke", "--user", "ed", "--uuid", uuid[1]); err == nil {
		t.Fatal("revoking twice succeeded")
	}
	if _, err := run("app-password", "list", "--user", "ghost"); err == nil {
		t.Fatal("unknown user accepted")
	}
	if _, err := run("frobnicate", "now"); err == nil {
		t.Fatal("unknown command accepted")
	}
}

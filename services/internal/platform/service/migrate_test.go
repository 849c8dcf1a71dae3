package service_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/pkg/contract"
)

// `<service> migrate --force-version N` is the documented recovery from a
// dirty schema: the service refuses to migrate over it until then.
func TestMigrateCommandForceVersion(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	opts := service.Options{Name: "svc", Migrations: fstest.MapFS{
		"0001_a.up.sql": {Data: []byte("CREATE TABLE a (id int);")},
		"0002_b.up.sql": {Data: []byte("CREATE TABLE b (id int);")},
	}}
	lookup := func(k string) (string, bool) {
		if k == contract.EnvDatabaseURL {
			return dsn, true
		}
		return "", false
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := service.MigrateCommand(context.Background(), opts, args, lookup, &out, &errb)
		return code, out.String(), errb.String()
	}
	if code, out, errs := run(); code != 0 || !strings.Contains(out, "version 2 of 2, dirty=false") {
		t.Fatalf("migrate: %d %q %q", code, out, errs)
	}
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "UPDATE svc.schema_migrations SET version = 1, dirty = true"); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(); code != 1 || !strings.Contains(errs, "--force-version") {
		t.Fatalf("migrate over a dirty schema: %d %q", code, errs)
	}
	if code, out, errs := run("--force-version", "2"); code != 0 || !strings.Contains(out, "version 2 of 2, dirty=false") {
		t.Fatalf("--force-version 2: %d %q %q", code, out, errs)
	}
	if code, out, _ := run("--status"); code != 0 || !strings.Contains(out, "version 2 of 2") {
		t.Fatalf("--status: %d %q", code, out)
	}
	if code, _, _ := run("--force-version", "x"); code != 2 {
		t.Fatalf("bad flag: %d, want 2", code)
	}
}

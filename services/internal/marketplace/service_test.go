package marketplace

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/service/servicetest"
	"siteplane.dev/services/pkg/contract"
)

// TestServiceStartsAsMainDoes runs Register under service.Run with the
// environment the supervisor and the operator set: migrations, the key
// directory, the validation rate and the error envelope of server errors.
func TestServiceStartsAsMainDoes(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	pool, err := OpenDatabase(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := pgx.BeginFunc(context.Background(), pool, func(tx pgx.Tx) error {
		_, err := Import(context.Background(), tx, []byte(importBase))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeDirKey(t, dir, "ops", "operator-issued-key", "dave", 1)

	base := servicetest.Start(t, Options(), map[string]string{
		contract.EnvDatabaseURL: dsn, contract.EnvInternalKey: "k",
		contract.EnvMarketplaceKeysDir: dir, contract.EnvValidationRate: "1",
	}, Register)

	post := func() int {
		r, _ := http.NewRequest(http.MethodPost, base+PathPurchase, strings.NewReader("purchase_code=DAVE-1"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Authorization", "Bearer operator-issued-key")
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := post(); s != 200 {
		t.Fatalf("validation with the directory key: %d", s)
	}
	if s := post(); s != 429 {
		t.Fatalf("second validation at 1/min: %d, want 429", s)
	}
	res, err := http.Get(base + "/api/unknown")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var body map[string]any
	if res.StatusCode != 404 || json.Unmarshal(b, &body) != nil || body["status"] != "error" || body["msg"] == nil {
		t.Fatalf("unknown path: %d %s, want 404 in the marketplace envelope", res.StatusCode, b)
	}
}

func TestServiceRejectsBadRate(t *testing.T) {
	env := map[string]string{
		contract.EnvDatabaseURL: pgtest.NewDatabase(t), contract.EnvInternalKey: "k",
		contract.EnvListenAddr: "127.0.0.1:0", contract.EnvMetricsAddr: "off",
		contract.EnvValidationRate: "fast", contract.EnvMarketplaceKeysDir: filepath.Join(t.TempDir(), "none"),
	}
	err := servicetest.Run(Options(), env, Register)
	if err == nil || !strings.Contains(err.Error(), contract.EnvValidationRate) {
		t.Fatalf("error %v, want one naming %s", err, contract.EnvValidationRate)
	}
}

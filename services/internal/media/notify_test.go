package media

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/pkg/contract"
)

// Committed media writes announce themselves on the site's change channel,
// so the gateways' edge caches drop cached answers and upload files; a
// refused write does not.
func TestWritesNotifyTheEdgeCache(t *testing.T) {
	e := newEnv(t)
	cfg, err := pgx.ParseConfig(e.dsn)
	if err != nil {
		t.Fatal(err)
	}
	heard := pgtest.ListenChanges(t, cfg)

	a := e.upload(admin, 40, 30)
	if got := heard(); len(got) == 0 || got[0] != contract.ServiceMedia {
		t.Fatalf("after an upload: heard %q, want %q", got, contract.ServiceMedia)
	}
	id := int64(a["id"].(float64))
	wantStatus(t, e.json(admin, http.MethodPost, fmt.Sprintf("/cms/v2/media/%d", id), map[string]any{"title": "renamed"}), http.StatusOK)
	if got := heard(); len(got) != 1 || got[0] != contract.ServiceMedia {
		t.Fatalf("after an update: heard %q, want one %q", got, contract.ServiceMedia)
	}
	wantStatus(t, e.json(admin, http.MethodDelete, fmt.Sprintf("/cms/v2/media/%d", id), nil), http.StatusNotImplemented)
	if got := heard(); len(got) != 0 {
		t.Fatalf("after a refused delete: heard %q", got)
	}
	wantStatus(t, e.json(admin, http.MethodDelete, fmt.Sprintf("/cms/v2/media/%d?force=true", id), nil), http.StatusOK)
	if got := heard(); len(got) != 1 {
		t.Fatalf("after a forced delete: heard %q, want one notification", got)
	}
}

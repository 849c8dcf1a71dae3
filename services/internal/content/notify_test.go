package content

import (
	"context"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/pkg/contract"
)

// Committed writes announce themselves on the change channel (the gateway's
// edge cache drops its entries); refused writes and idle scheduler runs
// do not.
func TestWritesNotifyTheEdgeCache(t *testing.T) {
	e := newEnv(t)
	heard := pgtest.ListenChanges(t, e.pool.Config().ConnConfig.Copy())
	r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "hello", "status": "publish"})
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Raw)
	}
	if got := heard(); len(got) != 1 || got[0] != contract.ServiceContent {
		t.Fatalf("after a create: heard %q, want one %q", got, contract.ServiceContent)
	}
	if r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "x", "status": "no-such-status"}); r.Status != 400 {
		t.Fatalf("bad create: %d %s", r.Status, r.Raw)
	}
	if got := heard(); len(got) != 0 {
		t.Fatalf("after a refused write: heard %q", got)
	}
	soon := e.svc.now().Add(time.Hour)
	e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "later", "status": "publish", "date_gmt": soon.Format(store.WPDateLayout)})
	heard()
	if n, err := e.svc.PublishDue(context.Background()); err != nil || n != 0 {
		t.Fatalf("PublishDue: %d %v", n, err)
	}
	if got := heard(); len(got) != 0 {
		t.Fatalf("an idle scheduler run notified: %q", got)
	}
	e.svc.now = func() time.Time { return soon.Add(time.Second) }
	if n, err := e.svc.PublishDue(context.Background()); err != nil || n != 1 {
		t.Fatalf("PublishDue: %d %v", n, err)
	}
	if got := heard(); len(got) != 1 {
		t.Fatalf("after scheduled publishing: heard %q, want one notification", got)
	}
}

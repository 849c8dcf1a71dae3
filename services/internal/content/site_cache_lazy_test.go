package content

import (
	"context"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// A content replica whose pages keep nothing stops being woken by every
// write (issue 34) but still hears settings changes on the control
// channel; its pages meanwhile read afresh (never stale), and the first
// one asks for the LISTEN again, after which writes are heard.
func TestWebsiteListenerSleepsWhileNothingIsKept(t *testing.T) {
	e := newEnv(t)
	e.listen(t)
	ctx := context.Background()
	post := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Lazy title", "status": "publish", "content": "First words"}).obj()
	id := post["id"]
	wantPage(t, e.page(anon, "/"), 200, "home", "First words")
	// writes no page reads between, each heard before the next (one sent
	// before the UNLISTEN may be on its way still, and is heard), until
	// the listener lets go; then a control marker: heard after them all,
	// once the UNLISTEN is done
	for writes := 0; e.svc.web.Listening(); writes++ {
		if writes == 20 {
			t.Fatal("still listening for writes after 20 that nothing kept")
		}
		gen := e.svc.web.Generation()
		if err := postgres.NotifyChanged(ctx, e.pool, contract.ServiceMedia); err != nil {
			t.Fatal(err)
		}
		eventually(t, "a write heard", func() bool { return e.svc.web.Generation() != gen })
	}
	if err := postgres.NotifyControl(ctx, e.pool, "marker"); err != nil {
		t.Fatal(err)
	}
	settleGeneration(t, e)
	// while not listening: each change, then a control marker (delivered
	// after it); the generation moves once per notification heard
	steps := []struct {
		name, sql, payload string
		notify             func(context.Context, postgres.Execer, string) error
		wantBumps          uint64
	}{
		{"a write, unheard", `UPDATE posts SET content = 'Unheard words' WHERE id = $1`, contract.ServiceMedia,
			postgres.NotifyChanged, 1},
		{"a settings change, heard", `INSERT INTO settings (name, value) SELECT 'title', '"Harbour Notes"' WHERE $1::bigint > 0`,
			contract.SettingsChangedPayload, postgres.NotifyControl, 3}, // the new site swapped in, its notification, the marker
	}
	for _, s := range steps {
		gen := e.svc.web.Generation()
		if _, err := e.pool.Exec(ctx, s.sql, id); err != nil {
			t.Fatal(err)
		}
		if err := s.notify(ctx, e.pool, s.payload); err != nil {
			t.Fatal(err)
		}
		if err := postgres.NotifyControl(ctx, e.pool, "marker"); err != nil {
			t.Fatal(err)
		}
		eventually(t, s.name+": the marker heard", func() bool { return e.svc.web.Generation() >= gen+s.wantBumps })
		if got := e.svc.web.Generation() - gen; got != s.wantBumps || e.svc.web.Listening() {
			t.Fatalf("%s: generation moved %d, want %d; listening %v", s.name, got, s.wantBumps, e.svc.web.Listening())
		}
	}
	// the first page reads afresh (the unheard write and the new title
	// show) and asks for the LISTEN again
	wantPage(t, e.page(anon, "/"), 200, "home", "Unheard words", "Harbour Notes</a>")
	// the pages above asked for the LISTEN again: a write is heard
	eventually(t, "listening again", e.svc.web.Listening)
	gen := e.svc.web.Generation()
	if err := postgres.NotifyChanged(ctx, e.pool, contract.ServiceMedia); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the write after the wake heard", func() bool { return e.svc.web.Generation() != gen })
}

// settleGeneration waits until the generation has held for 300 ms (the
// notifications on their way heard).
func settleGeneration(t *testing.T, e *testEnv) {
	t.Helper()
	last, since := e.svc.web.Generation(), time.Now()
	for deadline := time.Now().Add(5 * time.Second); time.Since(since) < 300*time.Millisecond; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the generation did not settle")
		}
		if gen := e.svc.web.Generation(); gen != last {
			last, since = gen, time.Now()
		}
	}
}

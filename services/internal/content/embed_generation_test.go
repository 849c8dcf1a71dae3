package content

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// settle waits until the change generation has moved past from and held
// for a moment: a write's own commit starts one generation and its
// notification, arriving a little later, another. It also has the
// listener LISTEN for writes again if writes nobody read made it stop
// (Online asks for it): what is computed after is kept.
func (e *testEnv) settle(t *testing.T, from uint64) {
	t.Helper()
	last, since := e.svc.web.Generation(), time.Now()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		gen := e.svc.web.Generation()
		if gen != last || !e.svc.web.Online() {
			last, since = gen, time.Now()
			continue
		}
		if gen > from && time.Since(since) > 300*time.Millisecond {
			return
		}
	}
	t.Fatalf("the generation did not settle (from %d, now %d)", from, e.svc.web.Generation())
}

// With the change listener online, the embed endpoint keeps an anonymous
// call's answers for the change generation: the same page again costs no
// statement at all, and after every kind of change — this service's own
// writes (a renamed term, a term added to a post, a comment, a post
// unpublished, the time zone, a parent page's slug, a batch's write),
// another service's
// announced write, an unannounced write while the listener is offline —
// every answer (status and body) is byte for byte the read's alone, for
// anonymous callers (twice: the second from the kept answers) and editors.
func TestEmbedGenerationAnswers(t *testing.T) {
	e := newEnv(t)
	stop := e.listen(t)
	ctx := context.Background()
	f := newEmbedFixture(t, e)
	reqs := f.lookups()
	sql := func(stmt string, args ...any) func() {
		return func() {
			err := pgx.BeginFunc(ctx, e.pool, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, stmt, args...); err != nil {
					return err
				}
				return postgres.NotifyChanged(ctx, tx, contract.ServiceMedia)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	changes := []struct {
		name    string
		do      func()
		offline bool // the listener is off: nothing may be kept
	}{
		{"first", func() {}, false},
		{"term renamed", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/tags/%d", f.tag), map[string]any{"name": "Omega"}), 200)
		}, false},
		{"term added to a post", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", f.posts[3]), map[string]any{"tags": []int64{f.tag}}), 200)
		}, false},
		{"comment added", func() {
			wantStatus(t, e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": f.posts[2], "content": "late"}), 201)
		}, false},
		{"post unpublished", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", f.posts[0]), map[string]any{"status": "draft"}), 200)
		}, false},
		{"time zone", func() {
			wantStatus(t, e.do(admin, "POST", "/cms/v2/settings", map[string]any{"timezone": "Asia/Tokyo"}), 200)
		}, false},
		{"parent slug", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/pages/%d", f.parent), map[string]any{"slug": "elder"}), 200)
		}, false},
		{"a batch's write", func() {
			out := runBatch(t, e, editor, []contract.BatchSubRequest{{Method: "POST", Route: fmt.Sprintf("/cms/v2/tags/%d", f.tag),
				Body: map[string]any{"name": "Kappa"}}})
			if st := out["responses"].([]any)[0].(map[string]any)["status"]; st != float64(200) {
				t.Fatalf("batch rename: %v", out)
			}
		}, false},
		{"another service's announced write", sql(`UPDATE terms SET name = 'Sigma' WHERE id = $1`, f.tag), false},
		{"unannounced write, listener offline", func() {
			stop()
			if _, err := e.pool.Exec(ctx, `UPDATE terms SET name = 'Tau' WHERE id = $1`, f.tag); err != nil {
				t.Fatal(err)
			}
		}, true},
	}
	for _, ch := range changes {
		from := e.svc.web.Generation()
		if ch.name == "first" {
			from = 0 // the fixture's notifications may still be coming
		}
		ch.do()
		if !ch.offline {
			e.settle(t, from)
		}
		for round, who := range []string{anon, anon, editor} {
			before, gen := e.queries.n.Load(), e.svc.web.Generation()
			got := postEmbed(t, e, who, reqs)
			n := e.queries.n.Load() - before
			// a late notification may start a generation: only a call
			// during which it held says whether answers were kept
			held := e.svc.web.Generation() == gen
			for i, req := range reqs {
				alone := e.do(who, req.Method, req.Route+"?"+req.Query, nil)
				if got[i].status != alone.Status || !bytes.Equal(got[i].body, alone.Raw) {
					t.Fatalf("%s, %s (%d statements): %s?%s: embedded %d\n%s\nalone %d\n%s", ch.name, who, n, req.Route, req.Query,
						got[i].status, got[i].body, alone.Status, alone.Raw)
				}
			}
			switch {
			case ch.offline && n == 0:
				t.Errorf("%s, %s: answered without a statement while the listener is offline", ch.name, who)
			case !ch.offline && round == 1 && held && n != 0:
				t.Errorf("%s: the same page again cost %d statements, want 0 (its answers kept for the generation)", ch.name, n)
			}
		}
	}
}

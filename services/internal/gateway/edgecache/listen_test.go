package edgecache

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
)

// waitUntil polls cond for up to 5s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The listener bumps on committed notifications only, and a lost
// connection takes the cache offline (flushed) until it is back.
func TestListenerFollowsCommitsAndConnectionLoss(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["application_name"] = "edgecache-listener-test"
	c := New(1 << 20)
	l := &Listener{Cache: c, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Probe: 200 * time.Millisecond,
		Connect: func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, cfg) }}
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	waitUntil(t, "online", func() bool { _, on := c.Generation(); return on })

	writer, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(context.Background())

	// A rolled-back write is never heard.
	gen, _ := c.Generation()
	c.Put("k", gen, entry("{}"))
	tx, err := writer.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := postgres.NotifyChanged(ctx, tx, "test"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	// Quiet longer than the probe: the ping keeps the connection.
	time.Sleep(500 * time.Millisecond)
	if g, on := c.Generation(); g != gen || !on {
		t.Fatalf("generation %d online %v after a rollback and a quiet spell, want %d online", g, on, gen)
	}
	if _, ok := c.Get("k"); !ok {
		t.Fatal("entry dropped without a write")
	}

	// A committed write is heard, and nothing is sent before the commit.
	tx, err = writer.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := postgres.NotifyChanged(ctx, tx, "test"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if g, _ := c.Generation(); g != gen {
		t.Fatal("bumped before the commit")
	}
	start := time.Now()
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the commit is heard", func() bool { g, _ := c.Generation(); return g > gen })
	t.Logf("commit heard after %v", time.Since(start))
	if _, ok := c.Get("k"); ok {
		t.Fatal("entry survived a committed write")
	}

	// A purge (on the control channel) drops only its prefix.
	gen, _ = c.Generation()
	c.Put(Key("GET", "rest:", "/cms/v2/posts/1", "", nil), gen, entry("{}"))
	c.Put(Key("GET", "rest:", "/cms/v2/pages", "", nil), gen, entry("{}"))
	if err := postgres.NotifyControl(ctx, writer, PurgePayload+"rest:/cms/v2/posts"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the purge is heard", func() bool { return c.Stats().Entries == 1 })
	if g, _ := c.Generation(); g != gen || !c.HasPrefix("rest:/cms/v2/pages") {
		t.Fatal("a purge by prefix dropped more than its prefix")
	}

	// The listener's connection is killed: offline (and flushed) until it
	// reconnects, then online again.
	gen, _ = c.Generation()
	c.Put("k", gen, entry("{}"))
	offline := make(chan struct{})
	go func() {
		for {
			if _, on := c.Generation(); !on {
				close(offline)
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	var killed int
	if err := writer.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = 'edgecache-listener-test'`).Scan(&killed); err != nil || killed != 1 {
		t.Fatalf("terminate listener: %d %v", killed, err)
	}
	select {
	case <-offline:
	case <-time.After(5 * time.Second):
		t.Fatal("the cache stayed online after its listener died")
	}
	waitUntil(t, "online again", func() bool { _, on := c.Generation(); return on })
	if _, ok := c.Get("k"); ok {
		t.Fatal("an entry from before the outage survived")
	}
	cancel()
	<-done
	if _, on := c.Generation(); on {
		t.Fatal("online after the listener stopped")
	}
}

// The listener asks the primary's position when the cache needs it (Want,
// a replica's answer to keep), not per write heard: after a burst of
// writes the position is unknown until the first Want, which asks it; the
// position then covers every write heard.
func TestListenerAsksPositionWhenWanted(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := New(1 << 20)
	// eager: nothing is kept during the burst, which would otherwise let
	// the listener stop listening for writes (TestListenerSleepsWhileNothingIsKept)
	l := &Listener{Cache: c, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Probe: 5 * time.Second,
		Connect: func(ctx context.Context) (*pgx.Conn, error) { return pgx.Connect(ctx, dsn) }, eager: true}
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	waitUntil(t, "online with a position", func() bool { return c.Want() != 0 })
	writer, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(context.Background())
	cases := []struct {
		name   string
		writes int
	}{{"one write", 1}, {"a burst", 30}}
	for _, tc := range cases {
		gen, _ := c.Generation()
		for range tc.writes {
			if err := postgres.NotifyChanged(ctx, writer, "content"); err != nil {
				t.Fatal(err)
			}
		}
		committed, err := postgres.CurrentLSN(ctx, writer)
		if err != nil {
			t.Fatal(err)
		}
		waitUntil(t, tc.name+" heard", func() bool { g, _ := c.Generation(); return g >= gen+uint64(tc.writes) })
		time.Sleep(50 * time.Millisecond)
		c.mu.Lock()
		unknown := c.want == postgres.UnknownLSN
		c.mu.Unlock()
		if !unknown {
			t.Fatalf("%s: the position was asked before anything wanted it", tc.name)
		}
		waitUntil(t, tc.name+": the position asked by Want", func() bool { return c.Want() >= committed })
	}
}

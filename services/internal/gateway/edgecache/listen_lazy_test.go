package edgecache

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
)

// A cache nobody keeps anything in stops being woken by writes (issue 34)
// but stays online (the replica is Ready) and hears the control channel:
// purges and credential changes. The first reader asks for the LISTEN
// again and reads uncached until it is in place; the cache then keeps, and
// a write after it is heard.
func TestListenerSleepsWhileNothingIsKept(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := New(1 << 20)
	var controls atomic.Int64
	l := &Listener{Cache: c, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Probe: 5 * time.Second,
		Connect:     func(ctx context.Context) (*pgx.Conn, error) { return pgx.Connect(ctx, dsn) },
		AlsoControl: func(string) { controls.Add(1) }}
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	waitUntil(t, "online", func() bool { _, on := c.Generation(); return on })
	writer, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(context.Background())
	deaf := func() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.deaf }

	// writes nobody reads between, each heard before the next (one sent
	// before the UNLISTEN may be on its way still, and is heard), until
	// the listener lets go; then a control marker, heard once the UNLISTEN
	// is done
	for writes := 0; !deaf(); writes++ {
		if writes == 20 {
			t.Fatal("still listening for writes after 20 that nothing kept")
		}
		gen := c.Stats().Generation
		if err := postgres.NotifyChanged(ctx, writer, "content"); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "a write heard", func() bool { return c.Stats().Generation != gen })
	}
	if err := postgres.NotifyControl(ctx, writer, "marker"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the marker heard", func() bool { return controls.Load() == 1 })
	steps := []struct {
		name    string
		channel func(context.Context, postgres.Execer, string) error
		payload string
		bumps   bool // moves the generation
	}{
		{"a write, unheard", postgres.NotifyChanged, "content", false},
		{"a credential change", postgres.NotifyControl, "gateway", false},
		{"a purge of everything", postgres.NotifyControl, PurgePayload, true},
	}
	for i, s := range steps {
		gen := c.Stats().Generation
		if err := s.channel(ctx, writer, s.payload); err != nil {
			t.Fatal(err)
		}
		// a control marker: heard after the step's notification
		if err := postgres.NotifyControl(ctx, writer, "marker"); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, s.name+" heard", func() bool { return controls.Load() >= int64(2*i+2) })
		if moved := c.Stats().Generation != gen; moved != s.bumps {
			t.Errorf("%s: generation moved %v, want %v", s.name, moved, s.bumps)
		}
		if st := c.Stats(); !st.Online {
			t.Fatalf("%s: the cache reports offline while not listening for writes", s.name)
		}
	}
	if got := controls.Load(); got != 2*int64(len(steps)) {
		t.Errorf("control notifications heard %d, want %d", got, 2*len(steps))
	}

	// the first reader serves uncached and wakes the listener
	if _, ok := c.Generation(); ok {
		t.Fatal("a generation to keep with while not listening for writes")
	}
	waitUntil(t, "listening again", func() bool { _, ok := c.Generation(); return ok })
	gen, _ := c.Generation()
	if !c.Put("k", gen, entry("{}")) {
		t.Fatal("nothing kept once listening again")
	}
	if err := postgres.NotifyChanged(ctx, writer, "content"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the write after the wake heard", func() bool { return c.Stats().Entries == 0 })
}

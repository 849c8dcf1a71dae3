package postgres_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
)

// A committed NOTIFY reaches Changed once the listener said it is online; a
// rolled-back one never does; the end of Run is reported as offline.
func TestChangeListener(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	online := make(chan bool, 4)
	changed := make(chan string, 4)
	l := &postgres.ChangeListener{
		Connect: func(ctx context.Context) (*pgx.Conn, error) { return pgx.Connect(ctx, dsn) },
		Online:  func(on bool) { online <- on },
		Changed: func(p string) { changed <- p },
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)), Name: "test", Probe: 200 * time.Millisecond,
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	if on := <-online; !on {
		t.Fatal("first state reported is offline")
	}
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	tx, _ := conn.Begin(context.Background())
	if err := postgres.NotifyChanged(context.Background(), tx, "rolled-back"); err != nil {
		t.Fatal(err)
	}
	_ = tx.Rollback(context.Background())
	if err := postgres.NotifyChanged(context.Background(), conn, "content"); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-changed:
		if p != "content" {
			t.Errorf("payload %q, want the committed one (content)", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no notification within 5s")
	}
	cancel()
	<-done
	if on := <-online; on {
		t.Error("Run ended without reporting offline")
	}
}

// countQueries is a pgx tracer counting the statements a connection runs.
type countQueries struct{ n atomic.Int64 }

func (c *countQueries) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *countQueries) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// A listening replica runs no statement per notification (every replica
// hears every write, issue 34): the primary's position is asked only when
// a consumer asks for it, once for any number of asks and writes before.
func TestChangeListenerAsksPositionOnDemand(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	tracer := &countQueries{}
	cfg.Tracer = tracer
	var heard atomic.Int64
	// the newest position reported; positions is signalled without
	// blocking the listener
	var last atomic.Uint64
	positions := make(chan struct{}, 1)
	online := make(chan bool, 4)
	l := &postgres.ChangeListener{
		Connect: func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, cfg) },
		Online:  func(on bool) { online <- on },
		Changed: func(string) { heard.Add(1) },
		Position: func(at postgres.LSN) {
			last.Store(uint64(at))
			select {
			case positions <- struct{}{}:
			default:
			}
		},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Name: "test", Probe: 5 * time.Second,
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	<-online
	<-positions // the session's first position, after the LISTEN
	writer, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(context.Background())

	cases := []struct {
		name          string
		writes, asks  int
		wantStatement int64
	}{
		{"a burst of writes heard, no position asked", 40, 0, 0},
		{"one ask", 0, 1, 1},
		{"writes, then many asks at once: one statement", 10, 5, 1},
		{"another burst", 25, 0, 0},
	}
	for _, tc := range cases {
		before := tracer.n.Load()
		want := heard.Load() + int64(tc.writes)
		for range tc.writes {
			if err := postgres.NotifyChanged(context.Background(), writer, "content"); err != nil {
				t.Fatal(err)
			}
		}
		deadline := time.Now().Add(5 * time.Second)
		for heard.Load() < want && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if got := heard.Load(); got != want {
			t.Fatalf("%s: heard %d notifications, want %d", tc.name, got, want)
		}
		committed, err := postgres.CurrentLSN(context.Background(), writer)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-positions: // one reported before the asks (not on demand)
		default:
		}
		for range tc.asks {
			l.AskPosition()
		}
		if tc.asks > 0 {
			select {
			case <-positions:
				if at := postgres.LSN(last.Load()); at < committed {
					t.Errorf("%s: position %s is before the last write heard (%s)", tc.name, at, committed)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: no position within 5s of the ask", tc.name)
			}
		}
		time.Sleep(100 * time.Millisecond) // a statement run late would show
		if got := tracer.n.Load() - before; got != tc.wantStatement {
			t.Errorf("%s: the listener ran %d statements, want %d", tc.name, got, tc.wantStatement)
		}
	}
}

// listen starts l.Run and waits until it is online; the returned function
// stops it and waits for Run to end.
func listen(t *testing.T, l *postgres.ChangeListener) (stop func()) {
	t.Helper()
	online := make(chan bool, 4)
	l.Online = func(on bool) { online <- on }
	l.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	select {
	case <-online:
	case <-time.After(5 * time.Second):
		t.Fatal("listener not online within 5s")
	}
	return func() { cancel(); <-done }
}

// notifyMany commits n notifications with distinct payloads in one
// statement (PostgreSQL folds identical ones of a transaction into one).
func notifyMany(t *testing.T, conn *pgx.Conn, n int) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), "SELECT pg_notify($1, 'n' || g) FROM generate_series(1, $2::int) g",
		postgres.ChangesChannel, n); err != nil {
		t.Fatal(err)
	}
}

// waitHeard waits until heard reaches want (5 s at most).
func waitHeard(t *testing.T, heard *atomic.Int64, want int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for heard.Load() < want && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := heard.Load(); got != want {
		t.Fatalf("heard %d notifications, want %d", got, want)
	}
}

// What a listening replica allocates per notification heard is pgx's
// decoding of it (7 allocations with pgx 5.12) and nothing of its own
// (issue 34: every replica hears every write). A wait in a context that
// can end made pgx watch that context for every notification: 4
// allocations more each (11).
func TestChangeListenerAllocationsPerNotification(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	var heard atomic.Int64
	l := &postgres.ChangeListener{
		Connect: func(ctx context.Context) (*pgx.Conn, error) { return pgx.Connect(ctx, dsn) },
		Changed: func(string) { heard.Add(1) },
		Name:    "test", Probe: time.Minute,
	}
	defer listen(t, l)()
	writer, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(context.Background())
	notifyMany(t, writer, 10) // the writer's statement prepared, the listener's buffers grown
	waitHeard(t, &heard, 10)
	const n = 2000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	notifyMany(t, writer, n)
	waitHeard(t, &heard, 10+n)
	runtime.ReadMemStats(&after)
	per := float64(after.Mallocs-before.Mallocs) / n
	t.Logf("%.2f allocations per notification heard", per)
	if per > 8 {
		t.Errorf("%.2f allocations per notification heard, want at most 8 (pgx's own)", per)
	}
}

// The wait for notifications ends at each probe period (the connection is
// pinged, notifications are still heard after) and at once when the
// listener is stopped, however long the probe period.
func TestChangeListenerProbesAndStops(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	cases := []struct {
		name      string
		probe     time.Duration
		quiet     time.Duration
		minPings  int64
		stopUnder time.Duration
	}{
		{"short probe period: pinged while quiet", 40 * time.Millisecond, 300 * time.Millisecond, 3, time.Second},
		{"long probe period: no ping, stopped at once", time.Minute, 100 * time.Millisecond, 0, time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := pgx.ParseConfig(dsn)
			if err != nil {
				t.Fatal(err)
			}
			// a ping is the listener's only write while it waits
			var writes atomic.Int64
			dial := cfg.DialFunc
			cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := dial(ctx, network, addr)
				return countWrites{c, &writes}, err
			}
			var heard atomic.Int64
			l := &postgres.ChangeListener{
				Connect: func(ctx context.Context) (*pgx.Conn, error) { return pgx.ConnectConfig(ctx, cfg) },
				Changed: func(string) { heard.Add(1) },
				Name:    "test", Probe: tc.probe,
			}
			stop := listen(t, l)
			base := writes.Load() // the LISTEN
			time.Sleep(tc.quiet)
			pings := writes.Load() - base
			if pings < tc.minPings || (tc.minPings == 0 && pings != 0) {
				t.Errorf("%d pings in %s with a probe period of %s, want at least %d", pings, tc.quiet, tc.probe, tc.minPings)
			}
			writer, err := pgx.Connect(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer writer.Close(context.Background())
			notifyMany(t, writer, 3)
			waitHeard(t, &heard, 3)
			t0 := time.Now()
			stop()
			if took := time.Since(t0); took > tc.stopUnder {
				t.Errorf("stopping took %s, want under %s", took, tc.stopUnder)
			}
		})
	}
}

// countWrites counts the writes made on a connection.
type countWrites struct {
	net.Conn
	n *atomic.Int64
}

func (c countWrites) Write(b []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(b) //nolint:wrapcheck // the connection's own error, as pgx expects it
}

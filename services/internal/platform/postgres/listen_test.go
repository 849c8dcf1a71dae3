package postgres_test

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

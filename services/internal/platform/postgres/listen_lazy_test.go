package postgres_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/postgres"
)

// A listener whose consumers keep nothing stops being woken by writes
// after a few (issue 34: the wake-up is what an idle replica spends per
// write), hears the control channel all the while, LISTENs again when
// woken, and hears the writes after that.
func TestChangeListenerStopsListeningWhileNothingIsKept(t *testing.T) {
	dsn := pgtest.NewDatabase(t)
	var changed, controls atomic.Int64
	var keeping atomic.Bool
	listening := make(chan bool, 8)
	l := &postgres.ChangeListener{
		Connect:   func(ctx context.Context) (*pgx.Conn, error) { return pgx.Connect(ctx, dsn) },
		Changed:   func(string) { changed.Add(1) },
		Control:   func(string) { controls.Add(1) },
		Kept:      keeping.Load,
		Listening: func(on bool) { listening <- on },
		Name:      "test", Probe: 200 * time.Millisecond,
	}
	defer listen(t, l)()
	writer, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(context.Background())
	// heard: each write of the step is waited for before the next (one
	// sent before the UNLISTEN may be on its way still, and is heard)
	steps := []struct {
		name        string
		keep, wake  bool
		writes      int // committed one by one
		heard       bool
		wantChanged int64 // writes heard in all, once the control marker is
		wantListen  []bool
	}{
		{name: "kept: every write heard", keep: true, writes: 6, heard: true, wantChanged: 6},
		{name: "nothing kept: 4 heard (idleAfter)", writes: 4, heard: true, wantChanged: 10, wantListen: []bool{false}},
		{name: "unlistened: control only", writes: 5, wantChanged: 10},
		{name: "woken: heard again", keep: true, wake: true, writes: 3, heard: true, wantChanged: 13, wantListen: []bool{true}},
	}
	for i, s := range steps {
		keeping.Store(s.keep)
		if s.wake {
			l.Wake()
			waitListening(t, listening, true)
		}
		for w := range s.writes {
			before := changed.Load()
			if err := postgres.NotifyChanged(context.Background(), writer, fmt.Sprintf("w%d-%d", i, w)); err != nil {
				t.Fatal(err)
			}
			if s.heard {
				waitHeard(t, &changed, before+1)
			}
		}
		// notifications are delivered in commit order: once the marker
		// is heard, every write before it has been, if it was to be
		if err := postgres.NotifyControl(context.Background(), writer, fmt.Sprint("marker", i)); err != nil {
			t.Fatal(err)
		}
		waitHeard(t, &controls, int64(i+1))
		if got := changed.Load(); got != s.wantChanged {
			t.Errorf("%s: %d writes heard, want %d", s.name, got, s.wantChanged)
		}
		for _, want := range s.wantListen {
			if !s.wake {
				waitListening(t, listening, want)
			}
		}
		select {
		case on := <-listening:
			t.Errorf("%s: told listening %v more", s.name, on)
		default:
		}
	}
}

// waitListening waits for the listener's Listening(want) (5 s at most).
func waitListening(t *testing.T, listening chan bool, want bool) {
	t.Helper()
	select {
	case on := <-listening:
		if on != want {
			t.Fatalf("told listening %v, want %v", on, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("not told listening %v within 5s", want)
	}
}

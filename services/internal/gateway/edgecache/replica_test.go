package edgecache

import (
	"net/http"
	"testing"

	"siteplane.dev/services/internal/platform/postgres"
)

// An answer a service read from a replica (postgres.HeaderReadLSN) is kept
// only when the replica had replayed the newest write heard: never while
// that write's position is being asked, never from a replica behind it.
// Answers from the primary (no header) are kept as before.
func TestPutKeepsReplicaAnswersOnlyPastTheNewestWrite(t *testing.T) {
	cases := []struct {
		name    string
		heard   bool   // a write was heard after the position was set
		pos     string // the newest write's position ("" none set)
		readLSN string // the answer's replica position ("" from the primary)
		kept    bool
	}{
		{name: "primary answer", pos: "0/3000000", kept: true},
		{name: "replica caught up", pos: "0/3000000", readLSN: "0/3000000", kept: true},
		{name: "replica past it", pos: "0/3000000", readLSN: "1/0", kept: true},
		{name: "replica behind", pos: "0/3000000", readLSN: "0/2FFFFFF"},
		{name: "position not asked yet", heard: true, readLSN: "FF/0"},
		{name: "primary answer while asked", heard: true, kept: true},
		{name: "unreadable position", pos: "0/1", readLSN: "junk"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cache := New(1 << 20)
			cache.SetOnline(true)
			if c.pos != "" {
				at, err := postgres.ParseLSN(c.pos)
				if err != nil {
					t.Fatal(err)
				}
				cache.SetPosition(at)
			}
			if c.heard {
				cache.Heard()
			}
			gen, _ := cache.Generation()
			e := entry(`{"id":1}`)
			if c.readLSN != "" {
				e.Header.Set(postgres.HeaderReadLSN, c.readLSN)
			}
			if got := cache.Put("k", gen, e); got != c.kept {
				t.Fatalf("Put = %v, want %v", got, c.kept)
			}
			if got, ok := cache.Get("k"); ok && got.Header.Get(postgres.HeaderReadLSN) != "" {
				t.Fatal("the stored answer keeps the replica position (it would reach clients on hits)")
			}
		})
	}
}

// A local bump (the gateway's own write answer) keeps the position: the
// write's notification, heard before or after it, sets the one to reach.
func TestBumpKeepsPositionHeardResets(t *testing.T) {
	cache := New(1 << 20)
	cache.SetOnline(true)
	if got := cache.Want(); got != 0 {
		t.Fatalf("Want online before any position = %v, want 0 (unknown asks nothing)", got)
	}
	cache.SetPosition(0x3000000)
	cache.Bump()
	if got := cache.Want(); got != 0x3000000 {
		t.Fatalf("Want after Bump = %v", got)
	}
	cache.Heard()
	if got := cache.Want(); got != 0 {
		t.Fatalf("Want after Heard = %v, want 0", got)
	}
	e := &Entry{Status: 200, Header: http.Header{postgres.HeaderReadLSN: {"1/0"}}}
	gen, _ := cache.Generation()
	if cache.Put("k", gen, e) {
		t.Fatal("kept a replica answer before the heard write's position was known")
	}
}

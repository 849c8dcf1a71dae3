// Package edgecache is the gateway's response cache for anonymous reads:
// a byte-bounded LRU of whole answers, keyed by the normalised request
// (key.go), invalidated by a generation counter that every committed write
// of the site bumps (listen.go hears the writes of every service and
// replica; the gateway bumps it itself for the writes it proxies).
package edgecache

import (
	"container/list"
	"net/http"
	"strings"
	"sync"

	"siteplane.dev/services/internal/platform/postgres"
)

// entryOverhead approximates the bookkeeping bytes of one entry (map slot,
// list element, struct) so that many tiny answers also count.
const entryOverhead = 256

// Entry is one stored answer.
type Entry struct {
	Status int
	Header http.Header
	Body   []byte
	key    string
	size   int64
}

// Stats describes the cache at one moment.
type Stats struct {
	Enabled    bool   `json:"enabled"`
	Online     bool   `json:"online"`
	Generation uint64 `json:"generation"`
	Entries    int    `json:"entries"`
	Bytes      int64  `json:"bytes"`
	Budget     int64  `json:"budget"`
	Hits       uint64 `json:"hits"`
	Misses     uint64 `json:"misses"`
	Evictions  uint64 `json:"evictions"`
}

// Cache is safe for concurrent use. A nil *Cache is a switched-off cache:
// every method is a no-op and nothing is ever served from it.
type Cache struct {
	mu       sync.Mutex
	budget   int64
	maxEntry int64
	used     int64
	gen      uint64
	// online is false while the change listener is not connected: nothing
	// is served or stored, as writes could go unheard.
	online bool
	// deaf is set while the listener does not LISTEN for writes (the cache
	// kept nothing for a few writes in a row, postgres.ChangeListener.Kept):
	// nothing is stored, a miss is served uncached and asks for the LISTEN
	// again (wake). Unlike offline, nothing is wrong: the replica is Ready.
	deaf bool
	// kept says a generation was handed out to keep something with (or an
	// answer stored) since the listener last asked (Kept).
	kept bool
	// wake asks the listener to LISTEN for writes again
	// (postgres.ChangeListener.Wake); nil before a listener runs
	wake func()
	// want is the WAL position of the newest write heard
	// (postgres.UnknownLSN until the listener has asked the primary): an
	// answer a service read from a replica (postgres.HeaderReadLSN) is kept
	// only when the replica had replayed it.
	want postgres.LSN
	// ask tells the listener that want is needed while it is unknown
	// (postgres.ChangeListener.AskPosition); nil before a listener runs
	ask     func()
	entries map[string]*list.Element
	lru     *list.List // front: most recently used
	hits    uint64
	misses  uint64
	evicted uint64
}

// New returns a cache holding at most budget bytes; one answer may use at
// most an eighth of it. The cache starts offline: SetOnline(true) once the
// change listener runs.
func New(budget int64) *Cache {
	return &Cache{budget: budget, maxEntry: budget / 8, entries: map[string]*list.Element{}, lru: list.New()}
}

// MaxEntry is the largest answer (bytes) the cache stores.
func (c *Cache) MaxEntry() int64 {
	if c == nil {
		return 0
	}
	return c.maxEntry
}

// Generation returns the current generation and whether the cache may be
// used at all. A filler captures it before asking the backend, so an answer
// read before a write commits is refused by Put once the write is heard.
// While the listener does not LISTEN for writes the answer is false and the
// listener is asked to LISTEN again: the filler serves uncached, and a later
// one keeps once Listening(true) said the LISTEN is in place.
func (c *Cache) Generation() (uint64, bool) {
	if c == nil {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.online && c.deaf {
		if c.wake != nil {
			c.wake()
		}
		return c.gen, false
	}
	c.kept = c.kept || c.online
	return c.gen, c.online
}

// Asleep reports, after Generation said no, whether that is because the
// listener does not listen for writes (the cache online, keeping nothing):
// the answer is then a miss, counted as one, which Generation's call has
// asked the listener to end.
func (c *Cache) Asleep() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.online && c.deaf {
		c.misses++
		return true
	}
	return false
}

// Kept reports whether anything was kept with this cache's generations
// since the last call (postgres.ChangeListener.Kept): a generation handed
// out to a filler, the gateway's settings memo or an embed. O(1), as the
// listener asks after every write heard.
func (c *Cache) Kept() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := c.kept
	c.kept = false
	return kept
}

// SetListening records whether the listener LISTENs for writes
// (postgres.ChangeListener.Listening). Both directions flush: going deaf,
// a write may go unheard; coming back, writes made while deaf were missed.
func (c *Cache) SetListening(on bool) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.deaf = !on
	c.kept = on // asked for: kept for a few writes at least
	c.want = postgres.UnknownLSN
	c.flush()
}

// SetWake sets what Generation calls while the listener does not LISTEN
// for writes (the listener's Wake).
func (c *Cache) SetWake(wake func()) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wake = wake
}

// Get returns the live entry under key and counts a hit or a miss.
func (c *Cache) Get(key string) (*Entry, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.online || c.deaf {
		return nil, false
	}
	el, ok := c.entries[key]
	if !ok {
		c.misses++
		return nil, false
	}
	c.hits++
	c.lru.MoveToFront(el)
	return el.Value.(*Entry), true
}

// Put stores e under key if gen is still the current generation, the cache
// is online and e fits; it evicts least recently used entries to stay within
// the budget. It reports whether e was stored.
func (c *Cache) Put(key string, gen uint64, e *Entry) bool {
	if c == nil {
		return false
	}
	replica, readLSN := e.Header.Get(postgres.HeaderReadLSN), postgres.LSN(0)
	if replica != "" {
		e.Header.Del(postgres.HeaderReadLSN)
		var err error
		if readLSN, err = postgres.ParseLSN(replica); err != nil {
			return false
		}
	}
	e.key = key
	e.size = entrySize(key, e)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.online || c.deaf || gen != c.gen || e.size > c.maxEntry {
		return false
	}
	// read from a replica behind the newest write: served, never kept
	if replica != "" && (c.want == postgres.UnknownLSN || readLSN < c.want) {
		c.askPosition()
		return false
	}
	if old, ok := c.entries[key]; ok {
		c.remove(old)
	}
	for c.used+e.size > c.budget && c.lru.Len() > 0 {
		c.remove(c.lru.Back())
		c.evicted++
	}
	c.entries[key] = c.lru.PushFront(e)
	c.used += e.size
	return true
}

func (c *Cache) remove(el *list.Element) {
	e := el.Value.(*Entry)
	c.lru.Remove(el)
	delete(c.entries, e.key)
	c.used -= e.size
}

// Bump starts a new generation: every stored answer, and every answer being
// fetched, is out of date. Called for each committed write.
func (c *Cache) Bump() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.flush()
}

// Heard starts a new generation for a write heard on the change channel,
// whose WAL position is not known until SetPosition: meanwhile no answer
// read from a replica is kept.
func (c *Cache) Heard() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.want = postgres.UnknownLSN
	c.flush()
}

// SetPosition records the primary's WAL position after the newest write
// heard (the listener asks it once per notification).
func (c *Cache) SetPosition(at postgres.LSN) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.want = at
}

// Want is the position an answer read from a replica must reflect to be
// kept (postgres.HeaderWantLSN); 0 when none is known, which asks nothing.
func (c *Cache) Want() postgres.LSN {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.want == postgres.UnknownLSN {
		c.askPosition()
		return 0
	}
	return c.want
}

// askPosition asks the listener for the position of the writes heard,
// which it no longer asks per notification; with c.mu held.
func (c *Cache) askPosition() {
	if c.ask != nil {
		c.ask()
	}
}

// SetAsk sets what Want and Put call when the newest write's position is
// unknown (the listener's AskPosition).
func (c *Cache) SetAsk(ask func()) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ask = ask
}

// flush starts a new generation. O(1) under the lock, as every replica
// runs it for every write: a map that holds entries is replaced, not
// cleared (clear walks every slot of a map that once held a large cache),
// and an empty one is kept.
func (c *Cache) flush() {
	c.gen++
	if len(c.entries) > 0 {
		c.entries = map[string]*list.Element{}
	}
	c.lru.Init()
	c.used = 0
}

// SetOnline switches serving on or off (the change listener's connection).
// Both directions flush: going offline, nothing heard can be trusted;
// coming back, writes made while deaf were missed.
func (c *Cache) SetOnline(on bool) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.online = on
	c.deaf = false // a session starts LISTENing for writes
	c.want = postgres.UnknownLSN
	c.flush()
}

// PurgePrefix drops the entries whose request path (the part of the key
// after the method) starts with prefix, and returns how many.
func (c *Cache) PurgePrefix(prefix string) int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for key, el := range c.entries {
		if strings.HasPrefix(pathOfKey(key), prefix) {
			c.remove(el)
			n++
		}
	}
	return n
}

// HasPrefix reports whether an entry's path starts with prefix.
func (c *Cache) HasPrefix(prefix string) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for key := range c.entries {
		if strings.HasPrefix(pathOfKey(key), prefix) {
			return true
		}
	}
	return false
}

// Stats reports counters and sizes; a nil cache reports Enabled false.
func (c *Cache) Stats() Stats {
	if c == nil {
		return Stats{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{Enabled: true, Online: c.online, Generation: c.gen, Entries: len(c.entries), Bytes: c.used, Budget: c.budget,
		Hits: c.hits, Misses: c.misses, Evictions: c.evicted}
}

func entrySize(key string, e *Entry) int64 {
	n := int64(len(key)+len(e.Body)) + entryOverhead
	for k, vs := range e.Header {
		for _, v := range vs {
			n += int64(len(k) + len(v) + 4)
		}
	}
	return n
}

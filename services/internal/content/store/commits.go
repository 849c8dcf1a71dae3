package store

import "sync"

// Commits is the store's hook for what keeps copies derived from the data:
// every write transaction announces its end here, and the website's
// snapshot (content/website) subscribes, so a replica's pages follow its
// own writes at once rather than when the change notification comes back
// over PostgreSQL. A write announces the end of its transaction whether it
// committed or not: a needless new generation costs one reload, a missed
// one a stale page.
type Commits struct {
	mu   sync.RWMutex
	subs []func()
}

// OnCommit adds fn to what every announced commit calls.
func (c *Commits) OnCommit(fn func()) {
	c.mu.Lock()
	c.subs = append(c.subs, fn)
	c.mu.Unlock()
}

// Committed announces that a write transaction ended.
func (c *Commits) Committed() {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, fn := range c.subs {
		fn()
	}
}

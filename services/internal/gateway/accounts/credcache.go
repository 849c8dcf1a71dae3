package accounts

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"sync"
	"time"
)

// CredentialCache remembers application-password credentials that were
// verified, so that a client sending the same Authorization header again is
// not looked up in the database on every request (docs/security.md#verified-
// credentials-cache). Only successes are kept, under a keyed hash of login
// and password (never the password), for at most the TTL and never past the
// moment the password's usage is due to be recorded again (last_used).
//
// A kept credential must not outlive a change that ends it (a revoked
// password, a deleted user, a changed role or email), so:
//   - this process's own writes invalidate at once (Store.changed, after the
//     commit);
//   - every other writer's commit is heard on the site's change channel: the
//     gateway's users and application_passwords tables notify in the writing
//     transaction (migration 0004), and the change listener calls
//     Invalidate for that payload;
//   - while the listener is not connected, a change could go unheard: the
//     cache is then empty and bypassed (SetOnline). It starts offline.
//
// A check that began before an invalidation is not kept (a generation
// counter), so an answer read from the database before a revocation can
// never be cached after it.
type CredentialCache struct {
	store *Store
	key   []byte
	limit int
	ttl   time.Duration

	mu      sync.Mutex
	online  bool
	gen     uint64
	entries map[[sha256.Size]byte]credential
}

type credential struct {
	user    User
	uuid    string
	expires time.Time
}

// NewCredentialCache returns a cache in front of store holding at most limit
// credentials for at most ttl each, and makes store's own writes invalidate
// it. It is offline (every check goes to the database) until SetOnline(true).
func NewCredentialCache(store *Store, limit int, ttl time.Duration) *CredentialCache {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // per process: keys of one process mean nothing to another
	c := &CredentialCache{store: store, key: key, limit: limit, ttl: ttl, entries: map[[sha256.Size]byte]credential{}}
	store.onChange = c.Invalidate
	return c
}

// keyOf is the map key of a credential: HMAC-SHA256 under the process's
// random key of the login and password, length-prefixed so that no two
// pairs share an encoding.
func (c *CredentialCache) keyOf(login, password string) [sha256.Size]byte {
	m := hmac.New(sha256.New, c.key)
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(login)))
	m.Write(n[:])
	m.Write([]byte(login))
	m.Write([]byte(password))
	var out [sha256.Size]byte
	m.Sum(out[:0])
	return out
}

// AuthenticatePassword is Store.AuthenticatePassword, answered from the
// cache when the same credential was verified recently and nothing changed
// since. Failures are never cached: each goes to the database and says what
// was wrong, as before.
func (c *CredentialCache) AuthenticatePassword(ctx context.Context, login, password, remoteIP string) (User, string, error) {
	k := c.keyOf(login, password)
	now := c.store.now()
	c.mu.Lock()
	if e, ok := c.entries[k]; ok && c.online && now.Before(e.expires) {
		c.mu.Unlock()
		return e.user, e.uuid, nil
	}
	gen, online := c.gen, c.online
	c.mu.Unlock()
	u, uuid, due, err := c.store.throttledAuthenticate(ctx, login, password, remoteIP)
	if err != nil || !online {
		return u, uuid, err
	}
	expires := now.Add(c.ttl)
	if due.Before(expires) {
		expires = due
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.online && c.gen == gen {
		if _, present := c.entries[k]; !present && len(c.entries) >= c.limit {
			for old := range c.entries { // any one: the bound matters, not which
				delete(c.entries, old)
				break
			}
		}
		c.entries[k] = credential{user: u, uuid: uuid, expires: expires}
	}
	return u, uuid, nil
}

// Invalidate forgets every credential (a user or password changed).
func (c *CredentialCache) Invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.entries)
}

// SetOnline says whether changes are being heard. Both ways the cache
// empties: going offline, changes may go unheard from now on; coming back,
// changes made while offline went unheard.
func (c *CredentialCache) SetOnline(online bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.online = online
	c.gen++
	clear(c.entries)
}

// Len is how many credentials are kept (tests, metrics).
func (c *CredentialCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

package identity

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// Key is one internal key. Its ID is derived from the secret, so that a
// rotation needs no second value to keep in step with the key: whoever
// holds the secret knows its id.
type Key struct {
	ID     string
	Secret []byte
}

// NewKey returns the key of secret with its derived id (12 hex digits of a
// SHA-256 over a label and the secret: it names the key, it reveals
// nothing usable about it).
func NewKey(secret []byte) Key {
	return Key{ID: contract.InternalKeyID(secret), Secret: secret}
}

// PropagationDelay is how long after a rotation the senders keep signing
// with the previous key while every receiver already accepts both: the time
// a changed Secret takes to reach every pod's mounted files (the kubelet's
// sync period and cache, about a minute) plus FileKeys' reload interval.
// Signing with the new key only afterwards means no receiver ever sees a
// key id it does not know yet. It is the default: a cluster whose kubelets
// deliver Secrets faster may shorten it (contract.EnvInternalKeyPropagationDelay,
// between MinPropagationDelay and MaxPropagationDelay).
const PropagationDelay = contract.DefaultInternalKeyPropagationDelay

// MinPropagationDelay and MaxPropagationDelay bound a configured delay: not
// below FileKeys' reload interval (a receiver could not have re-read the
// files yet), and well inside the operator's 15-minute grace window, which
// must also cover an identity header's MaxLifetime after the switch.
const (
	MinPropagationDelay = contract.MinInternalKeyPropagationDelay
	MaxPropagationDelay = contract.MaxInternalKeyPropagationDelay
)

// Keyring is what a process knows of the internal keys: the current one
// and, for a grace window after a rotation, the previous one.
type Keyring struct {
	Current Key
	// Previous is the key Current replaced; its ID is "" when none.
	Previous Key
	// RotatedAt is when Current replaced Previous (zero when unknown: then
	// Current signs at once).
	RotatedAt time.Time
	// Delay is how long after RotatedAt the senders keep signing with
	// Previous; zero means PropagationDelay.
	Delay time.Duration
}

// Static returns the keyring of a single key (no rotation in progress).
func Static(secret []byte) Keyring { return Keyring{Current: NewKey(secret)} }

// SigningKey is the key a sender signs with at now: the previous key during
// the propagation delay after a rotation, then the current one.
func (k Keyring) SigningKey(now time.Time) Key {
	delay := k.Delay
	if delay <= 0 {
		delay = PropagationDelay
	}
	if k.Previous.ID != "" && !k.RotatedAt.IsZero() && now.Before(k.RotatedAt.Add(delay)) {
		return k.Previous
	}
	return k.Current
}

// lookup returns the accepted key whose id is kid.
func (k Keyring) lookup(kid string) (Key, bool) {
	switch {
	case kid == "":
		return Key{}, false
	case kid == k.Current.ID:
		return k.Current, true
	case kid == k.Previous.ID:
		return k.Previous, true
	}
	return Key{}, false
}

// Keys gives the keyring in force now. A Keyring is its own (static)
// source; FileKeys re-reads mounted files.
type Keys interface {
	Keyring() Keyring
}

// Keyring implements Keys.
func (k Keyring) Keyring() Keyring { return k }

// FileKeys reads the keyring from files, as the operator mounts the
// internal-key Secret: the current key in path, and beside it (same
// directory) the optional contract.InternalKeyPreviousSecretKey and
// contract.InternalKeyRotatedAtSecretKey. The files are re-read at most
// every reload interval, so a rotated Secret takes effect without a
// restart; a read that fails keeps the last good keyring.
type FileKeys struct {
	path   string
	reload time.Duration
	delay  time.Duration // Keyring.Delay of every keyring read
	now    func() time.Time

	mu     sync.Mutex
	ring   Keyring
	readAt time.Time
}

// DefaultReload is FileKeys' re-read interval.
const DefaultReload = 10 * time.Second

// NewFileKeys reads the keyring from path now (an error if the current key
// cannot be read or is empty) and again at most every reload afterwards.
func NewFileKeys(path string, reload time.Duration) (*FileKeys, error) {
	if reload <= 0 {
		reload = DefaultReload
	}
	f := &FileKeys{path: path, reload: reload, now: time.Now}
	ring, err := readKeyring(path)
	if err != nil {
		return nil, err
	}
	f.ring, f.readAt = ring, f.now()
	return f, nil
}

// SetPropagationDelay sets the Keyring.Delay of the keyrings f returns
// (zero: PropagationDelay). Call it before serving.
func (f *FileKeys) SetPropagationDelay(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.delay = d
	f.ring.Delay = d
}

// Keyring implements Keys.
func (f *FileKeys) Keyring() Keyring {
	f.mu.Lock()
	defer f.mu.Unlock()
	if now := f.now(); now.Sub(f.readAt) >= f.reload {
		f.readAt = now
		if ring, err := readKeyring(f.path); err == nil {
			ring.Delay = f.delay
			f.ring = ring
		}
	}
	return f.ring
}

func readKeyring(path string) (Keyring, error) {
	cur, err := readKeyFile(path)
	if err != nil {
		return Keyring{}, err
	}
	if len(cur) == 0 {
		return Keyring{}, fmt.Errorf("internal key file %s is empty", path)
	}
	ring := Keyring{Current: NewKey(cur)}
	dir := filepath.Dir(path)
	prev, err := readKeyFile(filepath.Join(dir, contract.InternalKeyPreviousSecretKey))
	if err == nil && len(prev) > 0 && string(prev) != string(cur) {
		ring.Previous = NewKey(prev)
		if at, err := readKeyFile(filepath.Join(dir, contract.InternalKeyRotatedAtSecretKey)); err == nil {
			if t, err := time.Parse(time.RFC3339, string(at)); err == nil {
				ring.RotatedAt = t
			}
		}
	}
	return ring, nil
}

// readKeyFile returns the trimmed content of path; a missing file is an
// error wrapping os.ErrNotExist. The error names the file, never its content.
func readKeyFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("internal key file %s: %w", path, os.ErrNotExist)
		}
		return nil, fmt.Errorf("read internal key file %s: %w", path, errors.Unwrap(err))
	}
	return []byte(strings.TrimSpace(string(data))), nil
}

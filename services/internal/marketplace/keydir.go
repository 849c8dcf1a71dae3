package marketplace

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"siteplane.dev/services/pkg/contract"
)

// keyDir holds the operator-issued keys of a mounted directory:
//
//	<dir>/<key-name>/api-key   the key
//	<dir>/<key-name>/account   the owning account's username
//	<dir>/<key-name>/account-email   (optional) the email of a created account
//
// Each key Secret is projected into its own sub-directory; Kubernetes swaps
// a Secret volume's content by re-pointing a `..data` symlink, which file
// watchers see only indirectly, so the directory is simply re-read on a
// timer. It holds at most a few dozen tiny files, so a full re-read is cheap,
// and it is correct however the content changed. Keys are hashed on load;
// the plain values are not kept.
type keyDir struct {
	path   string
	logger *slog.Logger

	keys atomic.Pointer[map[keyHash]dirKey]

	mu          sync.Mutex // serialises reloads
	fingerprint [sha256.Size]byte
	loaded      bool
}

type dirKey struct {
	hash    keyHash
	name    string
	account string
	email   string
}

func newKeyDir(path string, logger *slog.Logger) *keyDir {
	d := &keyDir{path: path, logger: logger}
	empty := map[keyHash]dirKey{}
	d.keys.Store(&empty)
	return d
}

func (d *keyDir) lookup(h keyHash) (dirKey, bool) {
	e, ok := (*d.keys.Load())[h]
	return e, ok
}

// reload re-reads the directory and swaps the key set in one step. It logs
// key names and counts when the set changes, never key values.
func (d *keyDir) reload() {
	d.mu.Lock()
	defer d.mu.Unlock()
	keys, problems := readKeyDir(d.path)
	fp := fingerprintKeys(keys, problems)
	if d.loaded && fp == d.fingerprint {
		return
	}
	d.keys.Store(&keys)
	d.fingerprint, d.loaded = fp, true
	names := make([]string, 0, len(keys))
	for _, k := range keys {
		names = append(names, k.name+"→"+k.account)
	}
	sort.Strings(names)
	d.logger.Info("marketplace key directory loaded", "dir", d.path, "keys", len(keys), "names", names)
	for _, p := range problems {
		d.logger.Warn("marketplace key directory entry skipped", "dir", d.path, "problem", p)
	}
}

// readKeyDir reads every key sub-directory. Entries starting with a dot are
// Kubernetes' own (..data, ..2024_01_01...) and are skipped. A missing
// directory is an empty key set: removing the mount revokes every key in it.
func readKeyDir(dir string) (map[keyHash]dirKey, []string) {
	keys := map[keyHash]dirKey{}
	var problems []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			problems = append(problems, "cannot read the directory: "+errors.Unwrap(err).Error())
		} else {
			problems = append(problems, "the directory does not exist")
		}
		return keys, problems
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		sub := filepath.Join(dir, name)
		if st, err := os.Stat(sub); err != nil || !st.IsDir() {
			continue
		}
		key, kerr := readTrimmed(filepath.Join(sub, contract.KeyDirAPIKeyFile))
		account, aerr := readTrimmed(filepath.Join(sub, contract.KeyDirAccountFile))
		switch {
		case kerr != nil || key == "":
			problems = append(problems, name+": no readable, non-empty "+contract.KeyDirAPIKeyFile+" file")
			continue
		case aerr != nil || account == "":
			problems = append(problems, name+": no readable, non-empty "+contract.KeyDirAccountFile+" file")
			continue
		}
		// Optional: without it the account is created with a placeholder.
		email, _ := readTrimmed(filepath.Join(sub, contract.KeyDirAccountEmailFile))
		h := hashKey(key)
		if other, dup := keys[h]; dup {
			// Entries come in name order, so the first name wins consistently.
			problems = append(problems, name+": same key as "+other.name+", ignored")
			continue
		}
		keys[h] = dirKey{hash: h, name: name, account: account, email: email}
	}
	return keys, problems
}

// accounts returns the accounts the directory's keys name, each with the
// email of its first key (in key name order) that gives one.
func (d *keyDir) accounts() map[string]string {
	keys := *d.keys.Load()
	list := make([]dirKey, 0, len(keys))
	for _, k := range keys {
		list = append(list, k)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].name < list[j].name })
	out := map[string]string{}
	for _, k := range list {
		if out[k.account] == "" {
			out[k.account] = k.email
		}
	}
	return out
}

func readTrimmed(path string) (string, error) {
	b, err := os.ReadFile(path)
	return strings.TrimSpace(string(b)), err
}

// fingerprintKeys summarises a key set so that unchanged reloads stay quiet.
func fingerprintKeys(keys map[keyHash]dirKey, problems []string) [sha256.Size]byte {
	lines := make([]string, 0, len(keys)+len(problems))
	for h, k := range keys {
		lines = append(lines, string(h[:])+"\x00"+k.name+"\x00"+k.account+"\x00"+k.email)
	}
	lines = append(lines, problems...)
	sort.Strings(lines)
	return sha256.Sum256([]byte(strings.Join(lines, "\x01")))
}

package marketplace

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func (e *testEnv) status(key string) int {
	e.t.Helper()
	return e.do(req{path: PathAccount, placement: "bearer", params: map[string]any{"api_key": key}}).status
}

func (e *testEnv) revoke(ref string) (KeyInfo, error) {
	var info KeyInfo
	err := pgx.BeginFunc(context.Background(), e.pool, func(tx pgx.Tx) error {
		var err error
		info, err = RevokeKey(context.Background(), tx, ref)
		return err
	})
	return info, err
}

func TestKeysAreStoredHashedAndRevocable(t *testing.T) {
	e := newTestEnv(t, Config{})
	first, second := e.createKey("alice"), e.createKey("alice")
	if !regexp.MustCompile(`^mkt_[0-9a-f]{40}$`).MatchString(first) || first == second {
		t.Fatalf("keys %q %q: want distinct mkt_<40 hex>", first, second)
	}
	// Nothing stored contains the key; the hash and the prefix are what is kept.
	var stored int
	if err := e.pool.QueryRow(context.Background(),
		`SELECT count(*) FROM api_keys WHERE position($1 in name || prefix || encode(key_hash, 'escape')) > 0`, first).Scan(&stored); err != nil || stored != 0 {
		t.Fatalf("a stored column contains the key (%d rows, %v)", stored, err)
	}
	for _, k := range []string{first, second} {
		if s := e.status(k); s != 200 {
			t.Fatalf("fresh key: %d", s)
		}
	}

	tests := []struct {
		name    string
		ref     func() string
		wantErr string
		revoked string // key that must stop working
		alive   string // key that must keep working
	}{
		{"unknown prefix", func() string { return "mkt_zzzzzzzz" }, "no active key", "", first},
		{"by prefix", func() string { return displayPrefix(first) }, "", first, second},
		{"already revoked", func() string { return displayPrefix(first) }, "no active key", "", second},
		{"by id", func() string {
			keys := e.list("alice")
			for _, k := range keys {
				if k.Prefix == displayPrefix(second) {
					return strconv.FormatInt(k.ID, 10)
				}
			}
			return "0"
		}, "", second, e.keys["alice"]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.revoke(tt.ref())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if tt.revoked != "" {
				for _, path := range []string{PathAccount, PathItems, PathItem} {
					r := e.do(req{path: path, params: map[string]any{"api_key": tt.revoked, "item_id": 1}})
					if r.status != 401 {
						t.Fatalf("%s with a revoked key: %d", path, r.status)
					}
				}
				r := e.do(req{method: "POST", path: PathPurchase, placement: "form",
					params: map[string]any{"api_key": tt.revoked, "purchase_code": "ALICE-SUPPORTED-0001"}})
				if r.status != 401 {
					t.Fatalf("validation with a revoked key: %d", r.status)
				}
			}
			if s := e.status(tt.alive); s != 200 {
				t.Fatalf("another key of the account stopped working: %d", s)
			}
		})
	}
	keys := e.list("alice")
	if len(keys) != 3 || keys[0].RevokedAt != nil || keys[1].RevokedAt == nil || keys[2].RevokedAt == nil {
		t.Fatalf("list: %+v, want the fixture key active and two revoked", keys)
	}
}

func TestRevokeAmbiguousPrefixNamesTheKeys(t *testing.T) {
	e := newTestEnv(t, Config{})
	// Two keys can share a display prefix only by accident; force it.
	if _, err := e.pool.Exec(context.Background(), `UPDATE api_keys SET prefix = 'mkt_same'`); err != nil {
		t.Fatal(err)
	}
	_, err := e.revoke("mkt_same")
	if err == nil || !strings.Contains(err.Error(), "revoke by id") {
		t.Fatalf("error %v, want an ambiguity error", err)
	}
	if s := e.status(e.keys["bob"]); s != 200 {
		t.Fatal("an ambiguous revoke must revoke nothing")
	}
}

func (e *testEnv) list(account string) []KeyInfo {
	e.t.Helper()
	var keys []KeyInfo
	err := pgx.BeginFunc(context.Background(), e.pool, func(tx pgx.Tx) error {
		var err error
		keys, err = ListKeys(context.Background(), tx, account)
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return keys
}

// writeDirKey lays out one key as the operator's Secret volume does:
// <dir>/<name>/..data → ..v<N>, with api-key and account symlinked through
// ..data, so that replacing the content is one symlink swap.
func writeDirKey(t *testing.T, dir, name, key, account string, version int) {
	t.Helper()
	sub := filepath.Join(dir, name)
	ver := "..v" + strconv.Itoa(version)
	if err := os.MkdirAll(filepath.Join(sub, ver), 0o755); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(sub, ver, "api-key"), []byte(key+"\n"), 0o600))
	must(os.WriteFile(filepath.Join(sub, ver, "account"), []byte(account), 0o600))
	tmp := filepath.Join(sub, "..data_tmp")
	must(os.Symlink(ver, tmp))
	must(os.Rename(tmp, filepath.Join(sub, "..data")))
	for _, f := range []string{"api-key", "account"} {
		link := filepath.Join(sub, f)
		if _, err := os.Lstat(link); os.IsNotExist(err) {
			must(os.Symlink(filepath.Join("..data", f), link))
		}
	}
}

func TestKeyDirectoryReload(t *testing.T) {
	dir := t.TempDir()
	writeDirKey(t, dir, "ops-alice", "operator-key-alice-1", "alice", 1)
	writeDirKey(t, dir, "ops-ghost", "operator-key-ghost", "nobody", 1)
	if err := os.MkdirAll(filepath.Join(dir, "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, Config{KeysDir: dir})

	steps := []struct {
		name   string
		change func()
		want   map[string]int // key → status of account details
	}{
		{"loaded at start", func() {}, map[string]int{
			"operator-key-alice-1": 200, "operator-key-ghost": 401, "operator-key-bob": 401}},
		{"scoped to its account", func() {
			for id, want := range map[int]int{1: 200, 10: 404} {
				r := e.do(req{path: PathItem, params: map[string]any{"api_key": "operator-key-alice-1", "item_id": id}})
				if r.status != want {
					t.Errorf("item %d with alice's directory key: %d, want %d", id, r.status, want)
				}
			}
		}, map[string]int{"operator-key-alice-1": 200}},
		{"key added", func() { writeDirKey(t, dir, "ops-bob", "operator-key-bob", "bob", 1) }, map[string]int{
			"operator-key-alice-1": 200, "operator-key-bob": 200}},
		{"key rotated by a symlink swap", func() { writeDirKey(t, dir, "ops-alice", "operator-key-alice-2", "alice", 2) }, map[string]int{
			"operator-key-alice-1": 401, "operator-key-alice-2": 200, "operator-key-bob": 200}},
		{"key removed", func() {
			if err := os.RemoveAll(filepath.Join(dir, "ops-bob")); err != nil {
				t.Fatal(err)
			}
		}, map[string]int{"operator-key-alice-2": 200, "operator-key-bob": 401}},
		{"directory removed", func() {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}, map[string]int{"operator-key-alice-2": 401}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.change()
			e.api.ReloadKeys()
			for key, want := range s.want {
				if got := e.status(key); got != want {
					t.Errorf("key %s: %d, want %d", key, got, want)
				}
			}
		})
	}
	// Database keys are unaffected by the directory.
	if s := e.status(e.keys["alice"]); s != 200 {
		t.Fatalf("stored key: %d", s)
	}
	logs := e.logs.String()
	for _, secret := range []string{"operator-key-alice-1", "operator-key-alice-2", "operator-key-bob", "operator-key-ghost"} {
		if strings.Contains(logs, secret) {
			t.Fatalf("the logs contain the key %s", secret)
		}
	}
	if !strings.Contains(logs, "broken: no readable") {
		t.Fatal("a key directory without files must be reported")
	}
}

// TestKeyDirectoryIsPolled checks that Run follows the directory by itself.
func TestKeyDirectoryIsPolled(t *testing.T) {
	dir := t.TempDir()
	e := newTestEnv(t, Config{KeysDir: dir, KeysDirInterval: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.api.Run(ctx)
	writeDirKey(t, dir, "late", "late-operator-key", "carol", 1)
	deadline := time.Now().Add(5 * time.Second)
	for e.status("late-operator-key") != 200 {
		if time.Now().After(deadline) {
			t.Fatal("a key added to the directory never started working")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := os.RemoveAll(filepath.Join(dir, "late")); err != nil {
		t.Fatal(err)
	}
	for e.status("late-operator-key") != 401 {
		if time.Now().After(deadline) {
			t.Fatal("a key removed from the directory kept working")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestKeyDirectoryAccountsAreCreated: a key the operator issues names an
// account the Site declares but nothing imported. Run creates it (empty,
// with the directory's email), so the key works without a restart or an
// import; an existing account is left exactly as imported.
func TestKeyDirectoryAccountsAreCreated(t *testing.T) {
	dir := t.TempDir()
	writeDirKey(t, dir, "shop", "operator-key-newcomer", "newcomer", 1)
	if err := os.WriteFile(filepath.Join(dir, "shop", "account-email"), []byte("shop@blog.example.com\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeDirKey(t, dir, "alice-ops", "operator-key-alice", "alice", 1)
	if err := os.WriteFile(filepath.Join(dir, "alice-ops", "account-email"), []byte("other@example.com"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, Config{KeysDir: dir, KeysDirInterval: 20 * time.Millisecond})
	var aliceBefore string
	if err := e.pool.QueryRow(context.Background(), `SELECT email FROM accounts WHERE username = 'alice'`).Scan(&aliceBefore); err != nil {
		t.Fatal(err)
	}
	if got := e.status("operator-key-newcomer"); got != 401 {
		t.Fatalf("before Run: %d, want 401 (the account does not exist yet)", got)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.api.Run(ctx)
	deadline := time.Now().Add(5 * time.Second)
	for e.status("operator-key-newcomer") != 200 {
		if time.Now().After(deadline) {
			t.Fatal("the key of a declared account never started working")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var email, balance string
	if err := e.pool.QueryRow(ctx, `SELECT email, balance::text FROM accounts WHERE username = 'newcomer'`).Scan(&email, &balance); err != nil {
		t.Fatal(err)
	}
	if email != "shop@blog.example.com" || balance != "0.00" {
		t.Errorf("created account: email %q balance %s", email, balance)
	}
	var aliceAfter string
	if err := e.pool.QueryRow(ctx, `SELECT email FROM accounts WHERE username = 'alice'`).Scan(&aliceAfter); err != nil {
		t.Fatal(err)
	}
	if aliceAfter != aliceBefore {
		t.Errorf("an existing account was changed: email %q, was %q", aliceAfter, aliceBefore)
	}

	// A key added later, for another new account, without an email file.
	writeDirKey(t, dir, "late", "operator-key-late", "latecomer", 1)
	for e.status("operator-key-late") != 200 {
		if time.Now().After(deadline) {
			t.Fatal("the key of an account added later never started working")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := e.pool.QueryRow(ctx, `SELECT email FROM accounts WHERE username = 'latecomer'`).Scan(&email); err != nil || email != "latecomer@marketplace.invalid" {
		t.Errorf("account without an email file: %q %v", email, err)
	}
	if !strings.Contains(e.logs.String(), `"accounts":["newcomer"]`) {
		t.Errorf("the creation is not logged:\n%s", e.logs.String())
	}
}

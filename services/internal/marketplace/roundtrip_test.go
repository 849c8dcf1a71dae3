package marketplace

import (
	"net/http"
	"strings"
	"testing"
)

// TestOneRoundTripPerRequest checks that every request with a key costs
// exactly one statement, success and error paths alike, for stored and
// directory keys, and that requests refused before the key is looked at
// cost none. Each request is sent twice and the second is counted, so that
// a statement's first use on a connection (pgx prepares it then) is not
// mistaken for a second round trip of the request itself.
func TestOneRoundTripPerRequest(t *testing.T) {
	const limit = 20
	dir := t.TempDir()
	writeDirKey(t, dir, "ops-alice", "operator-key-alice", "alice", 1)
	writeDirKey(t, dir, "ops-ghost", "operator-key-ghost", "nobody", 1)
	e := newTestEnv(t, Config{KeysDir: dir, ValidationsPerMinute: limit})
	alice, carol, rateKey := e.keys["alice"], e.keys["carol"], e.createKey("alice")
	const unknown = "mkt_0000000000000000000000000000000000000000"
	get := func(path string, kv ...any) req {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return req{path: path, params: m}
	}
	post := func(key, code string) req {
		return req{method: http.MethodPost, path: PathPurchase, placement: "form",
			params: map[string]any{"api_key": key, "purchase_code": code}}
	}
	tests := []struct {
		name    string
		req     req
		status  int
		queries int64
	}{
		{"account", get(PathAccount, "api_key", alice), 200, 1},
		{"account, directory key", get(PathAccount, "api_key", "operator-key-alice"), 200, 1},
		{"account, directory key without account", get(PathAccount, "api_key", "operator-key-ghost"), 401, 1},
		{"account, unknown key", get(PathAccount, "api_key", unknown), 401, 1},
		{"account, no key", get(PathAccount), 401, 0},
		{"items", get(PathItems, "api_key", alice), 200, 1},
		{"items, directory key", get(PathItems, "api_key", "operator-key-alice"), 200, 1},
		{"items, none", get(PathItems, "api_key", carol), 404, 1},
		{"items, unknown key", get(PathItems, "api_key", unknown), 401, 1},
		{"item", get(PathItem, "api_key", alice, "item_id", 1), 200, 1},
		{"item, directory key", get(PathItem, "api_key", "operator-key-alice", "item_id", 1), 200, 1},
		{"item, another account's", get(PathItem, "api_key", alice, "item_id", 10), 404, 1},
		{"item, unknown key", get(PathItem, "api_key", unknown, "item_id", 1), 401, 1},
		{"item, malformed id", get(PathItem, "api_key", alice, "item_id", "x"), 400, 1},
		{"item, malformed id and unknown key", get(PathItem, "api_key", unknown, "item_id", "x"), 401, 1},
		{"item, missing id", get(PathItem, "api_key", alice), 400, 1},
		{"item, wrong method", req{method: http.MethodPost, path: PathItem}, 405, 0},
		{"purchase", post(alice, "ALICE-SUPPORTED-0001"), 200, 1},
		{"purchase, directory key", post("operator-key-alice", "ALICE-SUPPORTED-0001"), 200, 1},
		{"purchase, unknown code", post(alice, "NOPE"), 404, 1},
		{"purchase, over-long code", post(alice, strings.Repeat("A", 500)), 404, 1},
		{"purchase, unknown key", post(unknown, "ALICE-SUPPORTED-0001"), 401, 1},
		{"purchase, missing code", req{method: http.MethodPost, path: PathPurchase, placement: "form",
			params: map[string]any{"api_key": alice}}, 400, 1},
		// The warm-up uses up rateKey's allowance.
		{"purchase, rate limited", post(rateKey, "ALICE-SUPPORTED-0001"), 429, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			warmUps := 1 // prepares the statement on the connection
			if tt.status == http.StatusTooManyRequests {
				warmUps = limit
			}
			for range warmUps {
				e.do(tt.req)
			}
			e.queries.n.Store(0)
			r := e.do(tt.req)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d (%s)", r.status, tt.status, r.raw)
			}
			if n := e.queries.n.Load(); n != tt.queries {
				t.Fatalf("%d statements, want %d", n, tt.queries)
			}
		})
	}
}

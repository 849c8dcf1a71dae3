package marketplace

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const importBase = `{
  "accounts": [{
    "username": "dave", "email": "dave@example.com", "name": {"firstname": "Dave", "lastname": "D"},
    "balance": 10, "currency": "USD", "registered_at": "2024-01-01T00:00:00Z",
    "profile": {"heading": "h", "description": "d", "social_links": {"x": "https://x.com/dave"},
      "media": {"avatar": "https://a.example.com/a.png", "cover": "https://a.example.com/c.png"}}
  }],
  "items": [{
    "id": 20, "account": "dave", "name": "Dave's Song", "description": "", "category": "Music", "sub_category": "Pop",
    "version": "1.0", "demo_link": "https://demo.example.com/20", "media_kind": "audio",
    "media": {"thumbnail": "https://cdn.example.com/20/t.png", "preview_audio": "https://cdn.example.com/20/p.mp3"},
    "price": {"regular": 1.5, "extended": 15}, "currency": "USD", "published_at": "2024-02-01T00:00:00Z"
  }],
  "purchases": [{
    "purchase_code": "DAVE-1", "item_id": 20, "license_type": "Regular License", "price": 1.5, "currency": "USD",
    "date": "2024-03-01T00:00:00Z"
  }]
}`

// mutate returns importBase changed by f (applied to the decoded document).
func mutate(t *testing.T, f func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(importBase), &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func rec(doc map[string]any, list string, i int) map[string]any {
	return doc[list].([]any)[i].(map[string]any)
}

func sub(m map[string]any, key string) map[string]any { return m[key].(map[string]any) }

// snapshot summarises every table's content.
func (e *testEnv) snapshot() string {
	e.t.Helper()
	var s string
	err := e.pool.QueryRow(context.Background(), `SELECT concat_ws('|',
		(SELECT md5(coalesce(string_agg(a::text, ',' ORDER BY a.id), '')) FROM accounts a),
		(SELECT md5(coalesce(string_agg(i::text, ',' ORDER BY i.id), '')) FROM items i),
		(SELECT md5(coalesce(string_agg(p::text, ',' ORDER BY p.code), '')) FROM purchases p))`).Scan(&s)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func TestImportValidation(t *testing.T) {
	e := newTestEnv(t, Config{})
	tests := []struct {
		name string
		file []byte
		want []string // substrings of the error, each with its record position
	}{
		{"not JSON", []byte(`{"accounts": [`), []string{"file: "}},
		{"trailing data", []byte(importBase + ` {}`), []string{"file: unexpected data"}},
		{"unknown top-level field", mutate(t, func(d map[string]any) { d["users"] = []any{} }), []string{`file: json: unknown field "users"`}},
		{"unknown record field", mutate(t, func(d map[string]any) { rec(d, "items", 0)["colour"] = "red" }),
			[]string{`items[0]: json: unknown field "colour"`}},
		{"wrong type", mutate(t, func(d map[string]any) { sub(rec(d, "accounts", 0), "profile")["social_links"] = []any{"https://x.com"} }),
			[]string{"accounts[0]: json: cannot unmarshal array"}},
		{"account fields", mutate(t, func(d map[string]any) {
			a := rec(d, "accounts", 0)
			a["email"], a["currency"], a["balance"], a["registered_at"] = "not-mail", "usd", "12.345", "yesterday"
			sub(a, "profile")["social_links"] = map[string]any{"x": "ftp://x"}
		}), []string{`accounts[0] (dave): email "not-mail" is not an e-mail address`,
			`accounts[0] (dave): currency "usd" must be a three-letter`,
			"accounts[0] (dave): balance 12.345 must be a non-negative amount with at most 2 decimals",
			`accounts[0] (dave): registered_at "yesterday" is not an ISO 8601 timestamp`,
			`accounts[0] (dave): profile.social_links.x "ftp://x" is not an absolute http(s) URL`}},
		{"negative balance", mutate(t, func(d map[string]any) { rec(d, "accounts", 0)["balance"] = -1 }),
			[]string{"accounts[0] (dave): balance -1 must be a non-negative amount"}},
		{"missing avatar", mutate(t, func(d map[string]any) { delete(sub(sub(rec(d, "accounts", 0), "profile"), "media"), "avatar") }),
			[]string{"accounts[0] (dave): profile.media.avatar is required"}},
		{"duplicate username", mutate(t, func(d map[string]any) {
			d["accounts"] = append(d["accounts"].([]any), d["accounts"].([]any)[0])
		}), []string{"accounts[1] (dave): username repeats accounts[0]"}},
		{"audio item with a preview image", mutate(t, func(d map[string]any) {
			sub(rec(d, "items", 0), "media")["preview_image"] = "https://cdn.example.com/p.jpg"
		}), []string{"items[0] (id 20): media.preview_image is not allowed for audio items"}},
		{"video item without preview video", mutate(t, func(d map[string]any) {
			it := rec(d, "items", 0)
			it["media_kind"] = "video"
			sub(it, "media")["preview_image"] = "https://cdn.example.com/p.jpg"
		}), []string{"items[0] (id 20): media.preview_video is required", "media.preview_audio is not allowed for video items"}},
		{"image item with audio", mutate(t, func(d map[string]any) { rec(d, "items", 0)["media_kind"] = "image" }),
			[]string{"items[0] (id 20): media.preview_image is required", "media.preview_audio is not allowed for image items"}},
		{"unknown media kind", mutate(t, func(d map[string]any) { rec(d, "items", 0)["media_kind"] = "hologram" }),
			[]string{`items[0] (id 20): media_kind "hologram" must be image, video or audio`}},
		{"item fields", mutate(t, func(d map[string]any) {
			it := rec(d, "items", 0)
			it["version"], it["name"], it["tags"] = "1", "", []any{"ok", " "}
			sub(it, "media")["screenshots"] = []any{"nope"}
			sub(it, "price")["extended"] = "1e3"
		}), []string{`items[0] (id 20): version "1" must be a dotted version`, "items[0] (id 20): name is required",
			"items[0] (id 20): tags[1] is empty", `items[0] (id 20): media.screenshots[0] "nope" is not an absolute`,
			"items[0] (id 20): price.extended 1e3 must be"}},
		{"item id", mutate(t, func(d map[string]any) { rec(d, "items", 0)["id"] = 0 }),
			[]string{"items[0] (id 0): id must be a positive integer"}},
		{"fractional item id", mutate(t, func(d map[string]any) { rec(d, "items", 0)["id"] = 2.5 }),
			[]string{"items[0]: json: cannot unmarshal number 2.5"}},
		{"duplicate item id", mutate(t, func(d map[string]any) {
			d["items"] = append(d["items"].([]any), d["items"].([]any)[0])
		}), []string{"items[1] (id 20): id repeats items[0]"}},
		{"purchase fields", mutate(t, func(d map[string]any) {
			p := rec(d, "purchases", 0)
			p["purchase_code"], p["supported_until"], p["license_type"] = "has space", "2030", ""
		}), []string{"purchases[0]: purchase_code must be 1-200 printable characters", `purchases[0]: supported_until "2030"`,
			"purchases[0]: license_type is required"}},
		{"duplicate code", mutate(t, func(d map[string]any) {
			d["purchases"] = append(d["purchases"].([]any), d["purchases"].([]any)[0])
		}), []string{"purchases[1]: purchase_code repeats purchases[0]"}},
		{"problems in several records are all reported", mutate(t, func(d map[string]any) {
			rec(d, "accounts", 0)["currency"] = "dollars"
			rec(d, "purchases", 0)["currency"] = "x"
		}), []string{"accounts[0] (dave): currency", "purchases[0]: currency"}},
		// References are checked against the file and the database, after
		// earlier records were written: these prove the rollback.
		{"item of an unknown account", mutate(t, func(d map[string]any) { rec(d, "items", 0)["account"] = "zed" }),
			[]string{`items[0] (id 20): account "zed" is neither in the file nor in the database`}},
		{"purchase of an unknown item", mutate(t, func(d map[string]any) { rec(d, "purchases", 0)["item_id"] = 777 }),
			[]string{"purchases[0]: item_id 777 is neither in the file nor in the database"}},
	}
	before := e.snapshot()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := e.tryImport(tt.file)
			var ie *ImportError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v, want an *ImportError", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if after := e.snapshot(); after != before {
				t.Fatal("a failed import changed the database")
			}
		})
	}
}

func TestImportIsIdempotentUpsert(t *testing.T) {
	e := newTestEnv(t, Config{})
	e.importFile([]byte(importBase))
	once := e.snapshot()
	e.importFile([]byte(importBase))
	if e.snapshot() != once {
		t.Fatal("importing the same file twice changed the database")
	}
	// A changed record is updated in place, and records may refer to what
	// is already in the database (alice, item 1).
	e.importFile(mutate(t, func(d map[string]any) {
		sub(rec(d, "items", 0), "price")["regular"] = "2.25"
		d["accounts"] = []any{}
		d["purchases"] = append(d["purchases"].([]any), map[string]any{"purchase_code": "ALICE-NEW", "item_id": 1,
			"license_type": "Regular License", "price": 19.99, "currency": "EUR", "date": "2024-05-05T05:05:05Z"})
	}))
	var price string
	var n int
	if err := e.pool.QueryRow(context.Background(),
		`SELECT (SELECT price_regular::text FROM items WHERE id = 20), (SELECT count(*) FROM accounts WHERE username = 'dave')`).Scan(&price, &n); err != nil {
		t.Fatal(err)
	}
	if price != "2.25" || n != 1 {
		t.Fatalf("price %s, %d dave accounts: want 2.25 and 1", price, n)
	}
	r := e.do(req{method: "POST", path: PathPurchase, placement: "form",
		params: map[string]any{"api_key": e.keys["alice"], "purchase_code": "ALICE-NEW"}})
	if r.status != 200 {
		t.Fatalf("imported purchase of an existing item: %d %s", r.status, r.raw)
	}
	// Dave's data is dave's: alice does not see it.
	if r := e.do(req{path: PathItem, params: map[string]any{"api_key": e.keys["alice"], "item_id": 20}}); r.status != 404 {
		t.Fatalf("alice reads dave's item: %d", r.status)
	}
}

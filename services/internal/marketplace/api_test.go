package marketplace

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// TestEndpoints covers each endpoint's success and every error path, with
// the HTTP status and the operation's seed message.
func TestEndpoints(t *testing.T) {
	e := newTestEnv(t, Config{})
	alice, bob, carol := e.keys["alice"], e.keys["bob"], e.keys["carol"]
	p := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name   string
		req    req
		status int
		msg    string // for errors
		check  func(t *testing.T, r resp)
	}{
		// Account details.
		{"account: query key", req{path: PathAccount, params: p("api_key", alice)}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "data.username", "alice") }},
		{"account: bearer", req{path: PathAccount, placement: "bearer", params: p("api_key", bob)}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "data.username", "bob") }},
		{"account: form body", req{path: PathAccount, placement: "form", params: p("api_key", carol)}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "data.username", "carol") }},
		{"account: json body", req{path: PathAccount, placement: "json", params: p("api_key", alice)}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "data.username", "alice") }},
		{"account: missing key", req{path: PathAccount}, 401, msgAccount, nil},
		{"account: empty key", req{path: PathAccount, params: p("api_key", "")}, 401, msgAccount, nil},
		{"account: unknown key", req{path: PathAccount, params: p("api_key", "mkt_0000000000000000000000000000000000000000")}, 401, msgAccount, nil},
		{"account: unknown bearer", req{path: PathAccount, placement: "bearer", params: p("api_key", "nope")}, 401, msgAccount, nil},
		{"account: non-string json key", req{path: PathAccount, body: `{"api_key": {"a": 1}}`, ctype: "application/json"}, 401, msgAccount, nil},
		{"account: malformed json", req{path: PathAccount, body: `{"api_key": `, ctype: "application/json"}, 400, msgAccount, nil},
		{"account: json array body", req{path: PathAccount, body: `["x"]`, ctype: "application/json"}, 400, msgAccount, nil},
		{"account: POST", req{method: "POST", path: PathAccount, params: p("api_key", alice)}, 405, msgAccount,
			func(t *testing.T, r resp) { wantHeader(t, r, "Allow", "GET, HEAD") }},
		{"account: DELETE without key", req{method: "DELETE", path: PathAccount}, 405, msgAccount, nil},

		// All items.
		{"items: three items in id order", req{path: PathItems, params: p("api_key", alice)}, 200, "",
			func(t *testing.T, r resp) {
				items := r.body["items"].([]any)
				var ids []float64
				for _, it := range items {
					ids = append(ids, it.(map[string]any)["id"].(float64))
				}
				if !reflect.DeepEqual(ids, []float64{1, 2, 3}) {
					t.Fatalf("item ids %v, want [1 2 3]: only alice's, by id", ids)
				}
			}},
		{"items: bob sees only his", req{path: PathItems, placement: "bearer", params: p("api_key", bob)}, 200, "",
			func(t *testing.T, r resp) {
				if n := len(r.body["items"].([]any)); n != 1 {
					t.Fatalf("%d items, want 1", n)
				}
			}},
		{"items: account without items", req{path: PathItems, params: p("api_key", carol)}, 404, msgItems, nil},
		{"items: missing key", req{path: PathItems}, 401, msgItems, nil},
		{"items: unknown key", req{path: PathItems, params: p("api_key", "x")}, 401, msgItems, nil},
		{"items: PUT", req{method: "PUT", path: PathItems, params: p("api_key", alice)}, 405, msgItems, nil},

		// One item.
		{"item: query", req{path: PathItem, params: p("api_key", alice, "item_id", 2)}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "item.name", "Video Intro") }},
		{"item: json number", req{path: PathItem, placement: "json", params: p("api_key", alice, "item_id", 3)}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "item.name", "Audio Track") }},
		{"item: json string", req{path: PathItem, placement: "json", params: p("api_key", alice, "item_id", "1")}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "item.name", "Image Theme") }},
		{"item: multipart", req{path: PathItem, placement: "multipart", params: p("api_key", bob, "item_id", 10)}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "item.name", "Bob's Plugin") }},
		{"item: bearer", req{path: PathItem, placement: "bearer", params: p("api_key", alice, "item_id", 1)}, 200, "", nil},
		{"item: body wins over query", req{path: PathItem + "?item_id=1", placement: "form", params: p("api_key", alice, "item_id", 2)}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "item.id", 2.0) }},
		{"item: missing item_id", req{path: PathItem, params: p("api_key", alice)}, 400, msgItem, nil},
		{"item: empty item_id", req{path: PathItem, params: p("api_key", alice, "item_id", "")}, 400, msgItem, nil},
		{"item: non-integer", req{path: PathItem, params: p("api_key", alice, "item_id", "abc")}, 400, msgItem, nil},
		{"item: decimal", req{path: PathItem, params: p("api_key", alice, "item_id", "1.5")}, 400, msgItem, nil},
		{"item: json decimal", req{path: PathItem + "?api_key=" + alice, body: `{"item_id": 1.0}`, ctype: "application/json"}, 400, msgItem, nil},
		{"item: json boolean", req{path: PathItem + "?api_key=" + alice, body: `{"item_id": true}`, ctype: "application/json"}, 400, msgItem, nil},
		{"item: unknown id", req{path: PathItem, params: p("api_key", alice, "item_id", 999)}, 404, msgItem, nil},
		{"item: negative id", req{path: PathItem, params: p("api_key", alice, "item_id", -1)}, 404, msgItem, nil},
		{"item: beyond int64", req{path: PathItem, params: p("api_key", alice, "item_id", "99999999999999999999")}, 404, msgItem, nil},
		{"item: another account's item", req{path: PathItem, params: p("api_key", alice, "item_id", 10)}, 404, msgItem, nil},
		{"item: own item of the other account", req{path: PathItem, params: p("api_key", bob, "item_id", 1)}, 404, msgItem, nil},
		{"item: missing key before item_id", req{path: PathItem, params: p("item_id", 1)}, 401, msgItem, nil},
		{"item: POST", req{method: "POST", path: PathItem, placement: "form", params: p("api_key", alice, "item_id", 1)}, 405, msgItem, nil},

		// Purchase validation.
		{"purchase: form body", req{method: "POST", path: PathPurchase, placement: "form",
			params: p("api_key", alice, "purchase_code", "ALICE-SUPPORTED-0001")}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "data.purchase.purchase_code", "ALICE-SUPPORTED-0001") }},
		{"purchase: json body", req{method: "POST", path: PathPurchase, placement: "json",
			params: p("api_key", alice, "purchase_code", "ALICE-UNSUPPORTED-0002")}, 200, "",
			func(t *testing.T, r resp) { wantPath(t, r.body, "data.purchase.item.id", 3.0) }},
		{"purchase: query string", req{method: "POST", path: PathPurchase,
			params: p("api_key", bob, "purchase_code", "BOB-CODE-0003")}, 200, "", nil},
		{"purchase: multipart", req{method: "POST", path: PathPurchase, placement: "multipart",
			params: p("api_key", bob, "purchase_code", "BOB-CODE-0003")}, 200, "", nil},
		{"purchase: wrong key in query", req{method: "POST", path: PathPurchase + "?api_key=wrong", placement: "multipart",
			params: p("purchase_code", "BOB-CODE-0003")}, 401, msgPurchase, nil},
		{"purchase: bearer", req{method: "POST", path: PathPurchase, placement: "bearer",
			params: p("api_key", bob, "purchase_code", "BOB-CODE-0003")}, 200, "", nil},
		{"purchase: code is case-sensitive", req{method: "POST", path: PathPurchase, placement: "form",
			params: p("api_key", bob, "purchase_code", "bob-code-0003")}, 404, msgPurchase, nil},
		{"purchase: missing code", req{method: "POST", path: PathPurchase, placement: "form", params: p("api_key", alice)}, 400, msgPurchase, nil},
		{"purchase: code not a string", req{method: "POST", path: PathPurchase + "?api_key=" + alice, body: `{"purchase_code": ["x"]}`,
			ctype: "application/json"}, 400, msgPurchase, nil},
		{"purchase: unknown code", req{method: "POST", path: PathPurchase, placement: "form",
			params: p("api_key", alice, "purchase_code", "NOPE")}, 404, msgPurchase, nil},
		{"purchase: very long code", req{method: "POST", path: PathPurchase, placement: "form",
			params: p("api_key", alice, "purchase_code", strings.Repeat("A", 500))}, 404, msgPurchase, nil},
		{"purchase: another account's code", req{method: "POST", path: PathPurchase, placement: "form",
			params: p("api_key", alice, "purchase_code", "BOB-CODE-0003")}, 404, msgPurchase, nil},
		{"purchase: missing key", req{method: "POST", path: PathPurchase, placement: "form",
			params: p("purchase_code", "BOB-CODE-0003")}, 401, msgPurchase, nil},
		{"purchase: GET", req{path: PathPurchase, params: p("api_key", alice, "purchase_code", "ALICE-SUPPORTED-0001")}, 405, msgPurchase,
			func(t *testing.T, r resp) { wantHeader(t, r, "Allow", "POST") }},
		{"purchase: body too large", req{method: "POST", path: PathPurchase + "?api_key=" + alice,
			body: `{"purchase_code": "` + strings.Repeat("x", maxParamBody) + `"}`, ctype: "application/json"}, 413, msgPurchase, nil},

		// The server's own errors use the same envelope.
		{"unknown path", req{path: "/api/nowhere"}, 404, "No route was found matching the URL and request method.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.req)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.raw)
			}
			if tt.status >= 400 {
				want := map[string]any{"status": "error", "msg": tt.msg}
				if !reflect.DeepEqual(r.body, want) {
					t.Fatalf("body %s, want %v", r.raw, want)
				}
			} else if r.body["status"] != "success" {
				t.Fatalf("status field %v, want success", r.body["status"])
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json; charset=UTF-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

// wantPath compares the value at a dotted path of a decoded JSON body.
func wantPath(t *testing.T, body map[string]any, path string, want any) {
	t.Helper()
	var cur any = body
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			t.Fatalf("%s: %v is not an object", path, cur)
		}
		cur = m[part]
	}
	if !reflect.DeepEqual(cur, want) {
		t.Fatalf("%s = %#v, want %#v", path, cur, want)
	}
}

func wantHeader(t *testing.T, r resp, name, want string) {
	t.Helper()
	if got := r.header.Get(name); got != want {
		t.Fatalf("%s: %q, want %q", name, got, want)
	}
}

// TestResponseBodies pins the exact JSON of each resource: field names and
// nesting, social_links as an object, the media presence rules per kind,
// money without float drift, UTC timestamps ending in Z, supported_until
// omitted when null.
func TestResponseBodies(t *testing.T) {
	e := newTestEnv(t, Config{})
	alice := e.keys["alice"]
	tests := []struct {
		name string
		req  req
		want string
	}{
		{"account", req{path: PathAccount, params: map[string]any{"api_key": alice}}, `{"status":"success","data":{
			"name":{"firstname":"Alice","lastname":"Author","full_name":"Alice Author"},
			"username":"alice","email":"alice@example.com","balance":1250.50,"currency":"EUR",
			"profile":{"heading":"Alice's studio","description":"Themes & sounds","contact":{"email":"hello@alice.example.com"},
				"social_links":{"facebook":"https://facebook.com/alice","x":"https://x.com/alice"},
				"media":{"avatar":"https://cdn.example.com/alice/avatar.png","cover":"https://cdn.example.com/alice/cover.jpg"}},
			"registered_at":"2020-02-03T02:05:06Z"}}`},
		{"account without links or contact", req{path: PathAccount, params: map[string]any{"api_key": e.keys["bob"]}}, `{"status":"success","data":{
			"name":{"firstname":"Bob","lastname":"Builder","full_name":"Bob Builder"},
			"username":"bob","email":"bob@example.com","balance":0.00,"currency":"USD",
			"profile":{"heading":"","description":"","contact":{"email":"bob@example.com"},"social_links":{},
				"media":{"avatar":"https://cdn.example.com/bob/a.png","cover":"https://cdn.example.com/bob/c.png"}},
			"registered_at":"2021-01-01T00:00:00Z"}}`},
		{"image item", req{path: PathItem, params: map[string]any{"api_key": alice, "item_id": 1}}, `{"status":"success","item":{
			"id":1,"name":"Image Theme","description":"An image item","category":"WordPress","sub_category":"Blog",
			"options":["Gutenberg","RTL"],"version":"1.2.3","demo_link":"https://demo.example.com/image?x=1&y=2","tags":["blog","minimal"],
			"media":{"thumbnail":"https://cdn.example.com/1/t.png","preview_image":"https://cdn.example.com/1/p.jpg",
				"screenshots":["https://cdn.example.com/1/s1.jpg","https://cdn.example.com/1/s2.jpg"]},
			"price":{"regular":19.99,"extended":999.90},"currency":"EUR","published_at":"2023-05-06T07:08:09Z"}}`},
		{"video item", req{path: PathItem, params: map[string]any{"api_key": alice, "item_id": 2}}, `{"status":"success","item":{
			"id":2,"name":"Video Intro","description":"A video item","category":"Video Templates","sub_category":"Openers",
			"options":[],"version":"2.0.0","demo_link":"https://demo.example.com/video","tags":[],
			"media":{"thumbnail":"https://cdn.example.com/2/t.png","preview_image":"https://cdn.example.com/2/p.jpg",
				"preview_video":"https://cdn.example.com/2/p.mp4","screenshots":[]},
			"price":{"regular":0.10,"extended":100.00},"currency":"EUR","published_at":"2023-05-06T06:08:09Z"}}`},
		{"audio item", req{path: PathItem, params: map[string]any{"api_key": alice, "item_id": 3}}, `{"status":"success","item":{
			"id":3,"name":"Audio Track","description":"An audio item","category":"Music","sub_category":"Ambient",
			"options":[],"version":"1.0.0-beta.2","demo_link":"https://demo.example.com/audio","tags":[],
			"media":{"thumbnail":"https://cdn.example.com/3/t.png","preview_audio":"https://cdn.example.com/3/p.mp3","screenshots":[]},
			"price":{"regular":12345678901.23,"extended":5.00},"currency":"EUR","published_at":"2024-12-31T23:59:59Z"}}`},
		{"supported purchase", req{method: "POST", path: PathPurchase, placement: "form",
			params: map[string]any{"api_key": alice, "purchase_code": "ALICE-SUPPORTED-0001"}}, `{"status":"success","data":{"purchase":{
			"purchase_code":"ALICE-SUPPORTED-0001","license_type":"Regular License","price":19.99,"currency":"EUR",
			"item":{"id":1,"name":"Image Theme","url":"https://market.example.com/item/1","media":{"preview_image":"https://cdn.example.com/1/p.jpg"}},
			"supported_until":"2030-01-01T00:00:00Z","downloaded":true,"date":"2024-01-02T03:04:05Z"}}}`},
		{"unsupported purchase of an audio item", req{method: "POST", path: PathPurchase, placement: "form",
			params: map[string]any{"api_key": alice, "purchase_code": "ALICE-UNSUPPORTED-0002"}}, `{"status":"success","data":{"purchase":{
			"purchase_code":"ALICE-UNSUPPORTED-0002","license_type":"Extended License","price":5.00,"currency":"EUR",
			"item":{"id":3,"name":"Audio Track","url":"https://demo.example.com/audio","media":{}},
			"downloaded":false,"date":"2024-02-03T09:05:06Z"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(tt.req)
			if r.status != 200 {
				t.Fatalf("status %d: %s", r.status, r.raw)
			}
			// Compact both sides and compare the text: this also checks that
			// numbers are written digit for digit (19.99, never 19.990000001).
			if got, want := compact(t, r.raw), compact(t, tt.want); got != want {
				t.Fatalf("body\n got %s\nwant %s", got, want)
			}
		})
	}
	// The list holds the same records as the single-item reads.
	r := e.do(req{path: PathItems, params: map[string]any{"api_key": alice}})
	var list struct{ Items []json.RawMessage }
	if err := json.Unmarshal([]byte(r.raw), &list); err != nil || len(list.Items) != 3 {
		t.Fatalf("items list: %v %s", err, r.raw)
	}
	one := e.do(req{path: PathItem, params: map[string]any{"api_key": alice, "item_id": 3}})
	var single struct{ Item json.RawMessage }
	_ = json.Unmarshal([]byte(one.raw), &single)
	if string(list.Items[2]) != string(single.Item) {
		t.Fatalf("list entry %s differs from item %s", list.Items[2], single.Item)
	}
}

// compact removes insignificant space from JSON text without re-encoding
// its values, so keys keep their order and numbers their digits.
func compact(t *testing.T, s string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		t.Fatalf("invalid JSON %q: %v", s, err)
	}
	return buf.String()
}

func TestHeadAnswersWithoutBody(t *testing.T) {
	e := newTestEnv(t, Config{})
	r := e.do(req{method: http.MethodHead, path: PathAccount, params: map[string]any{"api_key": e.keys["alice"]}})
	if r.status != 200 || r.raw != "" {
		t.Fatalf("HEAD: %d %q", r.status, r.raw)
	}
}

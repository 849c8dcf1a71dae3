package gateway

import (
	"encoding/json"
	"fmt"
	"testing"
)

func batchOf(validation string, reqs ...map[string]any) map[string]any {
	b := map[string]any{"requests": reqs}
	if validation != "" {
		b["validation"] = validation
	}
	return b
}

func post(path, title string) map[string]any {
	return map[string]any{"method": "POST", "path": path, "body": map[string]any{"title": title}}
}

func responses(t *testing.T, v any) []map[string]any {
	t.Helper()
	raw, _ := v.(map[string]any)["responses"].([]any)
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i], _ = r.(map[string]any)
	}
	return out
}

func TestBatchEnvelopeValidation(t *testing.T) {
	f := newKitFixture(t)
	admin := []string{"admin", f.adminPW}
	var many []map[string]any
	for i := 0; i < 26; i++ {
		many = append(many, post("/cms/v2/posts", fmt.Sprint(i)))
	}
	tests := []struct {
		name   string
		body   any
		param  string
		detail string
	}{
		{"26 requests", batchOf("", many...), "requests", "requests must contain at most 25 items."},
		{"GET method", batchOf("", map[string]any{"method": "GET", "path": "/cms/v2/posts"}), "requests", "requests[0][method] is not one of POST, PUT, PATCH, and DELETE."},
		{"missing path", batchOf("", map[string]any{"method": "POST"}), "requests", "path is a required property of requests[0]."},
		{"bad validation", batchOf("all", post("/cms/v2/posts", "x")), "validation", "validation is not one of require-all-validate and normal."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, v := f.do(t, "POST", "/cms-json/batch/v1", tt.body, admin...)
			o, _ := v.(map[string]any)
			if rec.Code != 400 || o["code"] != "rest_invalid_param" {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			params := o["data"].(map[string]any)["params"].(map[string]any)
			if params[tt.param] != tt.detail {
				t.Fatalf("params %v", params)
			}
		})
	}
	if f.content.count() != 0 {
		t.Fatal("a rejected batch wrote something")
	}
	if rec, v := f.do(t, "POST", "/cms-json/batch/v1", map[string]any{}, admin...); rec.Code != 400 || v.(map[string]any)["code"] != "rest_missing_callback_param" {
		t.Fatalf("no requests: %d %s", rec.Code, rec.Body)
	}
}

func TestBatchNormalMixedServices(t *testing.T) {
	f := newKitFixture(t)
	rec, v := f.do(t, "POST", "/cms-json/batch/v1", batchOf("",
		post("/cms/v2/posts", "first"),
		post("/cms/v2/media", "a file"),                                  // another service, batchable
		map[string]any{"method": "POST", "path": "/cms/v2/media/1/edit"}, // not batchable
		map[string]any{"method": "POST", "path": "/cms/v2/posts", "body": map[string]any{"status": "bogus", "title": "x"}},
		map[string]any{"method": "DELETE", "path": "/cms/v2/posts/1?force=true"},
		map[string]any{"method": "POST", "path": "/nowhere/v1/x"},
		map[string]any{"method": "POST", "path": "/batch/v1"},
		map[string]any{"method": "POST", "path": "/cms/v2/posts/../../internal/batch/v1"},
		map[string]any{"method": "POST", "path": ""},            // parses; no route is ""
		map[string]any{"method": "POST", "path": "http://[::1"}, // does not parse
		// the gateway's own routes: /users/{id} is batchable, /users/me not (as in WordPress)
		map[string]any{"method": "DELETE", "path": "/cms/v2/users/999999?force=true&reassign=1"},
		map[string]any{"method": "POST", "path": "/cms/v2/users/me", "body": map[string]any{"name": "x"}},
	), "admin", f.adminPW)
	if rec.Code != 207 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if _, failed := v.(map[string]any)["failed"]; failed {
		t.Fatal("normal mode must not report failed")
	}
	rs := responses(t, v)
	want := []struct {
		status int
		code   string
	}{{201, ""}, {201, ""}, {400, "rest_batch_not_allowed"}, {400, "rest_invalid_param"}, {200, ""}, {404, "rest_no_route"}, {400, "rest_batch_not_allowed"}, {404, "rest_no_route"}, {404, "rest_no_route"}, {400, "parse_path_failed"},
		{404, "rest_user_invalid_id"}, {400, "rest_batch_not_allowed"}}
	if len(rs) != len(want) {
		t.Fatalf("%d responses: %s", len(rs), rec.Body)
	}
	for i, w := range want {
		body, _ := rs[i]["body"].(map[string]any)
		if int(rs[i]["status"].(float64)) != w.status || (w.code != "" && body["code"] != w.code) {
			t.Errorf("response %d: %v", i, rs[i])
		}
	}
	h, _ := rs[0]["headers"].(map[string]any)
	if h["Location"] != "http://site.test/cms-json/cms/v2/posts/1" {
		t.Errorf("headers of a created item: %v", rs[0]["headers"])
	}
	// §11.2 step 5: an item that failed pre-validation after its route
	// matched is answered through respond_to_request, so it carries that
	// route's Allow; an unmatched one has no headers.
	for i, want := range map[int]string{2: `{"Allow":"POST"}`, 3: `{"Allow":"GET, POST"}`, 5: "[]", 7: "[]"} {
		if hs, _ := json.Marshal(rs[i]["headers"]); string(hs) != want {
			t.Errorf("headers of response %d: %s, want %s", i, hs, want)
		}
	}
	if f.content.count() != 0 || f.media.count() != 1 {
		t.Errorf("content %d posts (created then deleted), media %d", f.content.count(), f.media.count())
	}
	// Sub-requests run as the caller: anonymous gets per-item 401s.
	_, v = f.do(t, "POST", "/cms-json/batch/v1", batchOf("", post("/cms/v2/posts", "anon")))
	if rs := responses(t, v); rs[0]["status"] != float64(401) || rs[0]["body"].(map[string]any)["code"] != "rest_cannot_create" {
		t.Fatalf("anonymous: %v", rs)
	}
}

func TestBatchRequireAllValidate(t *testing.T) {
	f := newKitFixture(t)
	admin := []string{"admin", f.adminPW}
	// One invalid item: nothing runs, null for the valid ones.
	rec, v := f.do(t, "POST", "/cms-json/batch/v1", batchOf("require-all-validate",
		post("/cms/v2/posts", "ok"),
		map[string]any{"method": "POST", "path": "/cms/v2/posts", "body": map[string]any{}},
	), admin...)
	if rec.Code != 207 || v.(map[string]any)["failed"] != "validation" {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	rs := v.(map[string]any)["responses"].([]any)
	if rs[0] != nil || rs[1].(map[string]any)["status"] != float64(400) ||
		rs[1].(map[string]any)["body"].(map[string]any)["code"] != "rest_missing_callback_param" {
		t.Fatalf("responses %s", rec.Body)
	}
	if f.content.count() != 0 {
		t.Fatal("a failed validation executed something")
	}

	// All valid, one service: run in one transaction by the service.
	rec, v = f.do(t, "POST", "/cms-json/batch/v1", batchOf("require-all-validate",
		post("/cms/v2/posts", "a"), post("/cms/v2/posts", "b")), admin...)
	if rec.Code != 207 || v.(map[string]any)["failed"] != nil || f.content.count() != 2 {
		t.Fatalf("atomic commit: %d %s (posts %d)", rec.Code, rec.Body, f.content.count())
	}
	if rs := responses(t, v); rs[1]["status"] != float64(201) || rs[1]["body"].(map[string]any)["title"] != "b" {
		t.Fatalf("atomic responses %s", rec.Body)
	}

	// Valid but failing at execution: everything is rolled back.
	rec, v = f.do(t, "POST", "/cms-json/batch/v1", batchOf("require-all-validate",
		post("/cms/v2/posts", "c"), post("/cms/v2/posts", "fail"), post("/cms/v2/posts", "d")), admin...)
	if rec.Code != 207 || v.(map[string]any)["failed"] != "execution" {
		t.Fatalf("atomic rollback: %d %s", rec.Code, rec.Body)
	}
	rs = v.(map[string]any)["responses"].([]any)
	codes := []string{}
	for _, r := range rs {
		codes = append(codes, r.(map[string]any)["body"].(map[string]any)["code"].(string))
	}
	if fmt.Sprint(codes) != "[rest_batch_rolled_back rest_fail rest_batch_rolled_back]" {
		t.Fatalf("codes %v", codes)
	}
	if f.content.count() != 2 {
		t.Fatalf("rollback left %d posts, want 2", f.content.count())
	}

	// Mixed services: WordPress semantics, each runs on its own.
	rec, v = f.do(t, "POST", "/cms-json/batch/v1", batchOf("require-all-validate",
		post("/cms/v2/posts", "e"), post("/cms/v2/media", "f")), admin...)
	if rec.Code != 207 || v.(map[string]any)["failed"] != nil || f.content.count() != 3 || f.media.count() != 1 {
		t.Fatalf("mixed: %d %s", rec.Code, rec.Body)
	}
}

// What the gateway validated is what the owner runs: a query parameter that
// would reroute the sub-request at the service (rest_route in any spelling
// PHP reads) is dropped once, when the path is parsed, so the validated
// create stays a create.
func TestBatchSubRequestCannotReroute(t *testing.T) {
	f := newKitFixture(t)
	admin := []string{"admin", f.adminPW}
	for i, spelling := range []string{"rest_route", "rest.route", "rest%2Eroute", "rest+route", "rest%20route", "rest[route", "+rest_route", "%20rest.route"} {
		rec, v := f.do(t, "POST", "/cms-json/batch/v1", batchOf("",
			post("/cms/v2/posts?"+spelling+"=/cms/v2/posts/1/edit", "created")), admin...)
		if rec.Code != 207 {
			t.Fatalf("%s: %d %s", spelling, rec.Code, rec.Body)
		}
		if r := responses(t, v)[0]; r["status"] != float64(201) || f.content.count() != i+1 {
			t.Fatalf("%s: ran as another route: %v (posts %d)", spelling, r, f.content.count())
		}
	}
}

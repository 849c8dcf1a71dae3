package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

func TestAllOrNothingBatch(t *testing.T) {
	e := newEnv(t)
	run := func(body string) map[string]any {
		t.Helper()
		return postBatch(t, e, editor, []byte(body))
	}
	count := func() string { return e.do(editor, "GET", "/cms/v2/posts?status=any", nil).Header.Get("X-WP-Total") }

	// both requests succeed: one commit
	out := run(`{"requests":[
		{"method":"POST","route":"/cms/v2/categories","query":"","body":{"name":"Batch"}},
		{"method":"POST","route":"/cms/v2/posts","query":"","body":{"title":"B1","status":"publish"}}]}`)
	if out["committed"] != true || count() != "1" {
		t.Fatalf("commit: %v", out)
	}
	resp := out["responses"].([]any)
	if first := resp[0].(map[string]any); first["status"] != float64(201) || first["headers"].(map[string]any)["Location"] == nil {
		t.Fatalf("first response: %v", first)
	}

	// the second request fails: the first is rolled back
	out = run(`{"requests":[
		{"method":"POST","route":"/cms/v2/posts","query":"","body":{"title":"B2","status":"publish"}},
		{"method":"DELETE","route":"/cms/v2/posts/999999","query":"force=true","body":null}]}`)
	if out["committed"] != false || count() != "1" {
		t.Fatalf("rollback: %v (total %s)", out, count())
	}
	resp = out["responses"].([]any)
	if len(resp) != 2 || resp[1].(map[string]any)["status"] != float64(404) {
		t.Fatalf("responses: %v", resp)
	}
}

// runBatch posts a batch (contract.BatchRequest) to e's BatchHandler as who
// and decodes the answer.
func runBatch(t *testing.T, e *testEnv, who string, calls []contract.BatchSubRequest) map[string]any {
	t.Helper()
	body, err := json.Marshal(contract.BatchRequest{Requests: calls})
	if err != nil {
		t.Fatal(err)
	}
	return postBatch(t, e, who, body)
}

// postBatch posts the batch body to e's BatchHandler as who and decodes
// the answer, which must be a 200.
func postBatch(t *testing.T, e *testEnv, who string, body []byte) map[string]any {
	t.Helper()
	srv, err := e.svc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, nil)(e.svc.BatchHandler(srv, nil))
	req := httptest.NewRequest("POST", contract.BatchPath, bytes.NewReader(body))
	if id := callers[who]; id.LoggedIn() {
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, id, time.Now().Add(time.Minute)))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("batch status %d: %s", rec.Code, rec.Body)
	}
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// seedSlugRivals gives e posts whose slugs the creates below compete with:
// "hello", "hello-3" (a gap), "same" … "same-30" (more rivals than a batch
// reads ahead), a page "hello" (another type) and a draft "Hello" (no slug).
func seedSlugRivals(t *testing.T, e *testEnv) {
	t.Helper()
	seed := []struct{ path, body string }{
		{"/cms/v2/posts", `{"title":"Hello","status":"publish"}`},
		{"/cms/v2/posts", `{"title":"Other","slug":"hello-3","status":"publish"}`},
		{"/cms/v2/pages", `{"title":"Hello","status":"publish"}`},
		{"/cms/v2/posts", `{"title":"Hello","status":"draft"}`},
	}
	for range 30 {
		seed = append(seed, struct{ path, body string }{"/cms/v2/posts", `{"title":"Same","status":"publish"}`})
	}
	for _, s := range seed {
		var body map[string]any
		if err := json.Unmarshal([]byte(s.body), &body); err != nil {
			t.Fatal(err)
		}
		wantStatus(t, e.do(editor, "POST", s.path, body), 201)
	}
}

// TestBatchCreatesNumberSlugsAsSequentialCreates: a batch of creates whose
// titles share slugs with each other and with stored posts gets the ids,
// slugs and generated slugs the same creates get one after another, and
// the batch looks the slugs up in one statement (not one per create).
func TestBatchCreatesNumberSlugsAsSequentialCreates(t *testing.T) {
	items := []struct{ path, body string }{
		{"/cms/v2/posts", `{"title":"Hello","status":"publish"}`},
		{"/cms/v2/posts", `{"title":{"raw":"Hello"},"status":"publish"}`},
		{"/cms/v2/posts", `{"title":"<em>Hello</em>","status":"publish"}`},
		{"/cms/v2/posts", `{"title":"Hello","slug":"hello","status":"draft"}`},
		{"/cms/v2/posts", `{"title":"Hello","status":"draft"}`},
		{"/cms/v2/posts", `{"title":"Hello","status":"publish"}`},
		{"/cms/v2/pages", `{"title":"Hello","status":"publish"}`},
		{"/cms/v2/posts", `{"title":"World","status":"publish"}`},
		{"/cms/v2/posts", `{"title":"Elsewhere","slug":"world","status":"publish"}`},
		{"/cms/v2/posts", `{"title":"Same","status":"publish"}`},
		{"/cms/v2/posts", `{"title":"Same","status":"publish"}`},
		{"/cms/v2/posts", `{"title":"","status":"publish"}`},
		{"/cms/v2/posts", `{"title":"2024","status":"publish"}`},
	}
	bodies := make([]map[string]any, len(items))
	for i, it := range items {
		if err := json.Unmarshal([]byte(it.body), &bodies[i]); err != nil {
			t.Fatal(err)
		}
	}
	// one after another
	seq := newEnv(t)
	seedSlugRivals(t, seq)
	var want []map[string]any
	for i, it := range items {
		r := seq.do(editor, "POST", it.path, bodies[i])
		wantStatus(t, r, 201)
		want = append(want, r.obj())
	}
	// in one batch
	bat := newEnv(t)
	seedSlugRivals(t, bat)
	calls := make([]contract.BatchSubRequest, len(items))
	for i, it := range items {
		calls[i] = contract.BatchSubRequest{Method: "POST", Route: it.path, Body: bodies[i]}
	}
	before := bat.queries.n.Load()
	out := runBatch(t, bat, editor, calls)
	statements := bat.queries.n.Load() - before
	if out["committed"] != true {
		t.Fatalf("batch: %v", out)
	}
	got := out["responses"].([]any)
	if len(got) != len(items) {
		t.Fatalf("%d responses for %d requests", len(got), len(items))
	}
	for i := range items {
		g := got[i].(map[string]any)
		if g["status"] != float64(201) {
			t.Fatalf("item %d: %v", i, g)
		}
		gb := g["body"].(map[string]any)
		for _, k := range []string{"id", "slug", "generated_slug", "status", "type", "link"} {
			if fmt.Sprint(gb[k]) != fmt.Sprint(want[i][k]) {
				t.Errorf("item %d (%s): %s = %v in the batch, %v one after another", i, items[i].body, k, gb[k], want[i][k])
			}
		}
	}
	// the numbering itself (hello and hello-3 are taken; drafts keep no slug)
	for i, slug := range map[int]string{0: "hello-2", 1: "hello-4", 2: "hello-5", 3: "hello-6", 4: "", 5: "hello-7", 6: "hello-2", 7: "world", 8: "world-2", 9: "same-31", 10: "same-32"} {
		if s := str(got[i].(map[string]any)["body"].(map[string]any)["slug"]); s != slug {
			t.Errorf("item %d: slug %q, want %q", i, s, slug)
		}
	}
	// begin, the slugs read ahead, a write per create, the id drawn for the
	// untitled post and its generated slug, two rounds of lookups for each
	// "same" (its rivals outnumber what was read ahead), commit: 22, where
	// a lookup per create made 34
	if limit := int64(len(items)) + 9; statements > limit {
		t.Errorf("the batch sent %d statements, want at most %d", statements, limit)
	}
}

// TestBatchCreateFailureRollsBackEverything: a create that fails in the
// middle of an all-or-nothing batch of creates ends it, nothing is written,
// and the next batch numbers its slugs as if the first never ran.
func TestBatchCreateFailureRollsBackEverything(t *testing.T) {
	e := newEnv(t)
	wantStatus(t, e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "Hello", "status": "publish"}), 201)
	count := func() string { return e.do(editor, "GET", "/cms/v2/posts?status=any", nil).Header.Get("X-WP-Total") }
	create := func(body map[string]any) contract.BatchSubRequest {
		return contract.BatchSubRequest{Method: "POST", Route: "/cms/v2/posts", Body: body}
	}
	hello := map[string]any{"title": "Hello", "status": "publish"}
	out := runBatch(t, e, editor, []contract.BatchSubRequest{
		create(hello), create(hello),
		create(map[string]any{"title": "Hello", "status": "publish", "author": 999}),
		create(hello),
	})
	if out["committed"] != false || count() != "1" {
		t.Fatalf("rollback: %v (total %s)", out, count())
	}
	resp := out["responses"].([]any)
	last := resp[len(resp)-1].(map[string]any)
	if len(resp) != 3 || last["status"] != float64(400) || last["body"].(map[string]any)["code"] != "rest_invalid_author" {
		t.Fatalf("responses: %v", resp)
	}
	if s := resp[1].(map[string]any)["body"].(map[string]any)["slug"]; s != "hello-3" {
		t.Fatalf("second create before the failure: slug %v, want hello-3", s)
	}
	out = runBatch(t, e, editor, []contract.BatchSubRequest{create(hello), create(hello)})
	if out["committed"] != true || count() != "3" {
		t.Fatalf("second batch: %v (total %s)", out, count())
	}
	for i, want := range []string{"hello-2", "hello-3"} {
		if s := out["responses"].([]any)[i].(map[string]any)["body"].(map[string]any)["slug"]; s != want {
			t.Errorf("create %d: slug %v, want %s", i, s, want)
		}
	}
}

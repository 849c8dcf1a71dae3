package stack

import (
	"net/http"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

func batch(t *testing.T, validation string, reqs ...map[string]any) *Response {
	t.Helper()
	body := map[string]any{"requests": reqs}
	if validation != "" {
		body["validation"] = validation
	}
	return call(t, "POST", "/cms-json/batch/v1", body, admin()...)
}

func items(t *testing.T, r *Response) []map[string]any {
	t.Helper()
	if r.Status != 207 {
		t.Fatalf("batch: %d %.500s", r.Status, r.Raw)
	}
	raw, _ := r.Obj()["responses"].([]any)
	out := make([]map[string]any, len(raw))
	for i, x := range raw {
		out[i], _ = x.(map[string]any)
	}
	return out
}

func codeOf(item map[string]any) string {
	b, _ := item["body"].(map[string]any)
	c, _ := b["code"].(string)
	return c
}

// countPosts counts posts with the given slugs (as the admin, any status).
// Batches below identify posts by slug.
func countPosts(t *testing.T, slugs string) int {
	t.Helper()
	r := call(t, "GET", "/cms-json/cms/v2/posts?status=any&per_page=100&slug="+slugs, nil, admin()...)
	l, _ := r.JSON.([]any)
	return len(l)
}

func TestBatchNormalModeWithContent(t *testing.T) {
	needs(t, contract.ServiceContent)
	r := batch(t, "",
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "normal-a", "status": "publish"}},
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "normal-b", "status": "bogus"}},
		map[string]any{"path": "/cms/v2/users/me", "body": map[string]any{"name": "nb"}}, // not batchable, as in WordPress
		map[string]any{"method": "DELETE", "path": "/cms/v2/posts/999999?force=true"},
	)
	rs := items(t, r)
	if _, failed := r.Obj()["failed"]; failed || len(rs) != 4 {
		t.Fatalf("%.500s", r.Raw)
	}
	if rs[0]["status"] != float64(201) || rs[0]["headers"].(map[string]any)["Location"] == nil {
		t.Fatalf("create: %v", rs[0])
	}
	if rs[1]["status"] != float64(400) || codeOf(rs[1]) != "rest_invalid_param" {
		t.Fatalf("invalid status: %v", rs[1])
	}
	if rs[2]["status"] != float64(400) || codeOf(rs[2]) != "rest_batch_not_allowed" {
		t.Fatalf("non-batchable: %v", rs[2])
	}
	if rs[3]["status"] != float64(404) {
		t.Fatalf("missing post: %v", rs[3])
	}
	if n := countPosts(t, "normal-a"); n != 1 {
		t.Fatalf("normal-a posts: %d", n)
	}
	// "title" is an object argument that the service also accepts as a
	// string (a callback in WordPress): the gateway's pre-validation, rebuilt
	// from the service's description, must accept it too.
	r = batch(t, "", map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"title": "Titled in a batch", "slug": "normal-titled"}})
	if rs := items(t, r); rs[0]["status"] != float64(201) || rs[0]["body"].(map[string]any)["title"].(map[string]any)["raw"] != "Titled in a batch" {
		t.Fatalf("title as a string: %.400s", r.Raw)
	}
	// Anonymous: validated, then refused per item.
	r = call(t, "POST", "/cms-json/batch/v1", map[string]any{"requests": []any{map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "anon"}}}})
	if rs := items(t, r); rs[0]["status"] != float64(401) {
		t.Fatalf("anonymous: %v", rs[0])
	}
}

func TestBatchMixedServices(t *testing.T) {
	needs(t, contract.ServiceContent)
	r := batch(t, "require-all-validate",
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "mixed-a"}},
		// users are the gateway's; media is not batchable (as in WordPress)
		map[string]any{"method": "DELETE", "path": "/cms/v2/users/999999?force=true&reassign=1"},
	)
	rs := items(t, r)
	if _, failed := r.Obj()["failed"]; failed || rs[0]["status"] != float64(201) || rs[1]["status"] != float64(404) {
		t.Fatalf("mixed services run one by one: %.500s", r.Raw)
	}
}

func hasAtomicEndpoint(t *testing.T) bool {
	t.Helper()
	res, err := http.Post(st.URL(contract.ServiceContent)+"/internal/batch/v1", "application/json", strings.NewReader(`{"requests":[]}`))
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode != http.StatusNotFound && res.StatusCode != http.StatusMethodNotAllowed
}

func TestBatchAllOrNothing(t *testing.T) {
	needs(t, contract.ServiceContent)
	// Validation failure: nothing runs.
	r := batch(t, "require-all-validate",
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "aon-v"}},
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "aon-v2", "status": "bogus"}},
	)
	rs := items(t, r)
	if r.Obj()["failed"] != "validation" || rs[0] != nil || rs[1]["status"] != float64(400) {
		t.Fatalf("validation failure: %.500s", r.Raw)
	}
	if n := countPosts(t, "aon-v,aon-v2"); n != 0 {
		t.Fatalf("a failed validation wrote %d posts", n)
	}
	if !hasAtomicEndpoint(t) {
		t.Fatal("content does not serve the internal batch endpoint (see contract.BatchPath)")
	}
	// Valid, but the second request fails when run: the first is rolled back.
	r = batch(t, "require-all-validate",
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "aon-x"}},
		map[string]any{"method": "DELETE", "path": "/cms/v2/posts/999999?force=true"},
	)
	rs = items(t, r)
	if r.Obj()["failed"] != "execution" || codeOf(rs[0]) != "rest_batch_rolled_back" || rs[1]["status"] != float64(404) {
		t.Fatalf("rollback: %.500s", r.Raw)
	}
	if n := countPosts(t, "aon-x"); n != 0 {
		t.Fatalf("rolled back batch left %d posts", n)
	}
	// All succeed: committed together.
	r = batch(t, "require-all-validate",
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "aon-y1"}},
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "aon-y2"}},
	)
	if rs := items(t, r); r.Obj()["failed"] != nil || rs[0]["status"] != float64(201) || rs[1]["status"] != float64(201) {
		t.Fatalf("commit: %.500s", r.Raw)
	}
	if n := countPosts(t, "aon-y1,aon-y2"); n != 2 {
		t.Fatalf("committed batch: %d posts", n)
	}
}

// TestBatchAllOrNothingCreates: an all-or-nothing batch made only of
// creates (content reads their slugs ahead, and the gateway passes the
// service's bodies through as they are) numbers shared titles as
// sequential creates would, keeps WordPress's escaping and _pretty layout,
// and a failing create still rolls back the others.
func TestBatchAllOrNothingCreates(t *testing.T) {
	needs(t, contract.ServiceContent)
	create := func(body map[string]any) map[string]any { return map[string]any{"path": "/cms/v2/posts", "body": body} }
	title := map[string]any{"title": "Café aon/créés", "status": "publish"}
	// the third create names an author that does not exist: nothing is written
	r := batch(t, "require-all-validate", create(title), create(title),
		create(map[string]any{"title": "Café aon/créés", "status": "publish", "author": 999999}))
	rs := items(t, r)
	if r.Obj()["failed"] != "execution" || codeOf(rs[0]) != "rest_batch_rolled_back" || codeOf(rs[1]) != "rest_batch_rolled_back" ||
		codeOf(rs[2]) != "rest_invalid_author" {
		t.Fatalf("rollback: %.800s", r.Raw)
	}
	if n := countPosts(t, "cafe-aon-crees,cafe-aon-crees-2"); n != 0 {
		t.Fatalf("a rolled back batch of creates left %d posts", n)
	}
	r = call(t, "POST", "/cms-json/batch/v1?_pretty", map[string]any{"validation": "require-all-validate",
		"requests": []any{create(title), create(title), create(title)}}, admin()...)
	rs = items(t, r)
	for i, want := range []string{"cafe-aon-crees", "cafe-aon-crees-2", "cafe-aon-crees-3"} {
		b, _ := rs[i]["body"].(map[string]any)
		if rs[i]["status"] != float64(201) || b["slug"] != want {
			t.Fatalf("create %d: status %v slug %v, want %s: %.800s", i, rs[i]["status"], b["slug"], want, r.Raw)
		}
	}
	raw := string(r.Raw)
	if !strings.Contains(raw, `"raw": "Caf\u00e9 aon\/cr\u00e9\u00e9s"`) || !strings.Contains(raw, "\n                \"id\": ") {
		t.Fatalf("the answer lost json_encode's escaping or _pretty's layout: %.1500s", raw)
	}
}

package content

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

func TestAllOrNothingBatch(t *testing.T) {
	e := newEnv(t)
	srv, err := e.svc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, nil)(e.svc.BatchHandler(srv, nil))
	run := func(body string) map[string]any {
		t.Helper()
		req := httptest.NewRequest("POST", contract.BatchPath, bytes.NewBufferString(body))
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, callers[editor], time.Now().Add(time.Minute)))
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

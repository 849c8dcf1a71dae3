package stack

import (
	"fmt"
	"testing"
)

func TestBatchEnvelopeAndGatewayRoutes(t *testing.T) {
	var many []any
	for i := 0; i < 26; i++ {
		many = append(many, map[string]any{"path": "/cms/v2/users", "body": map[string]any{"username": fmt.Sprint("u", i)}})
	}
	r := call(t, "POST", "/cms-json/batch/v1", map[string]any{"requests": many}, admin()...)
	expectError(t, r, 400, "rest_invalid_param")
	if p := r.Obj()["data"].(map[string]any)["params"].(map[string]any)["requests"]; p != "requests must contain at most 25 items." {
		t.Fatalf("params.requests = %v", p)
	}
	// The users routes are batchable, as in WordPress 6.9.7: a 201 and a 404 in a 207.
	r = call(t, "POST", "/cms-json/batch/v1", map[string]any{"requests": []any{
		map[string]any{"path": "/cms/v2/users", "body": map[string]any{"username": "b1", "email": "b1@example.com", "password": "x"}},
		map[string]any{"method": "DELETE", "path": "/nowhere/v1/thing"},
	}}, admin()...)
	if r.Status != 207 {
		t.Fatalf("%d %s", r.Status, r.Raw)
	}
	rs := r.Obj()["responses"].([]any)
	first := rs[0].(map[string]any)
	second := rs[1].(map[string]any)
	if first["status"] != float64(201) || first["body"].(map[string]any)["username"] != "b1" ||
		second["status"] != float64(404) || second["body"].(map[string]any)["code"] != "rest_no_route" {
		t.Fatalf("responses %s", r.Raw)
	}
	// require-all-validate: nothing runs, "failed": "validation".
	r = call(t, "POST", "/cms-json/batch/v1", map[string]any{"validation": "require-all-validate", "requests": []any{
		map[string]any{"method": "DELETE", "path": "/nowhere/v1/thing"},
	}}, admin()...)
	if r.Status != 207 || r.Obj()["failed"] != "validation" {
		t.Fatalf("require-all-validate: %d %s", r.Status, r.Raw)
	}
}

package media

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

func TestInternalBatch(t *testing.T) {
	e := newEnv(t)
	a := num(e.upload(author, 400, 300)["id"])
	b := num(e.upload(author, 400, 300)["id"])
	files := len(e.files())
	run := func(reqs ...contract.BatchSubRequest) contract.BatchResponse {
		t.Helper()
		r := e.json(author, "POST", contract.BatchPath, contract.BatchRequest{Requests: reqs})
		wantStatus(t, r, http.StatusOK)
		var out contract.BatchResponse
		if err := json.Unmarshal(r.Raw, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	title := func(id int) string {
		r := e.json(author, "GET", fmt.Sprintf("/cms/v2/media/%d?context=edit", id), nil)
		return field(r.obj(), "title", "raw").(string)
	}
	// All succeed: committed together.
	out := run(
		contract.BatchSubRequest{Method: "POST", Route: fmt.Sprintf("/cms/v2/media/%d", a), Body: map[string]any{"title": "A1"}},
		contract.BatchSubRequest{Method: "PATCH", Route: fmt.Sprintf("/cms/v2/media/%d", b), Body: map[string]any{"title": "B1"}},
	)
	if !out.Committed || len(out.Responses) != 2 || out.Responses[1].Status != 200 || title(a) != "A1" || title(b) != "B1" {
		t.Fatalf("batch: %+v", out)
	}
	// The last fails: nothing is written, and the deleted attachment keeps its files.
	out = run(
		contract.BatchSubRequest{Method: "POST", Route: fmt.Sprintf("/cms/v2/media/%d", a), Body: map[string]any{"title": "A2"}},
		contract.BatchSubRequest{Method: "DELETE", Route: fmt.Sprintf("/cms/v2/media/%d", b), Query: "force=true"},
		contract.BatchSubRequest{Method: "POST", Route: "/cms/v2/media/999999", Body: map[string]any{"title": "x"}},
	)
	if out.Committed || len(out.Responses) != 3 || out.Responses[2].Status != 404 {
		t.Fatalf("failing batch: %+v", out)
	}
	if title(a) != "A1" || title(b) != "B1" || len(e.files()) != files {
		t.Fatalf("a rolled-back batch wrote: %s %s, %d files (had %d)", title(a), title(b), len(e.files()), files)
	}
	// A committed delete removes the files after the commit.
	out = run(contract.BatchSubRequest{Method: "DELETE", Route: fmt.Sprintf("/cms/v2/media/%d", b), Query: "force=true"})
	if !out.Committed || out.Responses[0].Status != 200 || len(e.files()) != files/2 {
		t.Fatalf("delete in batch: %+v, %d files", out, len(e.files()))
	}
	// Permission is checked per request, as the caller.
	r := e.json(author2, "POST", contract.BatchPath, contract.BatchRequest{Requests: []contract.BatchSubRequest{
		{Method: "POST", Route: fmt.Sprintf("/cms/v2/media/%d", a), Body: map[string]any{"title": "stolen"}}}})
	var denied contract.BatchResponse
	json.Unmarshal(r.Raw, &denied)
	if denied.Committed || denied.Responses[0].Status != 403 || title(a) != "A1" {
		t.Fatalf("another author's batch: %s", r.Raw)
	}
	wantError(t, e.request(author, "POST", contract.BatchPath, nil, http.Header{"Content-Type": {"application/json"}}), 400, "rest_invalid_json", "")
}

package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// A batch of reads runs every request on its own, outside any transaction
// and to the end (the gateway's _embed); a batch with a write keeps its
// all-or-nothing rule: it stops at the first failure, in a transaction.
func TestTxBatchReadsRunToTheEnd(t *testing.T) {
	ok := func(r *Request) (*Response, error) {
		if r.URLParams["id"] == "2" {
			return nil, Forbidden(r)
		}
		return OK(r.URLParams["id"]), nil
	}
	s, err := New(Options{}, Route{Namespace: "t/v1", Path: `/items/(?P<id>\d+)`, Endpoints: []Endpoint{{Methods: []string{"GET", "POST"}, Handler: ok}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		method    string
		began     bool
		statuses  []int
		committed bool
	}{
		{"reads", "GET", false, []int{200, 401, 200}, true},
		{"writes", "POST", true, []int{200, 401}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			began := false
			noop := func(context.Context) error { return nil }
			h := TxBatchHandler(s, func(ctx context.Context, _ []Call) (*Tx, error) {
				began = true
				return &Tx{Context: ctx, Commit: noop, Rollback: noop}, nil
			}, nil)
			var in contract.BatchRequest
			for _, id := range []string{"1", "2", "3"} {
				in.Requests = append(in.Requests, contract.BatchSubRequest{Method: tc.method, Route: "/t/v1/items/" + id})
			}
			body, _ := json.Marshal(in)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, contract.BatchPath, strings.NewReader(string(body))))
			var out contract.BatchResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
			var statuses []int
			for _, r := range out.Responses {
				statuses = append(statuses, r.Status)
			}
			if began != tc.began || out.Committed != tc.committed || len(statuses) != len(tc.statuses) {
				t.Fatalf("began %v committed %v statuses %v, want %v %v %v", began, out.Committed, statuses, tc.began, tc.committed, tc.statuses)
			}
			for i := range statuses {
				if statuses[i] != tc.statuses[i] {
					t.Fatalf("statuses %v, want %v", statuses, tc.statuses)
				}
			}
		})
	}
}

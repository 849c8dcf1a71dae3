package content

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"

	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// BatchHandler serves contract.BatchPath with srv's routes: the requests
// run in order, in one database transaction, and commit only if all succeed. The caller's identity is
// the one the identity middleware put in the request context.
func (s *Service) BatchHandler(srv *rest.Server, logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			rest.WriteError(w, rest.NoRoute())
			return
		}
		dec := json.NewDecoder(r.Body)
		dec.UseNumber()
		var in contract.BatchRequest
		if err := dec.Decode(&in); err != nil {
			rest.WriteErrorCode(w, r, http.StatusBadRequest, "rest_invalid_json", "Invalid JSON body passed.")
			return
		}
		responses, committed, err := s.runBatch(r.Context(), srv, &in)
		if err != nil {
			logger.ErrorContext(r.Context(), "batch transaction failed", "error", err.Error())
			rest.WriteErrorCode(w, r, http.StatusInternalServerError, "rest_batch_commit_failed", "The batch could not be committed.")
			return
		}
		rest.WriteJSON(w, http.StatusOK, contract.BatchResponse{Committed: committed, Responses: responses})
	})
}

// runBatch executes the requests in one transaction; the first failing
// response (status >= 400) rolls everything back and ends the batch.
func (s *Service) runBatch(ctx context.Context, srv *rest.Server, in *contract.BatchRequest) ([]contract.BatchSubResponse, bool, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, false, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after Commit
	txCtx := withTx(ctx, tx)
	responses := make([]contract.BatchSubResponse, 0, len(in.Requests))
	for _, req := range in.Requests {
		path := req.Route
		if req.Query != "" {
			path += "?" + req.Query
		}
		header := http.Header{}
		for k, vs := range req.Headers {
			for _, v := range vs {
				header.Add(k, v)
			}
		}
		method := strings.ToUpper(req.Method)
		if method == "" {
			method = http.MethodPost
		}
		res := srv.Do(txCtx, rest.Call{Method: method, Path: path, Body: req.Body, Header: header})
		entry := contract.BatchSubResponse{Status: res.Status, Headers: map[string]string{}, Body: res.Body}
		for k, vs := range res.Header {
			entry.Headers[k] = strings.Join(vs, ", ")
		}
		if len(bytes.TrimSpace(entry.Body)) == 0 {
			entry.Body = json.RawMessage("null")
		}
		responses = append(responses, entry)
		if res.Status >= 400 {
			return responses, false, tx.Rollback(ctx)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, false, err
	}
	return responses, true, nil
}

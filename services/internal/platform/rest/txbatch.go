package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// maxTxBatchBody bounds the internal batch body: at most 25 requests of
// metadata, which the gateway has already limited.
const maxTxBatchBody = 8 << 20

// Tx is the transaction of one all-or-nothing batch, opened by the service
// that owns the data. Context carries it to the handlers, so that every
// statement of every sub-request runs in it; Commit and Rollback end it
// (Rollback after Commit is a no-op).
type Tx struct {
	Context  context.Context
	Commit   func(context.Context) error
	Rollback func(context.Context) error
}

// TxBatchHandler serves contract.BatchPath, the gateway's all-or-nothing
// batch (validation "require-all-validate" for requests that all belong to
// one service), with srv's routes: the requests run in order in the
// transaction begin opens, the first failing response (status >= 400)
// rolls everything back and ends the batch, and the transaction commits
// only when every request succeeded. The caller's identity is the one the
// identity middleware put in the request context. begin sees every call of
// the batch before any runs (a service may read ahead in one statement what
// the calls will need, content's slugs).
func TxBatchHandler(srv *Server, begin func(context.Context, []Call) (*Tx, error), logger *slog.Logger) http.Handler {
	return TxBatchHandlerReading(srv, begin, nil, logger)
}

// ReadAhead prepares a batch made only of reads (the gateway's _embed
// fetches): it sees every call before any runs and returns the context they
// run with, where a service may keep what it read for all of them in one
// statement (content's terms of many posts). It must not change any
// answer, only how it is read.
type ReadAhead func(ctx context.Context, calls []Call) context.Context

// TxBatchHandlerReading is TxBatchHandler with readAhead (nil: none) run
// before a batch of reads.
func TxBatchHandlerReading(srv *Server, begin func(context.Context, []Call) (*Tx, error), readAhead ReadAhead, logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			WriteError(w, NoRoute())
			return
		}
		dec := json.NewDecoder(io.LimitReader(r.Body, maxTxBatchBody))
		dec.UseNumber()
		var in contract.BatchRequest
		if err := dec.Decode(&in); err != nil {
			WriteErrorCode(w, r, http.StatusBadRequest, "rest_invalid_json", "Invalid JSON body passed.")
			return
		}
		responses, committed, err := runTxBatch(r.Context(), srv, begin, readAhead, &in)
		if err != nil {
			if e := FromUnavailable(err); e != nil {
				logger.WarnContext(r.Context(), "batch transaction failed: database unavailable", "error", err.Error())
				WriteError(w, e)
				return
			}
			logger.ErrorContext(r.Context(), "batch transaction failed", "error", err.Error())
			WriteErrorCode(w, r, http.StatusInternalServerError, "rest_batch_commit_failed", "The batch could not be committed.")
			return
		}
		WriteJSON(w, http.StatusOK, batchResponseObject(committed, responses))
	})
}

// batchResponseObject is contract.BatchResponse as the kit's encoder writes
// it. The bodies are this encoder's own output, so they are copied as they
// are (Encoded): through encoding/json they were re-validated, compacted
// and then walked again string by string, a third of the service's CPU on a
// batch of 25 creates.
func batchResponseObject(committed bool, responses []contract.BatchSubResponse) Object {
	list := make([]any, len(responses))
	for i, r := range responses {
		headers := make(map[string]any, len(r.Headers))
		for k, v := range r.Headers {
			headers[k] = v
		}
		list[i] = Object{{Key: "status", Value: r.Status}, {Key: "headers", Value: headers}, {Key: "body", Value: Encoded(r.Body)}}
	}
	return Object{{Key: "committed", Value: committed}, {Key: "responses", Value: list}}
}

func runTxBatch(ctx context.Context, srv *Server, begin func(context.Context, []Call) (*Tx, error), readAhead ReadAhead,
	in *contract.BatchRequest) ([]contract.BatchSubResponse, bool, error) {
	calls := make([]Call, len(in.Requests))
	reads := true
	for i, req := range in.Requests {
		calls[i] = subCall(req)
		reads = reads && (calls[i].Method == http.MethodGet || calls[i].Method == http.MethodHead)
	}
	if reads {
		// Reads only (the gateway's _embed fetches, contract.BatchPath):
		// each runs on its own, as a GET over HTTP would, and a failed one
		// (a 401 for a private resource) is an answer, not the end.
		if readAhead != nil {
			ctx = readAhead(ctx, calls)
		}
		responses := make([]contract.BatchSubResponse, 0, len(calls))
		for _, call := range calls {
			responses = append(responses, subResponse(srv.Do(ctx, call)))
		}
		return responses, true, nil
	}
	tx, err := begin(ctx, calls)
	if err != nil {
		return nil, false, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // a no-op after Commit
	responses := make([]contract.BatchSubResponse, 0, len(in.Requests))
	for _, call := range calls {
		entry := subResponse(srv.Do(tx.Context, call))
		responses = append(responses, entry)
		if entry.Status >= 400 {
			return responses, false, tx.Rollback(ctx)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, false, postgres.CommitError(err)
	}
	return responses, true, nil
}

// subResponse is the batch entry of one call's result.
func subResponse(res Result) contract.BatchSubResponse {
	entry := contract.BatchSubResponse{Status: res.Status, Headers: map[string]string{}, Body: res.Body}
	for k, vs := range res.Header {
		entry.Headers[k] = strings.Join(vs, ", ")
	}
	if len(bytes.TrimSpace(entry.Body)) == 0 {
		entry.Body = json.RawMessage("null")
	}
	return entry
}

// subCall is the in-process call of one batch sub-request (POST when the
// gateway sent no method).
func subCall(req contract.BatchSubRequest) Call {
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
	return Call{Method: method, Path: path, Body: req.Body, Header: header}
}

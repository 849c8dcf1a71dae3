package content

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/rest"
)

// BatchHandler serves contract.BatchPath with srv's routes, all in one
// database transaction (rest.TxBatchHandler).
func (s *Service) BatchHandler(srv *rest.Server, logger *slog.Logger) http.Handler {
	return rest.TxBatchHandler(srv, s.beginBatch, logger)
}

// beginBatch opens the batch's transaction; withTx routes every statement
// of the sub-requests through it.
func (s *Service) beginBatch(ctx context.Context) (*rest.Tx, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &rest.Tx{Context: withTx(ctx, tx), Commit: tx.Commit, Rollback: tx.Rollback}, nil
}

// idempotentTx routes an idempotent request's statements through tx
// (platform/idempotency).
func idempotentTx(ctx context.Context, tx pgx.Tx) (context.Context, func()) {
	return withTx(ctx, tx), nil
}

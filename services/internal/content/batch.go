package content

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// BatchHandler serves contract.BatchPath with srv's routes, all in one
// database transaction (rest.TxBatchHandler); a batch of reads has the
// terms of its ?post= lookups read ahead (terms_ahead.go).
func (s *Service) BatchHandler(srv *rest.Server, logger *slog.Logger) http.Handler {
	return rest.TxBatchHandlerReading(srv, s.beginBatch, s.readAhead, logger)
}

// beginBatch opens the batch's transaction; withTx routes every statement
// of the sub-requests through it. A batch made only of creates reads the
// slugs its posts will need in one statement first (batch_slugs.go).
func (s *Service) beginBatch(ctx context.Context, calls []rest.Call) (*rest.Tx, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	txCtx := withTx(ctx, tx)
	set, err := readSlugsAhead(txCtx, tx, calls)
	if err != nil {
		_ = tx.Rollback(context.WithoutCancel(ctx))
		return nil, err
	}
	if set != nil {
		txCtx = store.WithSlugSet(txCtx, set)
	}
	// the generation moves on again once the batch has committed: its
	// writes' own announcements (inTx) came before the commit, and a read
	// made between them and it (kept for that generation: the website's
	// snapshot, the embed answers) does not hold the batch's writes
	commit := func(ctx context.Context) error {
		defer s.commits.Committed()
		return tx.Commit(ctx)
	}
	return &rest.Tx{Context: txCtx, Commit: commit, Rollback: tx.Rollback}, nil
}

// idempotentTx routes an idempotent request's statements through tx
// (platform/idempotency); once it has committed, the generation moves on
// (as after a batch, beginBatch).
func (s *Service) idempotentTx(ctx context.Context, tx pgx.Tx) (context.Context, func()) {
	return withTx(ctx, tx), s.commits.Committed
}

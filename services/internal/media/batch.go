package media

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/rest"
)

// BatchHandler serves contract.BatchPath with srv's routes, all in one
// database transaction (rest.TxBatchHandler). Files of attachments deleted
// by the batch are removed after the commit, so a rolled-back batch loses
// nothing.
func (s *Service) BatchHandler(srv *rest.Server) http.Handler {
	return rest.TxBatchHandler(srv, s.beginBatch, s.logger)
}

// beginBatch opens the batch's transaction with its after-commit hooks
// (txhooks.go): they run only once the commit succeeded.
func (s *Service) beginBatch(ctx context.Context, _ []rest.Call) (*rest.Tx, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	hooks := &commitHooks{}
	commit := func(ctx context.Context) error {
		if err := tx.Commit(ctx); err != nil {
			return err
		}
		for _, f := range hooks.fns {
			f()
		}
		return nil
	}
	txCtx := context.WithValue(context.WithValue(ctx, txKey{}, tx), hooksKey{}, hooks)
	return &rest.Tx{Context: txCtx, Commit: commit, Rollback: tx.Rollback}, nil
}

// idempotentTx routes an idempotent request's statements through tx
// (platform/idempotency), its file removals held until tx commits.
func idempotentTx(ctx context.Context, tx pgx.Tx) (context.Context, func()) {
	hooks := &commitHooks{}
	return context.WithValue(context.WithValue(ctx, txKey{}, tx), hooksKey{}, hooks), func() {
		for _, f := range hooks.fns {
			f()
		}
	}
}

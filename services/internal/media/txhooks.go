package media

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// hooksKey carries the functions to run once an enclosing transaction (an
// idempotent request's, platform/idempotency) has committed.
type hooksKey struct{}

type commitHooks struct{ fns []func() }

// afterCommit runs f now, or — inside an enclosing transaction — after it
// commits (a rolled-back request must not have removed files).
func (s *Service) afterCommit(ctx context.Context, f func()) {
	if h, ok := ctx.Value(hooksKey{}).(*commitHooks); ok {
		h.fns = append(h.fns, f)
		return
	}
	f()
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

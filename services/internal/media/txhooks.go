package media

import "context"

// hooksKey carries the functions to run once an enclosing batch
// transaction has committed.
type hooksKey struct{}

type commitHooks struct{ fns []func() }

// afterCommit runs f now, or — inside a batch transaction — after the batch
// commits (a rolled-back batch must not have removed files).
func (s *Service) afterCommit(ctx context.Context, f func()) {
	if h, ok := ctx.Value(hooksKey{}).(*commitHooks); ok {
		h.fns = append(h.fns, f)
		return
	}
	f()
}

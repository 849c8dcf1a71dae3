package content

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// PublishDue publishes scheduled posts whose date has come (WordPress's
// publish_future_post cron event) and returns how many it published.
// wp_publish_post ends in wp_after_insert_post as an update, so a post
// without a revision gets its first one (by no user: cron has none); the
// fields did not change, so a post with revisions gets none. One statement,
// plus the change notification (edge caches) when it published any.
func (s *Service) PublishDue(ctx context.Context) (int64, error) {
	var n int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var err error
		if n, err = store.PublishDue(ctx, tx, s.now()); err != nil || n == 0 {
			return err
		}
		// Published posts change public answers: the edge caches must hear.
		return postgres.NotifyChanged(ctx, tx, contract.ServiceContent)
	})
	if err != nil {
		return 0, fmt.Errorf("publish due posts: %w", err)
	}
	return n, nil
}

// RunScheduler calls PublishDue every interval until ctx ends. Several
// replicas may run it: the UPDATE is idempotent.
func (s *Service) RunScheduler(ctx context.Context, interval time.Duration, logger *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := s.PublishDue(ctx); err != nil && ctx.Err() == nil {
				logger.Warn("publishing scheduled posts failed", "error", err.Error())
			} else if n > 0 {
				logger.Info("published scheduled posts", "count", n)
			}
		}
	}
}

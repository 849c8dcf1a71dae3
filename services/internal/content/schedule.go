package content

import (
	"context"
	"log/slog"
	"time"
)

// PublishDue publishes scheduled posts whose date has come (WordPress's
// publish_future_post cron event) and returns how many it published.
func (s *Service) PublishDue(ctx context.Context) (int64, error) {
	tag, err := s.pool.Exec(ctx, `UPDATE posts SET status = 'publish' WHERE status = 'future' AND date_gmt <= $1`, s.now())
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
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

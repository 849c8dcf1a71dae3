package content

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

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
		if err := tx.QueryRow(ctx, `WITH pub AS (
		UPDATE posts SET status = 'publish' WHERE status = 'future' AND date_gmt <= $1
		RETURNING id, modified_gmt, title, content, excerpt, footnotes),
	rev AS (
		INSERT INTO posts (type, status, author, date_gmt, date_floating, modified_gmt, slug, title, content, excerpt,
			password, parent, menu_order, comment_status, ping_status, format, sticky, template, featured_media,
			footnotes, sync_status, autosave, trash_status)
		SELECT 'revision', 'inherit', 0, pub.modified_gmt, false, pub.modified_gmt, pub.id || '-revision-v1', pub.title,
			pub.content, pub.excerpt, '', pub.id, 0, 'closed', 'closed', 'standard', false, '', 0, pub.footnotes, '', false, ''
		FROM pub WHERE NOT EXISTS (
			SELECT 1 FROM posts r WHERE r.parent = pub.id AND r.type = 'revision' AND NOT r.autosave))
	SELECT count(*) FROM pub`, s.now()).Scan(&n); err != nil || n == 0 {
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

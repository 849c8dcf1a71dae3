DROP INDEX IF EXISTS comments_status_date;
DROP TRIGGER IF EXISTS comments_count ON comments;
DROP TRIGGER IF EXISTS comments_count_move ON comments;
DROP TRIGGER IF EXISTS comments_count_truncate ON comments;
DROP FUNCTION IF EXISTS count_comment();
DROP TABLE IF EXISTS comment_counts;

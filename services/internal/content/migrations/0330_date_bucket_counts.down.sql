DROP TRIGGER IF EXISTS posts_date_count_insert ON posts;
DROP TRIGGER IF EXISTS posts_date_count_update ON posts;
DROP TRIGGER IF EXISTS posts_date_count_delete ON posts;
DROP TRIGGER IF EXISTS posts_date_count_truncate ON posts;
DROP FUNCTION IF EXISTS count_post_dates();
DROP FUNCTION IF EXISTS post_page_start(text, text, bigint, boolean);
DROP FUNCTION IF EXISTS post_date_bucket(timestamp, smallint);
DROP TABLE IF EXISTS post_date_counts;

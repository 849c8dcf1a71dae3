DROP TRIGGER IF EXISTS posts_author_count_insert ON posts;
DROP TRIGGER IF EXISTS posts_author_count_update ON posts;
DROP TRIGGER IF EXISTS posts_author_count_delete ON posts;
DROP TRIGGER IF EXISTS posts_author_count_truncate ON posts;
DROP FUNCTION IF EXISTS count_author_posts();
DROP TABLE IF EXISTS post_author_counts;

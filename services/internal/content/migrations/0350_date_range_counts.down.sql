DROP FUNCTION IF EXISTS post_count_between(text, text, timestamp, timestamp);
DROP FUNCTION IF EXISTS post_count_before(text, text, timestamp, boolean);

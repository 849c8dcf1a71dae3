DROP TRIGGER IF EXISTS term_relationships_date_count_insert ON term_relationships;
DROP TRIGGER IF EXISTS term_relationships_date_count_update ON term_relationships;
DROP TRIGGER IF EXISTS term_relationships_date_count_delete ON term_relationships;
DROP TRIGGER IF EXISTS term_relationships_date_count_truncate ON term_relationships;
DROP FUNCTION IF EXISTS count_term_dates();
DROP FUNCTION IF EXISTS term_page_start(bigint, text, text, bigint, boolean, boolean);
DROP TABLE IF EXISTS term_date_counts;

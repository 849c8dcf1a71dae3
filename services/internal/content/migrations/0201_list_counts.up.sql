-- Flat list reads (docs/performance.md). A collection page is read from an
-- index in its order and its total (X-WP-Total) comes from counts kept up to
-- date by the writes' own transactions, so neither depends on how many posts
-- match:
--
-- * post_counts: posts per (type, status). Kept by statement-level triggers
--   on posts (one upsert per statement, so a bulk insert costs one update).
-- * term_post_counts: posts per (term, type, status), kept by triggers on
--   term_relationships.
-- * term_relationships carries a copy of its post's type, status and date,
--   so that a term's posts can be read newest first from one index and its
--   counts need no join; a post's update copies them over (trigger).
--
-- Counts are exact: the triggers run inside the writing transaction, so they
-- commit or roll back with it. Concurrent writers of the same type and status
-- queue on that counts row until commit (a short wait; WordPress's term
-- counts do the same).
CREATE TABLE post_counts (
    type   text   NOT NULL,
    status text   NOT NULL,
    n      bigint NOT NULL,
    PRIMARY KEY (type, status)
);
INSERT INTO post_counts (type, status, n) SELECT type, status, count(*) FROM posts GROUP BY type, status;

CREATE TABLE term_post_counts (
    term_id bigint NOT NULL,
    type    text   NOT NULL,
    status  text   NOT NULL,
    n       bigint NOT NULL,
    PRIMARY KEY (term_id, type, status)
);

ALTER TABLE term_relationships
    ADD COLUMN post_type   text      NOT NULL DEFAULT '',
    ADD COLUMN post_status text      NOT NULL DEFAULT '',
    ADD COLUMN post_date   timestamp NOT NULL DEFAULT '-infinity';
UPDATE term_relationships r SET post_type = p.type, post_status = p.status, post_date = p.date_gmt
FROM posts p WHERE p.id = r.post_id;
INSERT INTO term_post_counts (term_id, type, status, n)
SELECT term_id, post_type, post_status, count(*) FROM term_relationships GROUP BY 1, 2, 3;

-- A term's posts of one type and status, newest first (the category and tag
-- filters); it also serves every lookup by term_id the old index served.
CREATE INDEX term_relationships_listing ON term_relationships (term_id, post_type, post_status, post_date DESC, post_id DESC);
DROP INDEX term_relationships_term;
-- orderby=title reads the page from an index too.
CREATE INDEX posts_type_status_title ON posts (type, status, title, id);
-- A write looks for the slugs in use like the new one (slug LIKE 'x-%',
-- wp_unique_post_slug): a prefix search the default index cannot serve
-- unless the database's collation is "C", so every create scanned the posts.
CREATE INDEX posts_type_slug_prefix ON posts (type, slug text_pattern_ops);

CREATE FUNCTION count_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM post_counts;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO post_counts AS c (type, status, n)
        SELECT type, status, count(*) FROM new_rows GROUP BY type, status
        ON CONFLICT (type, status) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE post_counts c SET n = c.n - d.n
        FROM (SELECT type, status, count(*) AS n FROM old_rows GROUP BY type, status) d
        WHERE c.type = d.type AND c.status = d.status;
    ELSE
        INSERT INTO post_counts AS c (type, status, n)
        SELECT type, status, sum(d) FROM (
            SELECT n.type, n.status, 1 AS d FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.type, o.status) IS DISTINCT FROM (n.type, n.status)
            UNION ALL
            SELECT o.type, o.status, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.type, o.status) IS DISTINCT FROM (n.type, n.status)) x
        GROUP BY type, status
        ON CONFLICT (type, status) DO UPDATE SET n = c.n + EXCLUDED.n;
        -- the copies on term_relationships follow (their trigger moves the term counts)
        UPDATE term_relationships r SET post_type = n.type, post_status = n.status, post_date = n.date_gmt
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE r.post_id = n.id AND (o.type, o.status, o.date_gmt) IS DISTINCT FROM (n.type, n.status, n.date_gmt);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER posts_count_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_posts();
CREATE TRIGGER posts_count_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_posts();
CREATE TRIGGER posts_count_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_posts();
CREATE TRIGGER posts_count_truncate AFTER TRUNCATE ON posts
    FOR EACH STATEMENT EXECUTE FUNCTION count_posts();

-- A new link copies its post's type, status and date (unless the writer
-- gave them, as a bulk load may).
CREATE FUNCTION copy_post_to_term_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT p.type, p.status, p.date_gmt INTO NEW.post_type, NEW.post_status, NEW.post_date
    FROM posts p WHERE p.id = NEW.post_id;
    RETURN NEW;
END $$;
CREATE TRIGGER term_relationships_copy BEFORE INSERT ON term_relationships
    FOR EACH ROW WHEN (NEW.post_type = '') EXECUTE FUNCTION copy_post_to_term_link();

CREATE FUNCTION count_term_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM term_post_counts;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO term_post_counts AS c (term_id, type, status, n)
        SELECT term_id, post_type, post_status, count(*) FROM new_rows GROUP BY 1, 2, 3
        ON CONFLICT (term_id, type, status) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE term_post_counts c SET n = c.n - d.n
        FROM (SELECT term_id, post_type, post_status, count(*) AS n FROM old_rows GROUP BY 1, 2, 3) d
        WHERE c.term_id = d.term_id AND c.type = d.post_type AND c.status = d.post_status;
    ELSE
        INSERT INTO term_post_counts AS c (term_id, type, status, n)
        SELECT term_id, post_type, post_status, sum(d) FROM (
            SELECT term_id, post_type, post_status, 1 AS d FROM new_rows
            UNION ALL
            SELECT term_id, post_type, post_status, -1 FROM old_rows) x
        GROUP BY 1, 2, 3 HAVING sum(d) <> 0
        ON CONFLICT (term_id, type, status) DO UPDATE SET n = c.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER term_relationships_count_insert AFTER INSERT ON term_relationships REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_posts();
CREATE TRIGGER term_relationships_count_update AFTER UPDATE ON term_relationships
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_posts();
CREATE TRIGGER term_relationships_count_delete AFTER DELETE ON term_relationships REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_posts();
CREATE TRIGGER term_relationships_count_truncate AFTER TRUNCATE ON term_relationships
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_posts();

-- Searches (ILIKE '%word%' on title, excerpt and content, WordPress's
-- semantics) first narrow the candidates with a trigram index over the three
-- columns together: a word found in one column is found in their
-- concatenation, so the index never loses a match and the ILIKE on each
-- column keeps the exact semantics. pg_trgm ships with PostgreSQL (contrib);
-- where it cannot be installed, searches still work by scanning.
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX posts_search_trgm ON posts USING gin ((title || ' ' || excerpt || ' ' || content) gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm unavailable (%): searches scan the posts', SQLERRM;
END $$;

-- Posts per author (issue 31, docs/performance.md#counted-filters): the
-- author filter (GET posts?author=N, the website's /author/NAME/ archive and
-- its feed) took X-WP-Total from a count of the author's posts, O(their
-- posts): 119 ms of CPU at 1,000,000 posts of one author. Its total now comes
-- from post_author_counts, posts per (author, type, status), spread over
-- slots as post_counts is since 0310 (a count is its slots' sum), kept by
-- statement-level triggers on posts in the writing transaction (one upsert
-- per statement, so a bulk insert costs one update per author).
CREATE TABLE post_author_counts (
    author bigint   NOT NULL,
    type   text     NOT NULL,
    status text     NOT NULL,
    slot   smallint NOT NULL,
    n      bigint   NOT NULL,
    PRIMARY KEY (author, type, status, slot)
);
INSERT INTO post_author_counts (author, type, status, slot, n)
SELECT author, type, status, 0, count(*) FROM posts GROUP BY author, type, status;

CREATE FUNCTION count_author_posts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    my_slot smallint := pg_backend_pid() % 32;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM post_author_counts;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO post_author_counts AS c (author, type, status, slot, n)
        SELECT author, type, status, my_slot, count(*) FROM new_rows GROUP BY author, type, status
        ON CONFLICT (author, type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO post_author_counts AS c (author, type, status, slot, n)
        SELECT author, type, status, my_slot, -count(*) FROM old_rows GROUP BY author, type, status
        ON CONFLICT (author, type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSE
        -- only rows whose author, type or status changed move a count
        INSERT INTO post_author_counts AS c (author, type, status, slot, n)
        SELECT author, type, status, my_slot, sum(d) FROM (
            SELECT n.author, n.type, n.status, 1 AS d FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.author, o.type, o.status) IS DISTINCT FROM (n.author, n.type, n.status)
            UNION ALL
            SELECT o.author, o.type, o.status, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.author, o.type, o.status) IS DISTINCT FROM (n.author, n.type, n.status)) x
        GROUP BY author, type, status
        ON CONFLICT (author, type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER posts_author_count_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_author_posts();
CREATE TRIGGER posts_author_count_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_author_posts();
CREATE TRIGGER posts_author_count_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_author_posts();
CREATE TRIGGER posts_author_count_truncate AFTER TRUNCATE ON posts
    FOR EACH STATEMENT EXECUTE FUNCTION count_author_posts();

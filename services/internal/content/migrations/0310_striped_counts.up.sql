-- Cheap concurrent writes (docs/performance.md#the-write-path).
--
-- The counts of 0201 had one row per (type, status) and per (term, type,
-- status): every create of a published post updated the same two rows, so
-- concurrent creates queued on them until each other's commit (and paid for
-- the waits in CPU). Each count is now spread over up to 32 rows ("slots"):
-- a writing transaction adds to the slot of its backend process, so writers
-- on different connections rarely meet. A count is the sum of its slots
-- (reads already sum: a status list adds several rows), and a slot may go
-- negative (a post counted in one slot and deleted from another
-- connection).
ALTER TABLE post_counts ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE post_counts DROP CONSTRAINT post_counts_pkey, ADD PRIMARY KEY (type, status, slot);
ALTER TABLE term_post_counts ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE term_post_counts DROP CONSTRAINT term_post_counts_pkey, ADD PRIMARY KEY (term_id, type, status, slot);

CREATE OR REPLACE FUNCTION count_posts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    my_slot smallint := pg_backend_pid() % 32;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM post_counts;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO post_counts AS c (type, status, slot, n)
        SELECT type, status, my_slot, count(*) FROM new_rows GROUP BY type, status
        ON CONFLICT (type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO post_counts AS c (type, status, slot, n)
        SELECT type, status, my_slot, -count(*) FROM old_rows GROUP BY type, status
        ON CONFLICT (type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSE
        INSERT INTO post_counts AS c (type, status, slot, n)
        SELECT type, status, my_slot, sum(d) FROM (
            SELECT n.type, n.status, 1 AS d FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.type, o.status) IS DISTINCT FROM (n.type, n.status)
            UNION ALL
            SELECT o.type, o.status, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.type, o.status) IS DISTINCT FROM (n.type, n.status)) x
        GROUP BY type, status
        ON CONFLICT (type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
        -- the copies on term_relationships follow (their trigger moves the term counts)
        UPDATE term_relationships r SET post_type = n.type, post_status = n.status, post_date = n.date_gmt
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE r.post_id = n.id AND (o.type, o.status, o.date_gmt) IS DISTINCT FROM (n.type, n.status, n.date_gmt);
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION count_term_posts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    my_slot smallint := pg_backend_pid() % 32;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM term_post_counts;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO term_post_counts AS c (term_id, type, status, slot, n)
        SELECT term_id, post_type, post_status, my_slot, count(*) FROM new_rows GROUP BY 1, 2, 3
        ON CONFLICT (term_id, type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO term_post_counts AS c (term_id, type, status, slot, n)
        SELECT term_id, post_type, post_status, my_slot, -count(*) FROM old_rows GROUP BY 1, 2, 3
        ON CONFLICT (term_id, type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSE
        INSERT INTO term_post_counts AS c (term_id, type, status, slot, n)
        SELECT term_id, post_type, post_status, my_slot, sum(d) FROM (
            SELECT term_id, post_type, post_status, 1 AS d FROM new_rows
            UNION ALL
            SELECT term_id, post_type, post_status, -1 FROM old_rows) x
        GROUP BY 1, 2, 3 HAVING sum(d) <> 0
        ON CONFLICT (term_id, type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;

-- Slugs are looked up by equality now (content's freeSlugs), served by
-- posts_type_slug: the prefix index only cost every write an insert.
DROP INDEX IF EXISTS posts_type_slug_prefix;

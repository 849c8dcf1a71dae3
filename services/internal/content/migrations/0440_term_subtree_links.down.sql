DROP TRIGGER IF EXISTS terms_subtree_update ON terms;
DROP TRIGGER IF EXISTS terms_subtree_delete ON terms;
DROP TRIGGER IF EXISTS term_relationships_subtree_insert ON term_relationships;
DROP TRIGGER IF EXISTS term_relationships_subtree_update ON term_relationships;
DROP TRIGGER IF EXISTS term_relationships_subtree_delete ON term_relationships;
DROP TRIGGER IF EXISTS term_relationships_subtree_truncate ON term_relationships;
DROP TABLE IF EXISTS term_subtree_links;
DROP FUNCTION IF EXISTS keep_term_subtrees();
DROP FUNCTION IF EXISTS keep_term_subtree_links();
DROP FUNCTION IF EXISTS subtree_links_rebuild(bigint[]);
DROP FUNCTION IF EXISTS subtree_links_remove(bigint[], bigint[]);
DROP FUNCTION IF EXISTS subtree_links_add(bigint[], bigint[]);
DROP FUNCTION IF EXISTS category_subtree_rows(bigint[]);
DROP FUNCTION IF EXISTS category_ancestors(bigint[]);
DROP FUNCTION IF EXISTS term_page_start(bigint, text, text, bigint, boolean, boolean);
DROP TRIGGER IF EXISTS term_relationships_date_count_insert ON term_relationships;
DROP TRIGGER IF EXISTS term_relationships_date_count_update ON term_relationships;
DROP TRIGGER IF EXISTS term_relationships_date_count_delete ON term_relationships;
DROP TRIGGER IF EXISTS term_relationships_date_count_truncate ON term_relationships;
DELETE FROM term_date_counts WHERE subtree;
ALTER TABLE term_date_counts DROP CONSTRAINT term_date_counts_pkey,
    ADD PRIMARY KEY (term_id, type, status, level, bucket, slot);
ALTER TABLE term_date_counts DROP COLUMN subtree;
-- 0430's function, triggers and term_page_start
CREATE OR REPLACE FUNCTION count_term_dates() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    my_slot smallint := pg_backend_pid() % 32;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM term_date_counts;
        RETURN NULL;
    END IF;
    -- one upsert for the statement's links, rows in key order, so that two
    -- writers sharing a slot lock them in the same order
    IF TG_OP = 'INSERT' THEN
        INSERT INTO term_date_counts AS c (term_id, type, status, level, bucket, slot, n)
        SELECT r.term_id, r.post_type, r.post_status, l.level, post_date_bucket(r.post_date, l.level), my_slot, count(*)
        FROM new_rows r, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
        GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (term_id, type, status, level, bucket, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO term_date_counts AS c (term_id, type, status, level, bucket, slot, n)
        SELECT r.term_id, r.post_type, r.post_status, l.level, post_date_bucket(r.post_date, l.level), my_slot, -count(*)
        FROM old_rows r, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
        GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (term_id, type, status, level, bucket, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSE
        -- each new link adds one, each old one takes one away: a link whose
        -- copy stayed in its buckets nets to nothing and is not written
        INSERT INTO term_date_counts AS c (term_id, type, status, level, bucket, slot, n)
        SELECT x.term_id, x.post_type, x.post_status, l.level, post_date_bucket(x.post_date, l.level), my_slot, sum(x.k)
        FROM (
            SELECT term_id, post_type, post_status, post_date, 1 AS k FROM new_rows
            UNION ALL
            SELECT term_id, post_type, post_status, post_date, -1 FROM old_rows) x,
            (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
        GROUP BY 1, 2, 3, 4, 5 HAVING sum(x.k) <> 0 ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (term_id, type, status, level, bucket, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER term_relationships_date_count_insert AFTER INSERT ON term_relationships REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates();
CREATE TRIGGER term_relationships_date_count_update AFTER UPDATE ON term_relationships
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates();
CREATE TRIGGER term_relationships_date_count_delete AFTER DELETE ON term_relationships REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates();
CREATE TRIGGER term_relationships_date_count_truncate AFTER TRUNCATE ON term_relationships
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates();

-- Where a page at offset off of term tm's links to posts of type t and
-- status s, newest (or oldest) first, starts: post_page_start's answer
-- (bound, rem; NULL, NULL past the last link) from term_date_counts. STABLE
-- for the same reason: the counts are read in the calling statement's
-- snapshot.
CREATE FUNCTION term_page_start(tm bigint, t text, s text, off bigint, newest boolean, OUT bound timestamp, OUT rem bigint)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    lv smallint;
    lo bigint := -(1::bigint << 62);
    hi bigint := 1::bigint << 62;
    b bigint;
    r record;
BEGIN
    rem := off;
    FOREACH lv IN ARRAY ARRAY[24, 18, 12]::smallint[] LOOP
        b := NULL;
        -- two loops rather than one ORDER BY on an expression: each reads
        -- the primary key in its order and stops at the bucket it looks for
        IF newest THEN
            FOR r IN SELECT c.bucket, sum(c.n) AS n FROM term_date_counts c
                WHERE c.term_id = tm AND c.type = t AND c.status = s AND c.level = lv AND c.bucket BETWEEN lo AND hi
                GROUP BY c.bucket ORDER BY c.bucket DESC LOOP
                IF r.n > rem THEN
                    b := r.bucket;
                    EXIT;
                END IF;
                rem := rem - r.n;
            END LOOP;
        ELSE
            FOR r IN SELECT c.bucket, sum(c.n) AS n FROM term_date_counts c
                WHERE c.term_id = tm AND c.type = t AND c.status = s AND c.level = lv AND c.bucket BETWEEN lo AND hi
                GROUP BY c.bucket ORDER BY c.bucket LOOP
                IF r.n > rem THEN
                    b := r.bucket;
                    EXIT;
                END IF;
                rem := rem - r.n;
            END LOOP;
        END IF;
        IF b IS NULL THEN
            bound := NULL;
            rem := NULL;
            RETURN;
        END IF;
        lo := b << 6;
        hi := (b << 6) + 63;
    END LOOP;
    bound := CASE
        WHEN b >= (1::bigint << 38) THEN 'infinity'::timestamp
        WHEN b <= -(1::bigint << 38) THEN '-infinity'::timestamp
        WHEN newest THEN 'epoch'::timestamp + ((b + 1) << 12) * interval '1 second' - interval '1 microsecond'
        ELSE 'epoch'::timestamp + (b << 12) * interval '1 second'
    END;
END $$;

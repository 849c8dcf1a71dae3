-- Late pages of one term's listing without walking from its first post
-- (docs/performance.md#late-pages): what 0330 does for a type and status,
-- per term.
--
-- term_date_counts holds how many links of each (term, post type, post
-- status) have a post_date (the copy of the post's date_gmt that 0201 keeps
-- on term_relationships) in each time bucket, at the three widths of
-- post_date_counts (post_date_bucket: 2^12, 2^18 and 2^24 s). A category
-- page past JumpMinOffset (content's termPageSQL) sums them through
-- term_page_start and walks term_relationships_listing from the edge of
-- the ~68-minute bucket that holds its first post, in the same statement
-- (hence the same snapshot) as the counts it summed.
--
-- Kept by statement-level triggers on term_relationships, in the writing
-- transaction, spread over 32 slots per row like term_post_counts (0310).
-- They follow every write path: a new link (insert), a removed one (delete,
-- and a post's or term's delete: ON DELETE CASCADE deletes the links in
-- statements that fire these triggers), a truncate, and an update of a
-- link, which is what a post's type, status or date change does
-- (count_posts copies them onto its links). The rows with subtree = true
-- count a category's whole subtree the same way, from 0440's closure
-- term_subtree_links, whose triggers call the same function with the kind
-- as their argument.
CREATE TABLE term_date_counts (
    term_id bigint   NOT NULL,
    subtree boolean  NOT NULL,
    type    text     NOT NULL,
    status  text     NOT NULL,
    level   smallint NOT NULL,
    bucket  bigint   NOT NULL,
    slot    smallint NOT NULL,
    n       bigint   NOT NULL,
    PRIMARY KEY (term_id, subtree, type, status, level, bucket, slot)
);

INSERT INTO term_date_counts (term_id, subtree, type, status, level, bucket, slot, n)
SELECT r.term_id, false, r.post_type, r.post_status, l.level, post_date_bucket(r.post_date, l.level), 0, count(*)
FROM term_relationships r, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
GROUP BY 1, 3, 4, 5, 6;

CREATE FUNCTION count_term_dates() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    my_slot smallint := pg_backend_pid() % 32;
    sub boolean := TG_ARGV[0]::boolean;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM term_date_counts WHERE subtree = sub;
        RETURN NULL;
    END IF;
    -- one upsert for the statement's links, rows in key order, so that two
    -- writers sharing a slot lock them in the same order (a transition
    -- table the event has not may not be named: one statement per event)
    IF TG_OP = 'INSERT' THEN
        INSERT INTO term_date_counts AS c (term_id, subtree, type, status, level, bucket, slot, n)
        SELECT r.term_id, sub, r.post_type, r.post_status, l.level, post_date_bucket(r.post_date, l.level), my_slot, count(*)
        FROM new_rows r, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
        GROUP BY 1, 3, 4, 5, 6 ORDER BY 1, 3, 4, 5, 6
        ON CONFLICT (term_id, subtree, type, status, level, bucket, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO term_date_counts AS c (term_id, subtree, type, status, level, bucket, slot, n)
        SELECT r.term_id, sub, r.post_type, r.post_status, l.level, post_date_bucket(r.post_date, l.level), my_slot, -count(*)
        FROM old_rows r, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
        GROUP BY 1, 3, 4, 5, 6 ORDER BY 1, 3, 4, 5, 6
        ON CONFLICT (term_id, subtree, type, status, level, bucket, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSE
        -- each new link adds one, each old one takes one away: a link whose
        -- copy stayed in its buckets nets to nothing and is not written
        INSERT INTO term_date_counts AS c (term_id, subtree, type, status, level, bucket, slot, n)
        SELECT x.term_id, sub, x.post_type, x.post_status, l.level, post_date_bucket(x.post_date, l.level), my_slot, sum(x.k)
        FROM (
            SELECT term_id, post_type, post_status, post_date, 1 AS k FROM new_rows
            UNION ALL
            SELECT term_id, post_type, post_status, post_date, -1 FROM old_rows) x,
            (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
        GROUP BY 1, 3, 4, 5, 6 HAVING sum(x.k) <> 0 ORDER BY 1, 3, 4, 5, 6
        ON CONFLICT (term_id, subtree, type, status, level, bucket, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER term_relationships_date_count_insert AFTER INSERT ON term_relationships REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates('false');
CREATE TRIGGER term_relationships_date_count_update AFTER UPDATE ON term_relationships
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates('false');
CREATE TRIGGER term_relationships_date_count_delete AFTER DELETE ON term_relationships REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates('false');
CREATE TRIGGER term_relationships_date_count_truncate AFTER TRUNCATE ON term_relationships
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates('false');

-- Where a page at offset off of term tm's links to posts of type t and
-- status s, newest (or oldest) first, starts: post_page_start's answer
-- (bound, rem; NULL, NULL past the last link) from term_date_counts. STABLE
-- for the same reason: the counts are read in the calling statement's
-- snapshot. sub: the counts of the term's subtree (0440) instead.
CREATE FUNCTION term_page_start(tm bigint, t text, s text, off bigint, newest boolean, sub boolean DEFAULT false, OUT bound timestamp, OUT rem bigint)
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
                WHERE c.term_id = tm AND c.subtree = sub AND c.type = t AND c.status = s AND c.level = lv AND c.bucket BETWEEN lo AND hi
                GROUP BY c.bucket ORDER BY c.bucket DESC LOOP
                IF r.n > rem THEN
                    b := r.bucket;
                    EXIT;
                END IF;
                rem := rem - r.n;
            END LOOP;
        ELSE
            FOR r IN SELECT c.bucket, sum(c.n) AS n FROM term_date_counts c
                WHERE c.term_id = tm AND c.subtree = sub AND c.type = t AND c.status = s AND c.level = lv AND c.bucket BETWEEN lo AND hi
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

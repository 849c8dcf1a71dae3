-- Late pages without walking from the start (docs/performance.md#late-pages).
--
-- post_date_counts holds how many posts of each (type, status) have a
-- date_gmt in each time bucket, at three widths: 2^12 s (~68 minutes),
-- 2^18 s (~3 days) and 2^24 s (~194 days); "level" is the width's power of
-- two and "bucket" is floor(seconds since 1970 / 2^level), so a bucket's 64
-- children at the next finer level are buckets*64 .. buckets*64+63. A list
-- read of a late page sums the newest (or oldest) buckets, coarse first,
-- until it reaches the bucket holding its offset (post_page_start), then
-- walks the posts of that one ~68-minute bucket only (content's
-- jumpPageSQL), in the same statement, hence the same snapshot, as the
-- counts it summed.
--
-- Kept like post_counts (0201, 0310): a statement-level trigger on posts,
-- in the writing transaction, one upsert per statement, spread over 32 slots
-- per row so that concurrent writers do not queue on the newest buckets. A
-- post counts once per level; a post whose date is ±infinity counts at
-- ±2^50 seconds, beyond every finite timestamp.
CREATE TABLE post_date_counts (
    type   text     NOT NULL,
    status text     NOT NULL,
    level  smallint NOT NULL,
    bucket bigint   NOT NULL,
    slot   smallint NOT NULL,
    n      bigint   NOT NULL,
    PRIMARY KEY (type, status, level, bucket, slot)
);

-- The bucket of a date at a level (the trigger's and the backfill's).
CREATE FUNCTION post_date_bucket(d timestamp, level smallint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN d = 'infinity' THEN (2::bigint ^ 50)::bigint >> level
        WHEN d = '-infinity' THEN (-(2::bigint ^ 50))::bigint >> level
        ELSE floor(extract(epoch FROM d) / (2::bigint << (level - 1)))::bigint
    END
$$;

INSERT INTO post_date_counts (type, status, level, bucket, slot, n)
SELECT p.type, p.status, l.level, post_date_bucket(p.date_gmt, l.level), 0, count(*)
FROM posts p, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
GROUP BY 1, 2, 3, 4;

CREATE FUNCTION count_post_dates() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    my_slot smallint := pg_backend_pid() % 32;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM post_date_counts;
        RETURN NULL;
    END IF;
    -- rows in key order, so that two writers sharing a slot lock them in
    -- the same order
    IF TG_OP = 'INSERT' THEN
        INSERT INTO post_date_counts AS c (type, status, level, bucket, slot, n)
        SELECT r.type, r.status, l.level, post_date_bucket(r.date_gmt, l.level), my_slot, count(*)
        FROM new_rows r, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (type, status, level, bucket, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO post_date_counts AS c (type, status, level, bucket, slot, n)
        SELECT r.type, r.status, l.level, post_date_bucket(r.date_gmt, l.level), my_slot, -count(*)
        FROM old_rows r, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (type, status, level, bucket, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSE
        INSERT INTO post_date_counts AS c (type, status, level, bucket, slot, n)
        SELECT type, status, l.level, post_date_bucket(d, l.level), my_slot, sum(k)
        FROM (
            SELECT n.type, n.status, n.date_gmt AS d, 1 AS k FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.type, o.status, o.date_gmt) IS DISTINCT FROM (n.type, n.status, n.date_gmt)
            UNION ALL
            SELECT o.type, o.status, o.date_gmt, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.type, o.status, o.date_gmt) IS DISTINCT FROM (n.type, n.status, n.date_gmt)) x,
            (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
        GROUP BY 1, 2, 3, 4 HAVING sum(k) <> 0 ORDER BY 1, 2, 3, 4
        ON CONFLICT (type, status, level, bucket, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER posts_date_count_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_post_dates();
CREATE TRIGGER posts_date_count_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_post_dates();
CREATE TRIGGER posts_date_count_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_post_dates();
CREATE TRIGGER posts_date_count_truncate AFTER TRUNCATE ON posts
    FOR EACH STATEMENT EXECUTE FUNCTION count_post_dates();

-- Where a page at offset off of (t, s)'s posts, newest (or oldest) first,
-- starts: bound is the date the page's walk starts at (posts dated at or
-- before it for newest first, at or after it for oldest first; both bounds
-- are inclusive so that ±infinity work) and rem how many posts of that walk
-- come before the page. NULL, NULL when off is at or past the last post.
-- STABLE: its queries see the calling statement's snapshot, so the counts
-- it sums are those of the posts the statement walks. A loop rather than
-- one SQL statement: it stops at the bucket it looks for (a few rows per
-- level) and costs about a fifth of the window-function form (measured in
-- docs/performance.md#late-pages).
CREATE FUNCTION post_page_start(t text, s text, off bigint, newest boolean, OUT bound timestamp, OUT rem bigint)
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
        IF newest THEN
            FOR r IN SELECT c.bucket, sum(c.n) AS n FROM post_date_counts c
                WHERE c.type = t AND c.status = s AND c.level = lv AND c.bucket BETWEEN lo AND hi
                GROUP BY c.bucket ORDER BY c.bucket DESC LOOP
                IF r.n > rem THEN
                    b := r.bucket;
                    EXIT;
                END IF;
                rem := rem - r.n;
            END LOOP;
        ELSE
            FOR r IN SELECT c.bucket, sum(c.n) AS n FROM post_date_counts c
                WHERE c.type = t AND c.status = s AND c.level = lv AND c.bucket BETWEEN lo AND hi
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

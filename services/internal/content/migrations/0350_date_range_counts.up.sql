-- Exact totals of date ranges without counting every match
-- (docs/performance.md#counted-filters). A listing filtered by after and/or
-- before (one type, one status, nothing else) took its X-WP-Total from
-- count(*) over the matches: O(matches), 30-50 ms at 100,000 posts. The
-- date buckets' counts of 0330 (kept in the writers' transactions) give it
-- exactly: the posts dated before d are the whole ~194-day buckets before
-- d's, the whole ~3-day buckets before d's inside it, the whole ~68-minute
-- buckets before d's inside that, and the posts of d's own ~68-minute bucket
-- before d, counted from the posts' (type, status, date_gmt) index. Both
-- functions are STABLE: they see the calling statement's snapshot, in which
-- the counts and the rows agree (as post_page_start's do).

-- post_count_before: posts of type t and status s dated before d (or on d
-- when inclusive).
CREATE FUNCTION post_count_before(t text, s text, d timestamp, inclusive boolean) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    b24 bigint;
    b18 bigint;
    b12 bigint;
    whole bigint;
    part bigint;
BEGIN
    IF d IS NULL OR NOT isfinite(d) THEN
        -- only SQL writes an infinite date; count as the filter would
        SELECT count(*) INTO part FROM posts p WHERE p.type = t AND p.status = s AND (p.date_gmt < d OR (inclusive AND p.date_gmt = d));
        RETURN part;
    END IF;
    b24 := post_date_bucket(d, 24::smallint);
    b18 := post_date_bucket(d, 18::smallint);
    b12 := post_date_bucket(d, 12::smallint);
    SELECT COALESCE(sum(x.n), 0) INTO whole FROM (
        SELECT c.n FROM post_date_counts c WHERE c.type = t AND c.status = s AND c.level = 24 AND c.bucket < b24
        UNION ALL
        SELECT c.n FROM post_date_counts c WHERE c.type = t AND c.status = s AND c.level = 18
            AND c.bucket >= (b24 << 6) AND c.bucket < b18
        UNION ALL
        SELECT c.n FROM post_date_counts c WHERE c.type = t AND c.status = s AND c.level = 12
            AND c.bucket >= (b18 << 6) AND c.bucket < b12) x;
    SELECT count(*) INTO part FROM posts p WHERE p.type = t AND p.status = s
        AND p.date_gmt >= 'epoch'::timestamp + (b12 << 12) * interval '1 second'
        AND (p.date_gmt < d OR (inclusive AND p.date_gmt = d));
    RETURN whole + part;
END $$;

-- post_count_between: posts of type t and status s with after < date_gmt <
-- before (a NULL bound is no bound), as the listing's filter has it.
CREATE FUNCTION post_count_between(t text, s text, after timestamp, before timestamp) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    lo bigint := 0;
    hi bigint;
BEGIN
    IF after IS NOT NULL AND before IS NOT NULL AND after >= before THEN
        RETURN 0;
    END IF;
    IF after IS NOT NULL THEN
        lo := post_count_before(t, s, after, true);
    END IF;
    IF before IS NOT NULL THEN
        hi := post_count_before(t, s, before, false);
    ELSE
        SELECT COALESCE(sum(c.n), 0) INTO hi FROM post_counts c WHERE c.type = t AND c.status = s;
    END IF;
    RETURN hi - lo;
END $$;

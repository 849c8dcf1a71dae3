CREATE INDEX IF NOT EXISTS posts_type_slug_prefix ON posts (type, slug text_pattern_ops);

-- one row per count again: the slots summed into slot 0
CREATE TEMPORARY TABLE folded_post_counts AS SELECT type, status, sum(n)::bigint AS n FROM post_counts GROUP BY 1, 2;
DELETE FROM post_counts;
ALTER TABLE post_counts DROP CONSTRAINT post_counts_pkey, DROP COLUMN slot, ADD PRIMARY KEY (type, status);
INSERT INTO post_counts (type, status, n) SELECT type, status, n FROM folded_post_counts;
DROP TABLE folded_post_counts;
CREATE TEMPORARY TABLE folded_term_post_counts AS SELECT term_id, type, status, sum(n)::bigint AS n FROM term_post_counts GROUP BY 1, 2, 3;
DELETE FROM term_post_counts;
ALTER TABLE term_post_counts DROP CONSTRAINT term_post_counts_pkey, DROP COLUMN slot, ADD PRIMARY KEY (term_id, type, status);
INSERT INTO term_post_counts (term_id, type, status, n) SELECT term_id, type, status, n FROM folded_term_post_counts;
DROP TABLE folded_term_post_counts;

-- the functions of 0201
CREATE OR REPLACE FUNCTION count_posts() RETURNS trigger LANGUAGE plpgsql AS $$
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
        UPDATE term_relationships r SET post_type = n.type, post_status = n.status, post_date = n.date_gmt
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE r.post_id = n.id AND (o.type, o.status, o.date_gmt) IS DISTINCT FROM (n.type, n.status, n.date_gmt);
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION count_term_posts() RETURNS trigger LANGUAGE plpgsql AS $$
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

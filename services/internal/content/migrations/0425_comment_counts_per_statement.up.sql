-- comment_counts (0360) was kept by a row-level trigger: one upsert of the
-- same (type, status, slot) row per comment. In a statement that writes many
-- comments (an import, a bulk load, a post's cascade) every upsert steps over
-- the row versions the statement's earlier upserts left, so the statement's
-- cost grew with the square of its comments (a 500,000-comment load stalled
-- for minutes). Statement-level triggers with transition tables, as the post
-- counters since 0201 and 0420, write one upsert per (type, status) a
-- statement touches.
DROP TRIGGER comments_count ON comments;
DROP TRIGGER comments_count_move ON comments;
DROP TRIGGER comments_count_truncate ON comments;
DROP FUNCTION count_comment();

CREATE FUNCTION count_comments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    my_slot smallint := pg_backend_pid() % 32;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM comment_counts;
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO comment_counts AS c (type, status, slot, n)
        SELECT type, status, my_slot, count(*) FROM new_rows GROUP BY type, status
        ON CONFLICT (type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO comment_counts AS c (type, status, slot, n)
        SELECT type, status, my_slot, -count(*) FROM old_rows GROUP BY type, status
        ON CONFLICT (type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    ELSE
        -- only comments moved to another type or status change a count
        INSERT INTO comment_counts AS c (type, status, slot, n)
        SELECT type, status, my_slot, sum(d) FROM (
            SELECT n.type, n.status, 1 AS d FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.type, o.status) IS DISTINCT FROM (n.type, n.status)
            UNION ALL
            SELECT o.type, o.status, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id
                WHERE (o.type, o.status) IS DISTINCT FROM (n.type, n.status)) x
        GROUP BY type, status
        ON CONFLICT (type, status, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER comments_count_insert AFTER INSERT ON comments REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_comments();
CREATE TRIGGER comments_count_update AFTER UPDATE ON comments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_comments();
CREATE TRIGGER comments_count_delete AFTER DELETE ON comments REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_comments();
CREATE TRIGGER comments_count_truncate AFTER TRUNCATE ON comments
    FOR EACH STATEMENT EXECUTE FUNCTION count_comments();

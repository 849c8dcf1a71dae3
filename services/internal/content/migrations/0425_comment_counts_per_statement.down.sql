DROP TRIGGER IF EXISTS comments_count_insert ON comments;
DROP TRIGGER IF EXISTS comments_count_update ON comments;
DROP TRIGGER IF EXISTS comments_count_delete ON comments;
DROP TRIGGER IF EXISTS comments_count_truncate ON comments;
DROP FUNCTION IF EXISTS count_comments();

CREATE FUNCTION count_comment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    my_slot smallint := pg_backend_pid() % 32;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM comment_counts;
        RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO comment_counts AS c (type, status, slot, n) VALUES (OLD.type, OLD.status, my_slot, -1)
        ON CONFLICT (type, status, slot) DO UPDATE SET n = c.n - 1;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO comment_counts AS c (type, status, slot, n) VALUES (NEW.type, NEW.status, my_slot, 1)
        ON CONFLICT (type, status, slot) DO UPDATE SET n = c.n + 1;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER comments_count AFTER INSERT OR DELETE ON comments FOR EACH ROW EXECUTE FUNCTION count_comment();
CREATE TRIGGER comments_count_move AFTER UPDATE OF type, status ON comments
    FOR EACH ROW WHEN ((OLD.type, OLD.status) IS DISTINCT FROM (NEW.type, NEW.status)) EXECUTE FUNCTION count_comment();
CREATE TRIGGER comments_count_truncate AFTER TRUNCATE ON comments FOR EACH STATEMENT EXECUTE FUNCTION count_comment();

-- A flat comments collection (docs/performance.md#comments): the default
-- listing (every post's approved comments, newest first) sorted and counted
-- every approved comment of the site (count(*) OVER ()), 750,000 at
-- 1,000,000 posts in the bench. Its page now comes from an index in its
-- order and its total from counts the writes maintain, as posts' do
-- (migrations 0201, 0310): comments per (type, status), spread over 32 slots
-- so that concurrent writers rarely meet, kept by triggers in the writing
-- transaction.
CREATE TABLE comment_counts (
    type   text     NOT NULL,
    status text     NOT NULL,
    slot   smallint NOT NULL,
    n      bigint   NOT NULL,
    PRIMARY KEY (type, status, slot)
);
INSERT INTO comment_counts (type, status, slot, n) SELECT type, status, 0, count(*) FROM comments GROUP BY type, status;

-- Row-level: comments are written one at a time (a bulk load of n comments
-- costs n upserts); an update counts only when it moves a comment to
-- another type or status.
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

-- the default listing's order, one status and type at a time
CREATE INDEX comments_status_date ON comments (status, type, date_gmt DESC, id DESC);

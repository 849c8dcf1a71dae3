-- Late pages of a parent category's archive without walking
-- (docs/performance.md#late-pages): WordPress's category archive lists the
-- posts of the category and of all its descendants (include_children), a
-- set term_relationships has no index for, so its pages and total cost
-- O(matches) (200 ms for page 977 of a 44,000-post parent at 100,000 posts).
--
-- term_subtree_links is the closure of category links by ancestor: one row
-- for each post and each category that is its category or an ancestor of
-- one of its categories (a post in both a parent and its child: once),
-- with the copies of the post's type, status and date that
-- term_relationships carries, so that a category's subtree is read newest
-- first from one index as a single term is (content's termPageSQL), and
-- term_date_counts counts it too (subtree = true) for term_page_start's
-- jump and the total.
--
-- Only categories (the one hierarchical taxonomy) have rows: a tag's links
-- would only be a second copy of term_relationships. The hierarchy is the
-- categories' parent column; a parent naming no category ends the climb,
-- and a cycle (a parent set to a descendant) makes every member an
-- ancestor of the others, as the recursive filter of content's termSet
-- reads it.
--
-- The primary key leads with post_id, as term_relationships' does: a post's
-- copy change and its links' removal look its rows up by post.
CREATE TABLE term_subtree_links (
    term_id     bigint    NOT NULL,
    post_id     bigint    NOT NULL,
    post_type   text      NOT NULL,
    post_status text      NOT NULL,
    post_date   timestamp NOT NULL,
    PRIMARY KEY (post_id, term_id)
);

-- (link term, ancestor-or-self) for the categories among ids.
CREATE FUNCTION category_ancestors(ids bigint[]) RETURNS TABLE (term_id bigint, anc bigint)
LANGUAGE sql STABLE AS $$
    WITH RECURSIVE a(term_id, anc) AS (
        SELECT t.id, t.id FROM terms t WHERE t.id = ANY(ids) AND t.taxonomy = 'category'
        UNION
        SELECT a.term_id, p.id FROM a JOIN terms t ON t.id = a.anc JOIN terms p ON p.id = t.parent AND p.taxonomy = 'category')
    SELECT term_id, anc FROM a
$$;

-- (root, post, copies) for every post linked to a category in the subtree
-- of each root: what term_subtree_links holds for the roots.
CREATE FUNCTION category_subtree_rows(roots bigint[])
RETURNS TABLE (term_id bigint, post_id bigint, post_type text, post_status text, post_date timestamp)
LANGUAGE sql STABLE AS $$
    WITH RECURSIVE d(root, id) AS (
        SELECT t.id, t.id FROM terms t WHERE t.id = ANY(roots) AND t.taxonomy = 'category'
        UNION
        SELECT d.root, t.id FROM d JOIN terms t ON t.parent = d.id AND t.taxonomy = 'category')
    SELECT DISTINCT ON (d.root, r.post_id) d.root, r.post_id, r.post_type, r.post_status, r.post_date
    FROM d JOIN term_relationships r ON r.term_id = d.id
    ORDER BY d.root, r.post_id
$$;

-- The rows of the links (posts[i], terms[i]) that exist: each link's post
-- under each ancestor-or-self of its category.
--
-- These are PL/pgSQL, which keeps each statement's plan for the session
-- (an SQL function's body is planned at every call), and keep its generic
-- plan: the arrays' sizes are unknown to it, so PostgreSQL found no custom
-- plan dearer than the generic one and planned every call anew (0.35
-- against 0.18 ms a call of add, 0.68 against 0.40 of remove, in a loop of
-- 2,000 at 100,000 posts).
CREATE FUNCTION subtree_links_add(posts bigint[], terms bigint[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    INSERT INTO term_subtree_links (term_id, post_id, post_type, post_status, post_date)
    SELECT DISTINCT ON (r.post_id, a.anc) a.anc, r.post_id, r.post_type, r.post_status, r.post_date
    FROM unnest(posts, terms) l(post_id, term_id)
    JOIN term_relationships r ON r.post_id = l.post_id AND r.term_id = l.term_id
    JOIN category_ancestors(ARRAY(SELECT DISTINCT unnest(terms))) a ON a.term_id = l.term_id
    ORDER BY r.post_id, a.anc
    ON CONFLICT DO NOTHING;
END $$;

-- Removes the rows the removed links (posts[i], terms[i]) gave unless
-- another link of the post is under the same ancestor.
CREATE FUNCTION subtree_links_remove(posts bigint[], terms bigint[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
    DELETE FROM term_subtree_links s USING (
        SELECT DISTINCT a.anc, l.post_id
        FROM unnest(posts, terms) l(post_id, term_id)
        JOIN category_ancestors(ARRAY(SELECT DISTINCT unnest(terms))) a ON a.term_id = l.term_id
        EXCEPT
        SELECT a.anc, r.post_id FROM term_relationships r
        JOIN category_ancestors(ARRAY(SELECT r2.term_id FROM term_relationships r2 WHERE r2.post_id = ANY(posts))) a
            ON a.term_id = r.term_id
        WHERE r.post_id = ANY(posts)) d
    WHERE s.term_id = d.anc AND s.post_id = d.post_id;
END $$;

-- Makes the rows of the roots' subtrees what category_subtree_rows says
-- (after a category moved or was deleted): O(posts under them), writing
-- only the difference.
CREATE FUNCTION subtree_links_rebuild(roots bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM term_subtree_links s USING (
        SELECT term_id, post_id FROM term_subtree_links WHERE term_id = ANY(roots)
        EXCEPT
        SELECT term_id, post_id FROM category_subtree_rows(roots)) d
    WHERE s.term_id = d.term_id AND s.post_id = d.post_id;
    INSERT INTO term_subtree_links (term_id, post_id, post_type, post_status, post_date)
    SELECT * FROM category_subtree_rows(roots) ORDER BY post_id, term_id ON CONFLICT DO NOTHING;
END $$;

INSERT INTO term_subtree_links (term_id, post_id, post_type, post_status, post_date)
SELECT * FROM category_subtree_rows(ARRAY(SELECT id FROM terms WHERE taxonomy = 'category'));

CREATE INDEX term_subtree_links_listing ON term_subtree_links (term_id, post_type, post_status, post_date DESC, post_id DESC);

-- Kept in the writing transaction by statement-level triggers on
-- term_relationships: a new link adds its rows, a removed one (a post's or
-- a category's delete cascades to its links) removes those no other link
-- of the post keeps, and a link's copy change (a post's type, status or
-- date: count_posts copies them onto its links) reaches the post's rows.
CREATE FUNCTION keep_term_subtree_links() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    p bigint[];
    t bigint[];
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM term_subtree_links;
        RETURN NULL;
    END IF;
    -- only categories' links have rows: a statement without any (a tag's
    -- link, the empty delete before a post's categories are set) writes
    -- nothing, and fires no trigger of term_subtree_links
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(n.post_id), array_agg(n.term_id) INTO p, t
        FROM new_rows n JOIN terms c ON c.id = n.term_id AND c.taxonomy = 'category';
        IF p IS NOT NULL THEN
            PERFORM pg_advisory_xact_lock_shared('term_subtree_links'::regclass::oid::int, 0);
            PERFORM subtree_links_add(p, t);
        END IF;
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        -- a category's own delete cascades to its links after its row is
        -- gone: keep_term_subtrees rebuilds its ancestors then
        SELECT array_agg(o.post_id), array_agg(o.term_id) INTO p, t
        FROM old_rows o JOIN terms c ON c.id = o.term_id AND c.taxonomy = 'category';
        IF p IS NOT NULL THEN
            PERFORM pg_advisory_xact_lock_shared('term_subtree_links'::regclass::oid::int, 0);
            PERFORM subtree_links_remove(p, t);
        END IF;
        RETURN NULL;
    END IF;
    IF EXISTS (SELECT 1 FROM new_rows n JOIN terms c ON c.id = n.term_id AND c.taxonomy = 'category') THEN
        UPDATE term_subtree_links s SET post_type = n.post_type, post_status = n.post_status, post_date = n.post_date
        FROM (SELECT DISTINCT ON (post_id) post_id, post_type, post_status, post_date FROM new_rows ORDER BY post_id) n
        WHERE s.post_id = n.post_id AND (s.post_type, s.post_status, s.post_date) IS DISTINCT FROM (n.post_type, n.post_status, n.post_date);
    END IF;
    -- a link moved to another post or term (no write path does; SQL may)
    PERFORM pg_advisory_xact_lock_shared('term_subtree_links'::regclass::oid::int, 0);
    SELECT array_agg(post_id), array_agg(term_id) INTO p, t
    FROM (SELECT post_id, term_id FROM old_rows EXCEPT SELECT post_id, term_id FROM new_rows) o;
    IF p IS NOT NULL THEN
        PERFORM subtree_links_remove(p, t);
    END IF;
    SELECT array_agg(post_id), array_agg(term_id) INTO p, t
    FROM (SELECT post_id, term_id FROM new_rows EXCEPT SELECT post_id, term_id FROM old_rows) n;
    IF p IS NOT NULL THEN
        PERFORM subtree_links_add(p, t);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER term_relationships_subtree_insert AFTER INSERT ON term_relationships REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION keep_term_subtree_links();
CREATE TRIGGER term_relationships_subtree_update AFTER UPDATE ON term_relationships
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION keep_term_subtree_links();
CREATE TRIGGER term_relationships_subtree_delete AFTER DELETE ON term_relationships REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION keep_term_subtree_links();
CREATE TRIGGER term_relationships_subtree_truncate AFTER TRUNCATE ON term_relationships
    FOR EACH STATEMENT EXECUTE FUNCTION keep_term_subtree_links();

-- A category's parent change (or a category's delete: wp_delete_term moves
-- its children to its parent first, content's DeleteTermRow too) changes
-- the subtrees of its ancestors before and after: those are rebuilt. Rare
-- (editing the hierarchy), so it may cost the posts under them. A link
-- writer climbs the parents under a shared advisory lock (keyed by this
-- table's oid) and a rebuild takes it exclusively, so a link written while
-- a category moves is never left under the old ancestors. The old
-- ancestors are climbed in the table as it was: the changed rows' old
-- versions in place of the new.
CREATE FUNCTION keep_term_subtrees() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    moved bigint[];
    roots bigint[];
BEGIN
    IF TG_OP = 'UPDATE' THEN
        SELECT array_agg(x) INTO moved FROM new_rows n JOIN old_rows o ON o.id = n.id,
            LATERAL (VALUES (n.id), (o.parent), (n.parent)) v(x)
        WHERE o.parent IS DISTINCT FROM n.parent OR o.taxonomy IS DISTINCT FROM n.taxonomy;
    ELSE
        DELETE FROM term_subtree_links WHERE term_id IN (SELECT id FROM old_rows);
        SELECT array_agg(x) INTO moved FROM old_rows o, LATERAL (VALUES (o.id), (o.parent)) v(x);
    END IF;
    IF moved IS NULL THEN
        RETURN NULL;
    END IF;
    -- wait for the link writers that climbed the old parents to commit,
    -- and make those that come after climb the new ones: the statements
    -- below (PL/pgSQL takes a snapshot per statement) then see their links
    PERFORM pg_advisory_xact_lock('term_subtree_links'::regclass::oid::int, 0);
    WITH RECURSIVE was AS (
        SELECT id, parent FROM terms WHERE id NOT IN (SELECT id FROM old_rows)
        UNION ALL SELECT id, parent FROM old_rows),
    up_old(id) AS (SELECT unnest(moved) UNION SELECT w.parent FROM up_old u JOIN was w ON w.id = u.id),
    up_new(id) AS (SELECT unnest(moved) UNION SELECT t.parent FROM up_new u JOIN terms t ON t.id = u.id)
    SELECT array_agg(DISTINCT t.id) INTO roots FROM terms t
    WHERE t.taxonomy = 'category' AND t.id IN (SELECT id FROM up_old UNION SELECT id FROM up_new);
    IF roots IS NOT NULL THEN
        PERFORM subtree_links_rebuild(roots);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER terms_subtree_update AFTER UPDATE ON terms REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION keep_term_subtrees();
CREATE TRIGGER terms_subtree_delete AFTER DELETE ON terms REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION keep_term_subtrees();

-- The subtree's date-bucket counts: term_date_counts' subtree rows, kept by
-- its trigger function (0430) with the subtree kind.
INSERT INTO term_date_counts (term_id, subtree, type, status, level, bucket, slot, n)
SELECT s.term_id, true, s.post_type, s.post_status, l.level, post_date_bucket(s.post_date, l.level), 0, count(*)
FROM term_subtree_links s, (VALUES (12::smallint), (18::smallint), (24::smallint)) l(level)
GROUP BY 1, 3, 4, 5, 6;

CREATE TRIGGER term_subtree_links_date_count_insert AFTER INSERT ON term_subtree_links REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates('true');
CREATE TRIGGER term_subtree_links_date_count_update AFTER UPDATE ON term_subtree_links
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates('true');
CREATE TRIGGER term_subtree_links_date_count_delete AFTER DELETE ON term_subtree_links REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates('true');
CREATE TRIGGER term_subtree_links_date_count_truncate AFTER TRUNCATE ON term_subtree_links
    FOR EACH STATEMENT EXECUTE FUNCTION count_term_dates('true');

-- A version of the terms table as a whole (docs/performance.md#version-reads).
--
-- Anonymous post reads check whether the posts they show are the versions
-- whose JSON the content service holds by reading small versions instead
-- of whole rows (post_versions.go). A post's JSON also holds its terms'
-- order (by name) and slugs; rather than joining every term of every post
-- shown, a read takes this one number: every statement that writes terms
-- adds one to it in its own transaction, so two reads that see the same
-- number saw the same terms. Term writes are rare (editing a term or a
-- menu); post writes never touch the terms table.
CREATE TABLE term_generation (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    n   bigint  NOT NULL
);
INSERT INTO term_generation (one, n) VALUES (true, 1);

CREATE FUNCTION bump_term_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE term_generation SET n = n + 1;
    RETURN NULL;
END $$;

CREATE TRIGGER terms_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON terms
    FOR EACH STATEMENT EXECUTE FUNCTION bump_term_generation();

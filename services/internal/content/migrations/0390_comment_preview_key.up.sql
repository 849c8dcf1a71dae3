-- The key of the comment form's moderation hash (WordPress's wp_hash of a
-- held comment's date): the link that shows an anonymous commenter their
-- held comment for ten minutes. Random per site, from PostgreSQL's strong
-- generator (gen_random_uuid), never leaves the database but to the
-- content service.
CREATE TABLE comment_preview_key (
    id  integer PRIMARY KEY CHECK (id = 1),
    key bytea   NOT NULL
);
INSERT INTO comment_preview_key (id, key)
    VALUES (1, decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));

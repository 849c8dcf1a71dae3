-- Revisions and autosaves are looked up by (parent, type) on every post read
-- (version-history count, latest revision); child pages by parent.
DROP INDEX IF EXISTS posts_parent;
CREATE INDEX posts_parent_type ON posts (parent, type, id);

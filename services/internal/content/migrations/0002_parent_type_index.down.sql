DROP INDEX IF EXISTS posts_parent_type;
CREATE INDEX posts_parent ON posts (parent) WHERE parent <> 0;

DROP INDEX IF EXISTS terms_taxonomy_name;
DROP INDEX IF EXISTS terms_parent;
DROP INDEX IF EXISTS terms_taxonomy_slug;

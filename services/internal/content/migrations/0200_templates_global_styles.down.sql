DROP INDEX IF EXISTS posts_theme_type_slug;
ALTER TABLE posts DROP COLUMN IF EXISTS template_area, DROP COLUMN IF EXISTS template_origin, DROP COLUMN IF EXISTS theme;

-- Templates (wp_template), template parts (wp_template_part) and the user's
-- global styles (wp_global_styles) are posts too. They belong to a theme (the
-- stylesheet; WordPress keeps it in the wp_theme taxonomy); a customised
-- theme template records where it came from (origin 'theme'); a template part
-- has an area (header, footer, uncategorized).
ALTER TABLE posts
    ADD COLUMN theme           text NOT NULL DEFAULT '',
    ADD COLUMN template_origin text NOT NULL DEFAULT '',
    ADD COLUMN template_area   text NOT NULL DEFAULT '';

CREATE INDEX posts_theme_type_slug ON posts (theme, type, slug) WHERE theme <> '';

-- Site settings written through /cms/v2/settings (WordPress's options that
-- the settings route exposes). A missing row means the default: the site
-- file's value, else WordPress's.
CREATE TABLE settings (
    name  text PRIMARY KEY,
    value jsonb NOT NULL
);

-- The font files installed with font faces (the site editor's font
-- library, content fonts_files.go): WordPress keeps them in
-- wp-content/uploads/fonts; here every replica serves them from this table
-- at /cms-content/fonts/<name>. A face's files go with the face.
CREATE TABLE font_files (
    name        text        PRIMARY KEY,
    face        bigint      NOT NULL,
    mime        text        NOT NULL,
    data        bytea       NOT NULL,
    created_gmt timestamp   NOT NULL DEFAULT (now() AT TIME ZONE 'UTC')
);
CREATE INDEX font_files_face ON font_files (face);

-- Attachments: WordPress's attachment posts, with their file metadata.
CREATE TABLE attachments (
    id             bigserial PRIMARY KEY,
    author         bigint      NOT NULL,
    date_gmt       timestamptz NOT NULL,
    modified_gmt   timestamptz NOT NULL,
    slug           text        NOT NULL,
    -- inherit or private (WordPress stores attachments as inherit unless private)
    status         text        NOT NULL DEFAULT 'inherit' CHECK (status IN ('inherit', 'private')),
    title          text        NOT NULL DEFAULT '',
    caption        text        NOT NULL DEFAULT '',
    description    text        NOT NULL DEFAULT '',
    alt_text       text        NOT NULL DEFAULT '',
    -- the parent post in the content service (0: none); an id, never a join
    post           bigint      NOT NULL DEFAULT 0,
    featured_media bigint      NOT NULL DEFAULT 0,
    comment_status text        NOT NULL DEFAULT 'open',
    ping_status    text        NOT NULL DEFAULT 'closed',
    template       text        NOT NULL DEFAULT '',
    meta           jsonb       NOT NULL DEFAULT '{}',
    mime_type      text        NOT NULL,
    -- blob key of the original, e.g. 2026/11/photo.jpg
    file           text        NOT NULL,
    filesize       bigint      NOT NULL,
    -- image metadata: width, height, sizes, image_meta, parent_image ({} for other files)
    details        jsonb       NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX attachments_slug ON attachments (slug);
CREATE INDEX attachments_date ON attachments (date_gmt DESC, id DESC);
CREATE INDEX attachments_post ON attachments (post);

-- Every blob key in use (originals and sizes): the unique index is what
-- makes file names unique, across concurrent uploads too.
CREATE TABLE files (
    key           text   PRIMARY KEY,
    attachment_id bigint NOT NULL REFERENCES attachments (id) ON DELETE CASCADE
);
CREATE INDEX files_attachment ON files (attachment_id);

-- Posts of every type live in one table, as in WordPress: posts, pages,
-- reusable blocks (wp_block), navigation (wp_navigation) and their revisions
-- and autosaves (type 'revision', parent = the revisioned post). Sharing one
-- id sequence keeps WordPress's rule that a revision id is never a post id.
CREATE TABLE posts (
    id             bigserial PRIMARY KEY,
    type           text        NOT NULL,
    status         text        NOT NULL,
    author         bigint      NOT NULL DEFAULT 0,
    -- date_gmt is always set; date_floating marks a draft whose date was never
    -- chosen (WordPress's 0000-00-00 GMT date): it follows the save time.
    date_gmt       timestamp   NOT NULL,
    date_floating  boolean     NOT NULL DEFAULT false,
    modified_gmt   timestamp   NOT NULL,
    slug           text        NOT NULL DEFAULT '',
    title          text        NOT NULL DEFAULT '',
    content        text        NOT NULL DEFAULT '',
    excerpt        text        NOT NULL DEFAULT '',
    password       text        NOT NULL DEFAULT '',
    parent         bigint      NOT NULL DEFAULT 0,
    menu_order     integer     NOT NULL DEFAULT 0,
    comment_status text        NOT NULL DEFAULT 'open',
    ping_status    text        NOT NULL DEFAULT 'open',
    format         text        NOT NULL DEFAULT 'standard',
    sticky         boolean     NOT NULL DEFAULT false,
    template       text        NOT NULL DEFAULT '',
    featured_media bigint      NOT NULL DEFAULT 0,
    footnotes      text        NOT NULL DEFAULT '',
    sync_status    text        NOT NULL DEFAULT '',
    -- revisions only: true for an autosave (slug <parent>-autosave-v1)
    autosave       boolean     NOT NULL DEFAULT false,
    -- status before the post was trashed (WordPress's _wp_trash_meta_status)
    trash_status   text        NOT NULL DEFAULT ''
);

CREATE INDEX posts_type_status_date ON posts (type, status, date_gmt DESC, id DESC);
CREATE INDEX posts_type_slug ON posts (type, slug);
CREATE INDEX posts_parent ON posts (parent) WHERE parent <> 0;
CREATE INDEX posts_sticky ON posts (type) WHERE sticky;

-- Terms of the four taxonomies: category, post_tag, nav_menu, wp_pattern_category.
CREATE TABLE terms (
    id          bigserial PRIMARY KEY,
    taxonomy    text   NOT NULL,
    name        text   NOT NULL,
    slug        text   NOT NULL,
    description text   NOT NULL DEFAULT '',
    parent      bigint NOT NULL DEFAULT 0,
    UNIQUE (taxonomy, slug)
);

CREATE TABLE term_relationships (
    post_id bigint NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    term_id bigint NOT NULL REFERENCES terms (id) ON DELETE CASCADE,
    PRIMARY KEY (post_id, term_id)
);
CREATE INDEX term_relationships_term ON term_relationships (term_id, post_id);

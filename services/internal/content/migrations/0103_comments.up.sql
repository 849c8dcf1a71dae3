-- Comments (WordPress's wp_comments): status is approved, hold, spam or
-- trash; trash_status keeps the status a trashed comment had. A post's
-- comment_count is the number of its approved comments, updated in the
-- transaction of every comment write.
CREATE TABLE comments (
    id                bigserial PRIMARY KEY,
    post              bigint    NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    parent            bigint    NOT NULL DEFAULT 0,
    author            bigint    NOT NULL DEFAULT 0,
    author_name       text      NOT NULL DEFAULT '',
    author_email      text      NOT NULL DEFAULT '',
    author_url        text      NOT NULL DEFAULT '',
    author_ip         text      NOT NULL DEFAULT '',
    author_user_agent text      NOT NULL DEFAULT '',
    date_gmt          timestamp NOT NULL,
    content           text      NOT NULL DEFAULT '',
    status            text      NOT NULL DEFAULT 'hold',
    trash_status      text      NOT NULL DEFAULT '',
    type              text      NOT NULL DEFAULT 'comment'
);
CREATE INDEX comments_post_status ON comments (post, status, date_gmt DESC, id DESC);
CREATE INDEX comments_parent ON comments (parent) WHERE parent <> 0;
ALTER TABLE posts ADD COLUMN comment_count integer NOT NULL DEFAULT 0;

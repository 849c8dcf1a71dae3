-- Login passwords (typed by people): an argon2id PHC string, '' = none set.
-- Application passwords stay in application_passwords with their keyed hash.
ALTER TABLE users ADD COLUMN login_password text NOT NULL DEFAULT '';

-- Browser sessions of /cms-login.php. The cookie holds a random token; only
-- its SHA-256 is stored, so a leaked table does not yield usable cookies.
CREATE TABLE sessions (
    token_hash bytea       PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    ip         text        NOT NULL DEFAULT ''
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Failed logins per key ("login:<lower login>" or "addr:<address>") in a
-- fixed window; shared by every gateway replica.
CREATE TABLE login_failures (
    key          text        PRIMARY KEY,
    window_start timestamptz NOT NULL,
    failures     integer     NOT NULL
);

-- oEmbed proxy answers per URL and arguments (transient-like, with a TTL).
CREATE TABLE oembed_cache (
    key        text        PRIMARY KEY,
    status     integer     NOT NULL,
    body       bytea       NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX oembed_cache_expires_idx ON oembed_cache (expires_at);

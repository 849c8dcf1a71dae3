CREATE TABLE users (
    id            bigserial PRIMARY KEY,
    login         text        NOT NULL CHECK (login <> ''),
    email         text        NOT NULL CHECK (email <> ''),
    slug          text        NOT NULL CHECK (slug <> ''),
    display_name  text        NOT NULL DEFAULT '',
    first_name    text        NOT NULL DEFAULT '',
    last_name     text        NOT NULL DEFAULT '',
    nickname      text        NOT NULL DEFAULT '',
    url           text        NOT NULL DEFAULT '',
    description   text        NOT NULL DEFAULT '',
    locale        text        NOT NULL DEFAULT '',
    role          text        NOT NULL CHECK (role IN ('administrator', 'editor', 'author', 'contributor', 'subscriber')),
    registered_at timestamptz NOT NULL DEFAULT now()
);
-- WordPress compares logins and emails case-insensitively.
CREATE UNIQUE INDEX users_login_key ON users (lower(login));
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_slug_key ON users (slug);

CREATE TABLE application_passwords (
    uuid       uuid        PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    app_id     text        NOT NULL DEFAULT '',
    name       text        NOT NULL CHECK (name <> ''),
    -- HMAC-SHA256 of the normalised password under a server-side pepper.
    -- Passwords are 24 random alphanumerics (~143 bits), so a keyed fast hash
    -- is safe and lets authentication find the row by index.
    hash       bytea       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used  timestamptz,
    last_ip    text
);
CREATE UNIQUE INDEX application_passwords_hash_key ON application_passwords (hash);
CREATE INDEX application_passwords_user_idx ON application_passwords (user_id, created_at);

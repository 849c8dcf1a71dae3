-- Marketplace author API: accounts, their API keys, catalogue items and purchases.
-- Money is numeric(14,2) so that 19.99 stays 19.99; the service reads it as text.

CREATE TABLE accounts (
    id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username            text        NOT NULL UNIQUE,
    email               text        NOT NULL,
    firstname           text        NOT NULL,
    lastname            text        NOT NULL,
    balance             numeric(14,2) NOT NULL CHECK (balance >= 0),
    currency            char(3)     NOT NULL,
    profile_heading     text        NOT NULL,
    profile_description text        NOT NULL,
    contact_email       text        NOT NULL,
    social_links        jsonb       NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(social_links) = 'object'),
    avatar_url          text        NOT NULL,
    cover_url           text        NOT NULL,
    registered_at       timestamptz NOT NULL
);

-- Keys are stored only as their SHA-256 hash; prefix is a short, non-secret
-- display form that lets a person tell keys apart when revoking.
CREATE TABLE api_keys (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    key_hash    bytea       NOT NULL UNIQUE CHECK (length(key_hash) = 32),
    prefix      text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
CREATE INDEX api_keys_account_idx ON api_keys (account_id);
CREATE INDEX api_keys_prefix_idx ON api_keys (prefix);

CREATE TABLE items (
    id             bigint      PRIMARY KEY CHECK (id > 0),
    account_id     bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name           text        NOT NULL,
    description    text        NOT NULL,
    category       text        NOT NULL,
    sub_category   text        NOT NULL,
    options        text[]      NOT NULL DEFAULT '{}',
    version        text        NOT NULL,
    demo_link      text        NOT NULL,
    url            text        NOT NULL,
    tags           text[]      NOT NULL DEFAULT '{}',
    media_kind     text        NOT NULL CHECK (media_kind IN ('image', 'video', 'audio')),
    thumbnail      text        NOT NULL,
    preview_image  text,
    preview_video  text,
    preview_audio  text,
    screenshots    text[]      NOT NULL DEFAULT '{}',
    price_regular  numeric(14,2) NOT NULL CHECK (price_regular >= 0),
    price_extended numeric(14,2) NOT NULL CHECK (price_extended >= 0),
    currency       char(3)     NOT NULL,
    published_at   timestamptz NOT NULL,
    -- The seed's presence rules, enforced by the database as well as the importer.
    CHECK ((media_kind = 'audio') = (preview_image IS NULL)),
    CHECK ((media_kind = 'video') = (preview_video IS NOT NULL)),
    CHECK ((media_kind = 'audio') = (preview_audio IS NOT NULL))
);
CREATE INDEX items_account_idx ON items (account_id, id);

CREATE TABLE purchases (
    code            text        PRIMARY KEY,
    item_id         bigint      NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    license_type    text        NOT NULL,
    price           numeric(14,2) NOT NULL CHECK (price >= 0),
    currency        char(3)     NOT NULL,
    supported_until timestamptz,
    downloaded      boolean     NOT NULL DEFAULT false,
    purchased_at    timestamptz NOT NULL
);
CREATE INDEX purchases_item_idx ON purchases (item_id);

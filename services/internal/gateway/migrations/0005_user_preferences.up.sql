-- The block editor's preferences of each user (WordPress's
-- {prefix}persisted_preferences user meta, users/me's
-- meta.persisted_preferences). A table of its own: a write here changes
-- nothing a credential check reads, so it does not fire the users table's
-- credentials_changed trigger.
CREATE TABLE user_preferences (
    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    data    jsonb  NOT NULL CHECK (jsonb_typeof(data) = 'object')
);

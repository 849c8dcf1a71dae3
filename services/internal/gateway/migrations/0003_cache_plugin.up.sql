-- Switches of the cache-plugin routes shared by every gateway replica
-- (cache-plugin/v1/toggle_crawler_state: name 'crawler').
CREATE TABLE cache_plugin_state (
    name       text        PRIMARY KEY,
    enabled    boolean     NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

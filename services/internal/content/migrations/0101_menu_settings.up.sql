-- A menu's theme locations and auto_add flag (WordPress keeps them in the
-- nav_menu_locations theme mod and the nav_menu_options option). A location
-- holds one menu at most: assigning it to a menu takes it from the others.
CREATE TABLE menu_settings (
    term_id   bigint  PRIMARY KEY REFERENCES terms (id) ON DELETE CASCADE,
    locations text[]  NOT NULL DEFAULT '{}',
    auto_add  boolean NOT NULL DEFAULT false
);

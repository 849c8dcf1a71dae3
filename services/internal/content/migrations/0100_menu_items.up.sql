-- Menu items (nav_menu_item) are rows of posts, as in WordPress: title in
-- title, description in content, attr_title in excerpt, menu_order and
-- status there too, the menu as a nav_menu term relationship. What WordPress
-- keeps in post meta (_menu_item_*) lives here, one row per item.
-- Numbered 0100 to stay clear of the numbers other branches add; the
-- migration runner orders by number and allows gaps.
CREATE TABLE menu_items (
    post_id     bigint PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
    item_type   text   NOT NULL DEFAULT 'custom', -- taxonomy, post_type, post_type_archive, custom
    object      text   NOT NULL DEFAULT '',
    object_id   bigint NOT NULL DEFAULT 0,
    item_parent bigint NOT NULL DEFAULT 0,       -- the parent menu item
    target      text   NOT NULL DEFAULT '',
    url         text   NOT NULL DEFAULT '',
    classes     text[] NOT NULL DEFAULT '{}',
    xfn         text[] NOT NULL DEFAULT '{}'
);

DROP TABLE IF EXISTS menu_settings;

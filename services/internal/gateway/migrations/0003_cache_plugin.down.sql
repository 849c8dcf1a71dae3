DROP TABLE cache_plugin_state;

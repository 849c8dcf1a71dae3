UPDATE terms SET taxonomy = 'wp_pattern_category' WHERE taxonomy = 'cms_pattern_category';

-- The pattern-category taxonomy follows the seed's naming note: WordPress's
-- wp_pattern_category is cms_pattern_category here, in the stored taxonomy
-- name as in the REST field and route.
UPDATE terms SET taxonomy = 'cms_pattern_category' WHERE taxonomy = 'wp_pattern_category';

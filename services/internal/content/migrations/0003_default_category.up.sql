-- WordPress installs with the category "Uncategorized" (id 1, the
-- default_category option): posts without a category get it.
INSERT INTO terms (id, taxonomy, name, slug) VALUES (1, 'category', 'Uncategorized', 'uncategorized')
ON CONFLICT DO NOTHING;
SELECT setval(pg_get_serial_sequence('terms', 'id'), GREATEST((SELECT max(id) FROM terms), 1));

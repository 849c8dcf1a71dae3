DELETE FROM terms WHERE id = 1 AND taxonomy = 'category' AND slug = 'uncategorized';

DROP TABLE IF EXISTS comment_preview_key;

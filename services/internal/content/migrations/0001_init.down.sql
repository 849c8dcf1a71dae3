DROP TABLE term_relationships;
DROP TABLE terms;
DROP TABLE posts;

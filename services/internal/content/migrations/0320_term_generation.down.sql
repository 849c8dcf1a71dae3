DROP TRIGGER IF EXISTS terms_generation ON terms;
DROP FUNCTION IF EXISTS bump_term_generation();
DROP TABLE IF EXISTS term_generation;

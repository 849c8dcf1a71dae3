DROP TABLE oembed_cache;
DROP TABLE login_failures;
DROP TABLE sessions;
ALTER TABLE users DROP COLUMN login_password;

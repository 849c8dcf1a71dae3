DROP TRIGGER IF EXISTS application_passwords_credentials_rekeyed ON application_passwords;
DROP TRIGGER IF EXISTS application_passwords_credentials_changed ON application_passwords;
DROP TRIGGER IF EXISTS users_credentials_changed ON users;
DROP FUNCTION IF EXISTS notify_credentials_changed();

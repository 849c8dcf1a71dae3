-- Verified credentials are cached by every gateway replica
-- (accounts.CredentialCache, docs/security.md). A change that may end a
-- credential's validity — any write of users; a new, removed or re-keyed
-- application password — announces itself on the site's change channel in
-- its own transaction (delivered on commit, like every service's write), so
-- every replica forgets what it verified, whoever wrote: the gateway, its
-- CLI, an operator with psql. Recording a password's use (last_used,
-- last_ip) or renaming it changes nothing a credential check reads, so it
-- does not announce.
CREATE FUNCTION notify_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('siteplane_changes', 'gateway');
    RETURN NULL;
END $$;

CREATE TRIGGER users_credentials_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();
CREATE TRIGGER application_passwords_credentials_changed AFTER INSERT OR DELETE OR TRUNCATE ON application_passwords
    FOR EACH STATEMENT EXECUTE FUNCTION notify_credentials_changed();
CREATE TRIGGER application_passwords_credentials_rekeyed AFTER UPDATE ON application_passwords
    FOR EACH ROW WHEN ((OLD.uuid, OLD.user_id, OLD.hash) IS DISTINCT FROM (NEW.uuid, NEW.user_id, NEW.hash))
    EXECUTE FUNCTION notify_credentials_changed();

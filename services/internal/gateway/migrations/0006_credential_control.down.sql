-- migration 0004's function: the change channel only
CREATE OR REPLACE FUNCTION notify_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('siteplane_changes', 'gateway');
    RETURN NULL;
END $$;

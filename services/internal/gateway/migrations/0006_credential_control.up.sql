-- A change of credentials (migration 0004's triggers) is announced on the
-- site's control channel too: every gateway replica's credential cache must
-- hear it, and a replica whose edge cache keeps nothing no longer LISTENs on
-- the change channel (postgres.ChangeListener.Kept). The change channel
-- still hears it, as every write: pages may show the user.
CREATE OR REPLACE FUNCTION notify_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('siteplane_control', 'gateway');
    PERFORM pg_notify('siteplane_changes', 'gateway');
    RETURN NULL;
END $$;

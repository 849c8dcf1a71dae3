-- Idempotency-Key: the answer to a create, stored in the create's own
-- transaction and replayed to a retry with the same key for 24 hours
-- (platform/idempotency).
CREATE TABLE idempotency_keys (
    scope       text        NOT NULL,
    key         text        NOT NULL,
    fingerprint bytea       NOT NULL,
    status      integer     NOT NULL,
    header      jsonb       NOT NULL,
    body        bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

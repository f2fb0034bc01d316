-- +goose Up
-- Signed webhooks (docs/api.md, Webhooks): an account's endpoints, the
-- events stored before they are sent, one delivery per event and endpoint
-- that dispatchers claim with a lease, and the log of attempts.
CREATE TABLE webhook_endpoints (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    url           TEXT NOT NULL,
    events        TEXT NOT NULL, -- space-separated event types
    secret        TEXT NOT NULL, -- the signing key, shown once
    -- After a rotation with a grace period, the old key also signs until then.
    old_secret    TEXT NOT NULL DEFAULT '',
    old_until     TIMESTAMPTZ,
    enabled       BOOLEAN NOT NULL,
    disabled_at   TIMESTAMPTZ,
    failing_since TIMESTAMPTZ, -- the first failed attempt since the last success
    created_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id);

CREATE TABLE webhook_events (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    type       TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    data       TEXT NOT NULL -- JSON
);

CREATE TABLE webhook_deliveries (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id    TEXT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    state       TEXT NOT NULL, -- pending, delivered or failed
    attempts    INTEGER NOT NULL DEFAULT 0,
    next_at     TIMESTAMPTZ NOT NULL,
    lease_until TIMESTAMPTZ -- set while a dispatcher sends it
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (state, next_at);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id);

CREATE TABLE webhook_attempts (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id BIGINT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id    TEXT NOT NULL,
    event_type  TEXT NOT NULL,
    attempt     INTEGER NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    status      INTEGER NOT NULL, -- the HTTP status; 0 when none came
    duration_us BIGINT NOT NULL,
    error       TEXT NOT NULL
);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, id);

-- +goose Down
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
DROP TABLE webhook_endpoints;

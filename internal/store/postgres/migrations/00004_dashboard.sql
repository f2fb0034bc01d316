-- +goose Up
-- Dashboard sign-in: the encoded argon2id hash of the account's password
-- (NULL until one is set: operator-made accounts have none).
ALTER TABLE accounts ADD COLUMN password_hash TEXT;

-- Dashboard sessions, in the database so that every replica knows them.
-- Only the SHA-256 of the cookie's random id is stored, like tokens.
CREATE TABLE sessions (
    id_hash    TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL, -- synchronizer token of the session's forms
    created_at TIMESTAMPTZ NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_account_idx ON sessions (account_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Failed sign-ins per key (a hash of the email or of the client address),
-- shared by replicas so the throttle cannot be dodged by spreading guesses.
CREATE TABLE signin_attempts (
    key      TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_at  TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE signin_attempts;
DROP TABLE sessions;
ALTER TABLE accounts DROP COLUMN password_hash;

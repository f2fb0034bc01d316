-- +goose Up
-- The request log: an account's newest authenticated requests (REST and
-- MCP), written in batches by each replica, which keeps at most the newest
-- 1,000 of an account (docs/architecture.md, The request log).
CREATE TABLE request_log (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    token_id    TEXT NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    channel     TEXT NOT NULL, -- rest or mcp
    operation   TEXT NOT NULL, -- the route pattern, or the MCP tool name
    status      INTEGER NOT NULL,
    duration_us BIGINT NOT NULL,
    request_id  TEXT NOT NULL
);
CREATE INDEX request_log_account_idx ON request_log (account_id, id);

-- Requests per token and calendar month (UTC), for the tokens page.
CREATE TABLE token_calls (
    token_id TEXT NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
    period   TEXT NOT NULL, -- YYYY-MM
    calls    BIGINT NOT NULL,
    PRIMARY KEY (token_id, period)
);

-- +goose Down
DROP TABLE token_calls;
DROP TABLE request_log;

-- +goose Up
-- Charged calls per account and calendar month (UTC), the quota's counter.
CREATE TABLE usage_monthly (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    period     TEXT NOT NULL, -- YYYY-MM
    used       INTEGER NOT NULL,
    PRIMARY KEY (account_id, period)
);

-- Charged calls per account, day and channel (rest or mcp), for the
-- dashboard's usage chart.
CREATE TABLE usage_daily (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    day        TEXT NOT NULL, -- YYYY-MM-DD
    channel    TEXT NOT NULL,
    calls      INTEGER NOT NULL,
    PRIMARY KEY (account_id, day, channel)
);

-- +goose Down
DROP TABLE usage_daily;
DROP TABLE usage_monthly;

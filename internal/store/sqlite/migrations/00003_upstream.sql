-- +goose Up
-- Answers of NHTSA (VIN decodes, recalls, NCAP ratings), shared by every
-- replica. Only successes are stored; stored_at decides freshness.
CREATE TABLE upstream_cache (
    key       TEXT PRIMARY KEY,
    value     TEXT NOT NULL,
    stored_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE upstream_cache;

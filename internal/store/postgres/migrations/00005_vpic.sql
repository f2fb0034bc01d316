-- +goose Up
-- Imported vPIC snapshots for offline VIN decoding. The newest row is
-- served; an import replaces the older ones in the same transaction.
CREATE TABLE vpic_snapshots (
    id          BIGSERIAL PRIMARY KEY,
    data_date   TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    row_counts  TEXT NOT NULL,
    community   BIGINT NOT NULL,
    imported_at TIMESTAMPTZ NOT NULL,
    file        BYTEA NOT NULL
);

-- +goose Down
DROP TABLE vpic_snapshots;

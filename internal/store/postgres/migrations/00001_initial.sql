-- +goose Up
-- Catalog: replaced by ingest, read whole into memory by serve.
CREATE TABLE catalog_versions (
    version      BIGINT PRIMARY KEY,
    published_at TIMESTAMPTZ NOT NULL,
    source       TEXT NOT NULL,
    cars         INTEGER NOT NULL,
    motorcycles  INTEGER NOT NULL,
    boats        INTEGER NOT NULL,
    tire_sizes   INTEGER NOT NULL
);

CREATE TABLE cars (
    uuid             UUID PRIMARY KEY,
    make             TEXT NOT NULL,
    model            TEXT NOT NULL,
    year             INTEGER NOT NULL,
    trim             TEXT NOT NULL,
    body             TEXT NOT NULL,
    fuel_type        TEXT NOT NULL,
    drive_type       TEXT NOT NULL,
    transmission     TEXT NOT NULL,
    displacement_l   DOUBLE PRECISION,
    cylinders        INTEGER,
    -- EPA enrichment, written by `vds enrich` only.
    mpg_city         DOUBLE PRECISION,
    mpg_highway      DOUBLE PRECISION,
    mpg_combined     DOUBLE PRECISION,
    epa_range_miles  INTEGER,
    annual_fuel_cost INTEGER,
    co2_gpm          DOUBLE PRECISION
);

CREATE TABLE motorcycles (
    uuid            UUID PRIMARY KEY,
    make            TEXT NOT NULL,
    model           TEXT NOT NULL,
    year            INTEGER NOT NULL,
    motorcycle_type TEXT NOT NULL,
    vehicle_type    TEXT NOT NULL,
    displacement_cc INTEGER,
    engine_type     TEXT NOT NULL,
    power_hp        DOUBLE PRECISION
);

CREATE TABLE boats (
    uuid           UUID PRIMARY KEY,
    make           TEXT NOT NULL,
    model          TEXT NOT NULL,
    year           INTEGER NOT NULL,
    model_type     TEXT NOT NULL,
    length_ft      DOUBLE PRECISION NOT NULL,
    beam_ft        DOUBLE PRECISION NOT NULL,
    dry_weight_lbs INTEGER NOT NULL,
    engine_count   INTEGER NOT NULL,
    hp             INTEGER NOT NULL,
    hull_type      TEXT NOT NULL,
    fuel_type      TEXT NOT NULL
);

CREATE TABLE tire_fitments (
    uuid            UUID PRIMARY KEY,
    make            TEXT NOT NULL,
    model           TEXT NOT NULL,
    year            INTEGER NOT NULL,
    trim            TEXT NOT NULL,
    tire_size       TEXT NOT NULL,
    rear_tire_size  TEXT,
    alternate_sizes TEXT NOT NULL -- JSON array of sizes
);

-- User data: never replaced wholesale, never dropped by an ingest.
CREATE TABLE accounts (
    id         TEXT PRIMARY KEY,
    email      TEXT NOT NULL UNIQUE,
    plan       TEXT NOT NULL,
    suspended  BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE tokens (
    id           TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    hash         TEXT NOT NULL UNIQUE, -- hex SHA-256 of the secret; the secret is never stored
    scopes       TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    last_used_at TIMESTAMPTZ,
    revoked_at   TIMESTAMPTZ
);
CREATE INDEX tokens_account_idx ON tokens (account_id);

CREATE TABLE lists (
    id         TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    is_default BOOLEAN NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (account_id, name)
);

-- Items point at catalog records without a foreign key: a record that
-- leaves the catalog stays in the list, reported as missing.
CREATE TABLE list_items (
    list_id     TEXT NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    record_type TEXT NOT NULL,
    record_uuid UUID NOT NULL,
    note        TEXT NOT NULL,
    added_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (list_id, record_type, record_uuid)
);

-- +goose Down
DROP TABLE list_items;
DROP TABLE lists;
DROP TABLE tokens;
DROP TABLE accounts;
DROP TABLE tire_fitments;
DROP TABLE boats;
DROP TABLE motorcycles;
DROP TABLE cars;
DROP TABLE catalog_versions;

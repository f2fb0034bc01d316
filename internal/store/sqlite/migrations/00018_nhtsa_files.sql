-- +goose Up
-- Imported NHTSA flat files (FLAT_RCL_*), one row per file name: a newer
-- import of a name replaces its row in the same transaction. data holds the
-- parsed rows, gzipped, which every server indexes in memory.
CREATE TABLE nhtsa_files (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    kind        TEXT NOT NULL,
    file_date   TEXT NOT NULL,
    data_date   TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    row_counts  TEXT NOT NULL,
    imported_at TIMESTAMP NOT NULL,
    data        BLOB NOT NULL
);

-- +goose Down
DROP TABLE nhtsa_files;

-- +goose Up
-- The lines of imported complaint files (FLAT_CMPL), one per complaint ×
-- vehicle × component, queried per vehicle: a vehicle is its make, model and
-- year folded as the recall index folds them ("jeep|wrangler|2020"). Dates
-- are YYYY-MM-DD, '' when the file gives none. Complaint files imported
-- before held their rows in nhtsa_files.data: they are dropped, to be imported again.
DELETE FROM nhtsa_files WHERE kind = 'complaints';
CREATE TABLE nhtsa_complaints (
    file_id       INTEGER NOT NULL REFERENCES nhtsa_files (id) ON DELETE CASCADE,
    vehicle       TEXT NOT NULL,
    odi           BIGINT NOT NULL,
    component     TEXT NOT NULL,
    crash         BOOLEAN NOT NULL,
    fire          BOOLEAN NOT NULL,
    injuries      INTEGER NOT NULL,
    deaths        INTEGER NOT NULL,
    incident_date TEXT NOT NULL,
    received_date TEXT NOT NULL,
    summary       TEXT NOT NULL
);
CREATE INDEX nhtsa_complaints_vehicle ON nhtsa_complaints (vehicle);

-- +goose Down
DROP TABLE nhtsa_complaints;

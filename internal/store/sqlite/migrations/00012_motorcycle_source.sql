-- +goose Up
-- The vPIC powersports catalog (vds ingest --source vpic) keeps vPIC's raw
-- body class and primary fuel, and names the snapshot each record comes from.
ALTER TABLE motorcycles ADD COLUMN body_class TEXT NOT NULL DEFAULT '';
ALTER TABLE motorcycles ADD COLUMN fuel_type TEXT NOT NULL DEFAULT '';
ALTER TABLE motorcycles ADD COLUMN source TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE motorcycles DROP COLUMN source;
ALTER TABLE motorcycles DROP COLUMN fuel_type;
ALTER TABLE motorcycles DROP COLUMN body_class;

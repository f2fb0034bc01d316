-- +goose Up
-- A car's model is the catalog's canonical name; source_model keeps the
-- source's own spelling (EPA's F150 beside F-150, docs/data.md, Model names).
ALTER TABLE cars ADD COLUMN source_model TEXT NOT NULL DEFAULT '';
UPDATE cars SET source_model = model;

-- +goose Down
ALTER TABLE cars DROP COLUMN source_model;

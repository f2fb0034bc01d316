-- +goose Up
-- The EPA vehicle id a car's fuel-economy figures come from: written with
-- them by enrich, or pinned by the ingested file (the demo catalog pins all).
ALTER TABLE cars ADD COLUMN epa_id INTEGER;

-- +goose Down
ALTER TABLE cars DROP COLUMN epa_id;

-- +goose Up
-- The EPA vehicle id a car's fuel-economy figures come from: written with
-- them by enrich, or pinned by the ingested file (the demo catalog pins all);
-- and a plug-in hybrid's range on electricity alone.
ALTER TABLE cars ADD COLUMN epa_id INTEGER;
ALTER TABLE cars ADD COLUMN epa_electric_range_miles INTEGER;

-- +goose Down
ALTER TABLE cars DROP COLUMN epa_electric_range_miles;
ALTER TABLE cars DROP COLUMN epa_id;

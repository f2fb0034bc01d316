-- +goose Up
-- A fitment may carry its wheel's figures (docs/data.md, Wheel specs); all
-- optional, null when the catalog file leaves them out.
ALTER TABLE tire_fitments ADD COLUMN bolt_pattern TEXT;
ALTER TABLE tire_fitments ADD COLUMN center_bore_mm DOUBLE PRECISION;
ALTER TABLE tire_fitments ADD COLUMN offset_min_mm INTEGER;
ALTER TABLE tire_fitments ADD COLUMN offset_max_mm INTEGER;
ALTER TABLE tire_fitments ADD COLUMN rim_width_min_in DOUBLE PRECISION;
ALTER TABLE tire_fitments ADD COLUMN rim_width_max_in DOUBLE PRECISION;
ALTER TABLE tire_fitments ADD COLUMN lug_thread TEXT;
ALTER TABLE tire_fitments ADD COLUMN lug_torque_nm INTEGER;
ALTER TABLE tire_fitments ADD COLUMN tpms BOOLEAN;

-- +goose Down
ALTER TABLE tire_fitments DROP COLUMN tpms;
ALTER TABLE tire_fitments DROP COLUMN lug_torque_nm;
ALTER TABLE tire_fitments DROP COLUMN lug_thread;
ALTER TABLE tire_fitments DROP COLUMN rim_width_max_in;
ALTER TABLE tire_fitments DROP COLUMN rim_width_min_in;
ALTER TABLE tire_fitments DROP COLUMN offset_max_mm;
ALTER TABLE tire_fitments DROP COLUMN offset_min_mm;
ALTER TABLE tire_fitments DROP COLUMN center_bore_mm;
ALTER TABLE tire_fitments DROP COLUMN bolt_pattern;

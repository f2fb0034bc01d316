-- +goose Up
-- Tire sizes are stored alone in one canonical form (docs/data.md, Tire
-- sizes); the OEM load index and speed rating get columns of their own, and
-- staggered fitments list their rear alternates apart from the front ones.
ALTER TABLE tire_fitments ADD COLUMN load_index INTEGER;
ALTER TABLE tire_fitments ADD COLUMN speed_rating TEXT;
ALTER TABLE tire_fitments ADD COLUMN rear_load_index INTEGER;
ALTER TABLE tire_fitments ADD COLUMN rear_speed_rating TEXT;
ALTER TABLE tire_fitments ADD COLUMN rear_alternate_sizes TEXT NOT NULL DEFAULT '[]'; -- JSON array of sizes

-- Stored rows were written as "35x12.50R17 LT" and "255/50R20 109V": join
-- the LT suffix, then move a trailing load index and speed rating to their
-- columns. The right-hand sides read the row before the update. Anything
-- else (a P prefix, a rear size among the front alternates) is put right by
-- the next ingest.
UPDATE tire_fitments SET
    tire_size = replace(tire_size, ' LT', 'LT'),
    rear_tire_size = replace(rear_tire_size, ' LT', 'LT'),
    alternate_sizes = replace(alternate_sizes, ' LT', 'LT');
UPDATE tire_fitments SET
    load_index = CAST(substring(tire_size FROM strpos(tire_size, ' ') + 1 FOR length(tire_size) - strpos(tire_size, ' ') - 1) AS INTEGER),
    speed_rating = right(tire_size, 1),
    tire_size = left(tire_size, strpos(tire_size, ' ') - 1)
WHERE strpos(tire_size, ' ') > 0;
UPDATE tire_fitments SET
    rear_load_index = CAST(substring(rear_tire_size FROM strpos(rear_tire_size, ' ') + 1 FOR length(rear_tire_size) - strpos(rear_tire_size, ' ') - 1) AS INTEGER),
    rear_speed_rating = right(rear_tire_size, 1),
    rear_tire_size = left(rear_tire_size, strpos(rear_tire_size, ' ') - 1)
WHERE strpos(rear_tire_size, ' ') > 0;

-- +goose Down
UPDATE tire_fitments SET tire_size = tire_size || ' ' || load_index || speed_rating
WHERE load_index IS NOT NULL AND speed_rating IS NOT NULL;
UPDATE tire_fitments SET rear_tire_size = rear_tire_size || ' ' || rear_load_index || rear_speed_rating
WHERE rear_load_index IS NOT NULL AND rear_speed_rating IS NOT NULL;
ALTER TABLE tire_fitments DROP COLUMN rear_alternate_sizes;
ALTER TABLE tire_fitments DROP COLUMN rear_speed_rating;
ALTER TABLE tire_fitments DROP COLUMN rear_load_index;
ALTER TABLE tire_fitments DROP COLUMN speed_rating;
ALTER TABLE tire_fitments DROP COLUMN load_index;

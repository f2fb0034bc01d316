-- +goose Up
-- A list item may be a VIN (record_type 'vin', record_uuid derived from it):
-- vin_decode keeps its offline decode as JSON. recalls_checked_at is the
-- item's first recall check, its baseline; NULL until the watch checks it.
ALTER TABLE list_items ADD COLUMN vin TEXT NOT NULL DEFAULT '';
ALTER TABLE list_items ADD COLUMN vin_decode TEXT NOT NULL DEFAULT '';
ALTER TABLE list_items ADD COLUMN recalls_checked_at TIMESTAMP;

-- One row per watched make|model|year: the last successful check, and the
-- claim of the replica asking NHTSA now, so no two ask within an interval.
CREATE TABLE recall_checks (
    vehicle       TEXT PRIMARY KEY,
    checked_at    TIMESTAMP,
    claimed_until TIMESTAMP
);

-- A campaign as first sighted on an item; baseline rows were open at the
-- item's first check and never notify.
CREATE TABLE item_recalls (
    list_id         TEXT NOT NULL,
    record_type     TEXT NOT NULL,
    record_uuid     TEXT NOT NULL,
    campaign        TEXT NOT NULL,
    recall          TEXT NOT NULL,
    first_seen_at   TIMESTAMP NOT NULL,
    baseline        BOOLEAN NOT NULL,
    notified        BOOLEAN NOT NULL,
    seen            BOOLEAN NOT NULL,
    dealt_with_at   TIMESTAMP,
    dealt_with_note TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (list_id, record_type, record_uuid, campaign),
    FOREIGN KEY (list_id, record_type, record_uuid)
        REFERENCES list_items (list_id, record_type, record_uuid) ON DELETE CASCADE
);
CREATE INDEX item_recalls_unnotified ON item_recalls (notified) WHERE NOT notified;

-- +goose Down
DROP TABLE item_recalls;
DROP TABLE recall_checks;
ALTER TABLE list_items DROP COLUMN recalls_checked_at;
ALTER TABLE list_items DROP COLUMN vin_decode;
ALTER TABLE list_items DROP COLUMN vin;

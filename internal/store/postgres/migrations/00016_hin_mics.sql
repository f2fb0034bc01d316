-- +goose Up
-- The Coast Guard's manufacturer identification codes HINs are decoded
-- with, and where the list came from. An import replaces both at once.
CREATE TABLE hin_mic_lists (
    id          BIGSERIAL PRIMARY KEY,
    source      TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    codes       BIGINT NOT NULL,
    imported_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE hin_manufacturers (
    mic     TEXT PRIMARY KEY,
    company TEXT NOT NULL,
    address TEXT NOT NULL,
    city    TEXT NOT NULL,
    state   TEXT NOT NULL
);

-- +goose Down
DROP TABLE hin_manufacturers;
DROP TABLE hin_mic_lists;

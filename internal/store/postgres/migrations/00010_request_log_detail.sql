-- +goose Up
-- What a person needs to debug a logged request: its query string with
-- secrets redacted, and the code and detail of the problem it answered.
-- Each is printable ASCII of at most 128 bytes (requestlog.Fit).
ALTER TABLE request_log ADD COLUMN query TEXT NOT NULL DEFAULT '';
ALTER TABLE request_log ADD COLUMN code TEXT NOT NULL DEFAULT '';
ALTER TABLE request_log ADD COLUMN detail TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE request_log DROP COLUMN detail;
ALTER TABLE request_log DROP COLUMN code;
ALTER TABLE request_log DROP COLUMN query;

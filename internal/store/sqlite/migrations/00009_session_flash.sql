-- +goose Up
-- A one-time message a dashboard session carries to its next page: the
-- secret of a token just created or rotated, shown once after the redirect
-- and deleted as it is read. The body is sealed with a key derived from the
-- session's cookie, which the database never holds, so a copy of the
-- database does not reveal the secret.
CREATE TABLE session_flashes (
    session_hash TEXT PRIMARY KEY REFERENCES sessions (id_hash) ON DELETE CASCADE,
    body         BLOB NOT NULL
);

-- +goose Down
DROP TABLE session_flashes;

// Package sqlite opens the embedded default store: one SQLite file in WAL
// mode through the pure-Go modernc.org/sqlite driver (no cgo, no server).
package sqlite

import (
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/pressly/goose/v3"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/sqldb"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Open opens (creating if needed) the database file at path. Call Migrate before use.
func Open(path string) (*sqldb.DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create database directory: %w", err)
		}
	}
	// busy_timeout lets serve and ingest wait for each other; _txlock=immediate
	// takes the write lock at BEGIN, so no read-then-write deadlock.
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	// The file is created once; the pool opens it with mode=rw, so a
	// connection opened after the file was moved or deleted fails rather
	// than create an empty database in its place.
	if err := ping("file:" + path + "?" + q.Encode()); err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	q.Set("mode", "rw")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	opened, err := os.Stat(path)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	return sqldb.New(db, sqldb.Dialect{
		Name:           "sqlite",
		Goose:          goose.DialectSQLite3,
		Migrations:     sub,
		IsConflict:     isConflict,
		RowAtATime:     true,
		IndexAfterLoad: true,
		Check:          func() error { return sameFile(path, opened) },
	}), nil
}

func ping(dsn string) error {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Ping()
}

// sameFile reports store.ErrFileChanged when path no longer names the file
// the connections keep writing to.
func sameFile(path string, opened os.FileInfo) error {
	now, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s is gone (deleted or moved) since vds opened it, so writes to it would be lost; put it back or restart vds",
			store.ErrFileChanged, path)
	case err != nil:
		return fmt.Errorf("check the SQLite file: %w", err)
	case !os.SameFile(opened, now):
		return fmt.Errorf("%w: %s was replaced by another file since vds opened it, so writes to the open one would be lost; restart vds to use the new one",
			store.ErrFileChanged, path)
	}
	return nil
}

func isConflict(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

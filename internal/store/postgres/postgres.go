// Package postgres opens the PostgreSQL store through pgx/v5, which several
// replicas may share (migrations and catalog writes take locks).
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/vds-dev/vds/internal/store/sqldb"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Open connects to url (postgres://...). Call Migrate before use.
func Open(ctx context.Context, url string) (*sqldb.DB, error) {
	// The URL may hold a password: keep it out of the error.
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, errors.New("invalid postgres URL (expected postgres://user:pass@host:port/db?sslmode=...)")
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(10)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		db.Close()
		return nil, err
	}
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		db.Close()
		return nil, err
	}
	return sqldb.New(db, sqldb.Dialect{
		Name:        "postgres",
		Goose:       goose.DialectPostgres,
		Migrations:  sub,
		Locker:      locker,
		LockCatalog: "LOCK TABLE catalog_versions IN EXCLUSIVE MODE",
		ForUpdate:   " FOR UPDATE",
		SkipLocked:  " FOR UPDATE OF d SKIP LOCKED",
		// 0x76647377 spells "vdsw", the watch.
		TryWatchLock:  "SELECT pg_try_advisory_lock(1986294647)",
		WatchUnlock:   "SELECT pg_advisory_unlock(1986294647)",
		IsConflict:    isConflict,
		CopyFrom:      copyFrom,
		ReadIsolation: sql.LevelRepeatableRead,
	}), nil
}

// copyFrom writes n rows with COPY: a million cars' multi-row INSERTs
// spent most of an ingest building and parsing statements.
func copyFrom(ctx context.Context, driverConn any, table string, cols []string, n int, row func(int) []any) (int64, error) {
	c, ok := driverConn.(*stdlib.Conn)
	if !ok {
		return 0, fmt.Errorf("not a pgx connection: %T", driverConn)
	}
	return c.Conn().CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromSlice(n, func(i int) ([]any, error) { return row(i), nil }))
}

func isConflict(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

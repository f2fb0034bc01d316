package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// Unloadable is a displacement no JSON can carry, as an SQL literal per
// backend: PostgreSQL stores NaN, SQLite turns NaN into NULL but keeps an
// overflow as +Inf. Either breaks a server that loads it.
func Unloadable(dsn string) string {
	if isPostgres(dsn) {
		return "'NaN'"
	}
	return "9e999"
}

// PublishDisplacement writes value (an SQL literal) into displacement_l of
// the first car by uuid that has one, and publishes a new catalog version,
// straight in SQL: past ingest validation, as a bug or a hand edit would.
// dsn is a PostgreSQL URL or a SQLite file path. It returns the car's uuid
// and the version published.
func PublishDisplacement(ctx context.Context, dsn, value string) (string, int64, error) {
	// The same time format and lock wait as the store, whose server is
	// running on the same file.
	driver, source := "sqlite", "file:"+dsn+"?_pragma=busy_timeout(10000)&_txlock=immediate&_time_format=sqlite"
	if isPostgres(dsn) {
		driver, source = "pgx", dsn
	}
	db, err := sql.Open(driver, source)
	if err != nil {
		return "", 0, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return "", 0, err
	}
	defer func() { _ = tx.Rollback() }()
	var (
		id      string
		version int64
	)
	if err := tx.QueryRowContext(ctx, `SELECT uuid FROM cars WHERE displacement_l IS NOT NULL ORDER BY uuid LIMIT 1`).Scan(&id); err != nil {
		return "", 0, fmt.Errorf("pick a car: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE cars SET displacement_l = "+value+" WHERE uuid = $1", id); err != nil {
		return "", 0, fmt.Errorf("set displacement: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `INSERT INTO catalog_versions (version, published_at, source, cars, motorcycles, boats, tire_sizes)
		SELECT version + 1, $1, 'by hand', cars, motorcycles, boats, tire_sizes FROM catalog_versions
		ORDER BY version DESC LIMIT 1 RETURNING version`, time.Now().UTC()).Scan(&version); err != nil {
		return "", 0, fmt.Errorf("publish: %w", err)
	}
	return id, version, tx.Commit()
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

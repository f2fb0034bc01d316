package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

func (s *DB) GetCache(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	var value string
	var at time.Time
	err := s.db.QueryRowContext(ctx, `SELECT value, stored_at FROM upstream_cache WHERE key = $1`, key).Scan(&value, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, false, nil
	}
	if err != nil {
		return nil, time.Time{}, false, fmt.Errorf("read cache %s: %w", key, err)
	}
	return []byte(value), at.UTC(), true, nil
}

// PutCache stores an upstream answer, replacing an older one.
func (s *DB) PutCache(ctx context.Context, key string, value []byte, storedAt time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO upstream_cache (key, value, stored_at) VALUES ($1, $2, $3)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, stored_at = excluded.stored_at`, key, string(value), storedAt.UTC())
	if err != nil {
		return fmt.Errorf("write cache %s: %w", key, err)
	}
	return nil
}

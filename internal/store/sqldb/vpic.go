package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/vds-dev/vds/internal/store"
)

// PutVPICSnapshot stores a snapshot and drops the older ones in one transaction.
func (s *DB) PutVPICSnapshot(ctx context.Context, meta store.VPICSnapshot, file []byte) (store.VPICSnapshot, error) {
	rows, err := json.Marshal(meta.Rows)
	if err != nil {
		return store.VPICSnapshot{}, err
	}
	meta.ImportedAt = meta.ImportedAt.UTC()
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO vpic_snapshots (data_date, sha256, row_counts, community, imported_at, file)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
			meta.DataDate, meta.SHA256, string(rows), meta.Community, meta.ImportedAt, file).Scan(&meta.ID)
		if err != nil {
			return fmt.Errorf("store vPIC snapshot: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM vpic_snapshots WHERE id <> $1`, meta.ID); err != nil {
			return fmt.Errorf("drop older vPIC snapshots: %w", err)
		}
		return nil
	})
	return meta, err
}

func (s *DB) VPICSnapshot(ctx context.Context) (store.VPICSnapshot, error) {
	var m store.VPICSnapshot
	var rows string
	err := s.db.QueryRowContext(ctx, `SELECT id, data_date, sha256, row_counts, community, imported_at
		FROM vpic_snapshots ORDER BY id DESC LIMIT 1`).Scan(&m.ID, &m.DataDate, &m.SHA256, &rows, &m.Community, &m.ImportedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return m, store.ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("read vPIC snapshot: %w", err)
	}
	m.ImportedAt = m.ImportedAt.UTC()
	return m, json.Unmarshal([]byte(rows), &m.Rows)
}

func (s *DB) VPICFile(ctx context.Context, id int64) ([]byte, error) {
	return s.blob(ctx, `SELECT file FROM vpic_snapshots WHERE id = $1`, id, "vPIC snapshot")
}

// blob reads the one byte column query selects for id; what names it in errors.
func (s *DB) blob(ctx context.Context, query string, id int64, what string) ([]byte, error) {
	var data []byte
	err := s.db.QueryRowContext(ctx, query, id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read %s %d: %w", what, id, err)
	}
	return data, nil
}

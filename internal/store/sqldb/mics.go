package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/vds-dev/vds/internal/hin"
	"github.com/vds-dev/vds/internal/store"
)

var micCols = []string{"mic", "company", "address", "city", "state"}

// PutMICList replaces the MIC list and its provenance in one transaction.
func (s *DB) PutMICList(ctx context.Context, meta store.MICList, list []hin.Manufacturer) (store.MICList, error) {
	meta.ImportedAt = meta.ImportedAt.UTC()
	meta.Codes = len(list)
	rows := make([][]any, len(list))
	for i, m := range list {
		rows[i] = []any{m.MIC, m.Company, m.Address, m.City, m.State}
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, table := range []string{"hin_manufacturers", "hin_mic_lists"} {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+table); err != nil {
				return fmt.Errorf("clear %s: %w", table, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO hin_mic_lists (source, sha256, codes, imported_at) VALUES ($1, $2, $3, $4)`,
			meta.Source, meta.SHA256, meta.Codes, meta.ImportedAt); err != nil {
			return fmt.Errorf("store MIC list: %w", err)
		}
		return insertRowsWith(ctx, tx, "hin_manufacturers", micCols, rows, nil, s.d.Name == "sqlite")
	})
	return meta, s.mapErr(err)
}

// MICList describes the stored MIC list.
func (s *DB) MICList(ctx context.Context) (store.MICList, error) {
	var m store.MICList
	err := s.db.QueryRowContext(ctx, `SELECT source, sha256, codes, imported_at FROM hin_mic_lists`).
		Scan(&m.Source, &m.SHA256, &m.Codes, &m.ImportedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return m, store.ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("read MIC list: %w", err)
	}
	m.ImportedAt = m.ImportedAt.UTC()
	return m, nil
}

// Manufacturers reads the stored MIC list, in MIC order.
func (s *DB) Manufacturers(ctx context.Context) ([]hin.Manufacturer, error) {
	return queryAll(ctx, s.db, "read MIC list", func(r rowScanner) (hin.Manufacturer, error) {
		var x hin.Manufacturer
		return x, r.Scan(&x.MIC, &x.Company, &x.Address, &x.City, &x.State)
	}, `SELECT mic, company, address, city, state FROM hin_manufacturers ORDER BY mic`)
}

package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/vds-dev/vds/internal/store"
)

// PutNHTSAFiles stores files, each replacing the one of its name, all or nothing.
func (s *DB) PutNHTSAFiles(ctx context.Context, files []store.NHTSAFile, data [][]byte) ([]store.NHTSAFile, error) {
	if len(files) != len(data) {
		return nil, errors.New("store NHTSA files: one data per file")
	}
	out := make([]store.NHTSAFile, len(files))
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for i, f := range files {
			rows, err := json.Marshal(f.Rows)
			if err != nil {
				return err
			}
			f.ImportedAt = f.ImportedAt.UTC()
			if _, err := tx.ExecContext(ctx, `DELETE FROM nhtsa_files WHERE name = $1`, f.Name); err != nil {
				return fmt.Errorf("replace NHTSA file %s: %w", f.Name, err)
			}
			err = tx.QueryRowContext(ctx, `INSERT INTO nhtsa_files (name, kind, file_date, data_date, sha256, row_counts, imported_at, data)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
				f.Name, f.Kind, f.FileDate, f.DataDate, f.SHA256, string(rows), f.ImportedAt, data[i]).Scan(&f.ID)
			if err != nil {
				return fmt.Errorf("store NHTSA file %s: %w", f.Name, err)
			}
			out[i] = f
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *DB) NHTSAFiles(ctx context.Context) ([]store.NHTSAFile, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, kind, file_date, data_date, sha256, row_counts, imported_at
		FROM nhtsa_files ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("read NHTSA files: %w", err)
	}
	defer rows.Close()
	var out []store.NHTSAFile
	for rows.Next() {
		var f store.NHTSAFile
		var counts string
		if err := rows.Scan(&f.ID, &f.Name, &f.Kind, &f.FileDate, &f.DataDate, &f.SHA256, &counts, &f.ImportedAt); err != nil {
			return nil, fmt.Errorf("read NHTSA files: %w", err)
		}
		if err := json.Unmarshal([]byte(counts), &f.Rows); err != nil {
			return nil, fmt.Errorf("read NHTSA file %s: %w", f.Name, err)
		}
		f.ImportedAt = f.ImportedAt.UTC()
		out = append(out, f)
	}
	return out, rows.Err()
}

func (s *DB) NHTSAFileData(ctx context.Context, id int64) ([]byte, error) {
	return s.blob(ctx, `SELECT data FROM nhtsa_files WHERE id = $1`, id, "NHTSA file")
}

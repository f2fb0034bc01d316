package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/vds-dev/vds/internal/store"
)

// PutNHTSAFiles stores files, each replacing the one of its name (its
// complaints go with it), all or nothing.
func (s *DB) PutNHTSAFiles(ctx context.Context, files []store.NHTSAFilePut) ([]store.NHTSAFile, error) {
	out := make([]store.NHTSAFile, len(files))
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for i, p := range files {
			f, err := s.putNHTSAFile(ctx, tx, p)
			if err != nil {
				return err
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

// complaintsIndex is migration 00019's index, built again after a load.
const complaintsIndex = `CREATE INDEX nhtsa_complaints_vehicle ON nhtsa_complaints (vehicle)`

var complaintCols = []string{"file_id", "vehicle", "odi", "component", "crash", "fire", "injuries", "deaths", "incident_date", "received_date", "summary"}

func (s *DB) putNHTSAFile(ctx context.Context, tx *sql.Tx, p store.NHTSAFilePut) (store.NHTSAFile, error) {
	f := p.File
	rows, err := json.Marshal(f.Rows)
	if err != nil {
		return f, err
	}
	f.ImportedAt = f.ImportedAt.UTC()
	if _, err := tx.ExecContext(ctx, `DELETE FROM nhtsa_files WHERE name = $1`, f.Name); err != nil {
		return f, fmt.Errorf("replace NHTSA file %s: %w", f.Name, err)
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO nhtsa_files (name, kind, file_date, data_date, sha256, row_counts, imported_at, data)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		f.Name, f.Kind, f.FileDate, f.DataDate, f.SHA256, string(rows), f.ImportedAt, append([]byte{}, p.Data...)).Scan(&f.ID) // a complaint file has no data: not NULL
	if err != nil || p.Complaints == nil {
		return f, wrapErr("store NHTSA file "+f.Name, err)
	}
	put := func(batch []store.NHTSAComplaint) error {
		row := func(i int) []any {
			c := batch[i]
			return []any{f.ID, c.Vehicle, c.ODI, c.Component, c.Crash, c.Fire, c.Injuries, c.Deaths, c.IncidentDate, c.ReceivedDate, c.Summary}
		}
		if s.d.RowAtATime {
			return insertRowAtATime(ctx, tx, "nhtsa_complaints", complaintCols, len(batch), row, nil)
		}
		args := make([][]any, len(batch))
		for i := range batch {
			args[i] = row(i)
		}
		return insertRows(ctx, tx, "nhtsa_complaints", complaintCols, args, nil)
	}
	if s.d.IndexAfterLoad {
		if _, err := tx.ExecContext(ctx, `DROP INDEX nhtsa_complaints_vehicle`); err != nil {
			return f, fmt.Errorf("store NHTSA file %s: %w", f.Name, err)
		}
	}
	read, err := p.Complaints(put)
	if err != nil {
		return f, err
	}
	if s.d.IndexAfterLoad {
		if _, err := tx.ExecContext(ctx, complaintsIndex); err != nil {
			return f, fmt.Errorf("store NHTSA file %s: %w", f.Name, err)
		}
	}
	if rows, err = json.Marshal(read.Rows); err != nil {
		return f, err
	}
	f.Rows, f.DataDate = read.Rows, read.DataDate
	_, err = tx.ExecContext(ctx, `UPDATE nhtsa_files SET row_counts = $1, data_date = $2 WHERE id = $3`, string(rows), f.DataDate, f.ID)
	return f, wrapErr("store NHTSA file "+f.Name, err)
}

func wrapErr(what string, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
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

func (s *DB) NHTSAComplaints(ctx context.Context, vehicle string) ([]store.NHTSAComplaint, error) {
	return queryAll(ctx, s.db, "read NHTSA complaints", func(r rowScanner) (store.NHTSAComplaint, error) {
		c := store.NHTSAComplaint{Vehicle: vehicle}
		err := r.Scan(&c.ODI, &c.Component, &c.Crash, &c.Fire, &c.Injuries, &c.Deaths, &c.IncidentDate, &c.ReceivedDate, &c.Summary)
		return c, err
	}, `SELECT odi, component, crash, fire, injuries, deaths, incident_date, received_date, summary
		FROM nhtsa_complaints WHERE vehicle = $1`, vehicle)
}

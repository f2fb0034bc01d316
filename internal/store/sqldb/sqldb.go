// Package sqldb implements the store interfaces on database/sql once for
// SQLite and PostgreSQL; a Dialect holds what differs.
package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/vds-dev/vds/internal/store"
)

// Dialect is what differs between the two SQL backends.
type Dialect struct {
	Name       string
	Goose      goose.Dialect
	Migrations fs.FS
	// Locker, when set, serialises migrations of replicas starting together.
	Locker lock.SessionLocker
	// LockCatalog runs first in a catalog write transaction, so two ingests
	// cannot publish the same version; empty when the transaction already
	// serialises writers (SQLite BEGIN IMMEDIATE).
	LockCatalog string
	// ForUpdate locks a selected row until the transaction ends; empty when
	// transactions already exclude each other.
	ForUpdate string
	// SkipLocked ends a subquery choosing rows to claim, so that claimers
	// pass over each other's; empty when transactions exclude each other.
	SkipLocked string
	IsConflict func(error) bool
	// RowAtATime inserts with a prepared single-row statement: SQLite runs
	// in-process and spends most of a multi-row INSERT parsing it.
	RowAtATime bool
	// IndexAfterLoad drops an index before a bulk load and builds it again
	// after, in the load's transaction: SQLite's readers keep their snapshot
	// meanwhile, where PostgreSQL's would wait on the dropped index's lock.
	IndexAfterLoad bool
	// CopyFrom, when set, bulk-loads catalog records on the transaction's
	// driver connection (PostgreSQL's COPY); it returns the rows written.
	CopyFrom func(ctx context.Context, driverConn any, table string, cols []string, n int, row func(int) []any) (int64, error)
	// TryWatchLock answers whether this session now holds the recall watch's
	// lock, WatchUnlock gives it back; empty when one process owns the database.
	TryWatchLock, WatchUnlock string
	// Check, when set, checks the database is still the one opened.
	Check func() error
	// ReadIsolation keeps a read transaction's statements on one snapshot
	// (PostgreSQL's default, read committed, takes one per statement).
	ReadIsolation sql.IsolationLevel
}

// DB is a store.Store on a database/sql handle.
type DB struct {
	db *sql.DB
	d  Dialect
	// loadParts says on how many connections a load reads its cars.
	loadParts func(cars int) int
}

var _ store.Store = (*DB)(nil)

// New wraps an open handle; Close closes db.
func New(db *sql.DB, d Dialect) *DB { return &DB{db: db, d: d, loadParts: carParts} }

func (s *DB) Backend() string { return s.d.Name }

// Check implements store.Store: the dialect's check, then a query.
func (s *DB) Check(ctx context.Context) error {
	if s.d.Check != nil {
		if err := s.d.Check(); err != nil {
			return err
		}
	}
	_, err := s.CatalogVersion(ctx)
	return err
}

func (s *DB) Close() error { return s.db.Close() }

// Stats reports the connection pool, for the metrics.
func (s *DB) Stats() sql.DBStats { return s.db.Stats() }

// Migrate applies pending migrations.
func (s *DB) Migrate(ctx context.Context) error {
	opts := []goose.ProviderOption{goose.WithDisableGlobalRegistry(true), goose.WithSlog(slog.New(slog.DiscardHandler))}
	if s.d.Locker != nil {
		opts = append(opts, goose.WithSessionLocker(s.d.Locker))
	}
	p, err := goose.NewProvider(s.d.Goose, s.db, s.d.Migrations, opts...)
	if err != nil {
		return fmt.Errorf("prepare migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate %s database: %w", s.d.Name, err)
	}
	return nil
}

// inConnTx is inTx on a connection of its own, which fn may also use
// outside database/sql (Conn.Raw) within the transaction.
func (s *DB) inConnTx(ctx context.Context, fn func(conn *sql.Conn, tx *sql.Tx) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := fn(conn, tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func (s *DB) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func (s *DB) mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return store.ErrNotFound
	case s.d.IsConflict != nil && s.d.IsConflict(err):
		return fmt.Errorf("%w: %v", store.ErrConflict, err)
	}
	return err
}

type rowScanner interface{ Scan(dest ...any) error }

// queryAll scans every row of query; what prefixes the errors.
func queryAll[T any](ctx context.Context, q queryer, what string, scan func(rowScanner) (T, error), query string, args ...any) ([]T, error) {
	return appendAll(ctx, q, what, scan, nil, query, args...)
}

// appendAll is queryAll appending to out: sized to the rows expected, a
// million cars are not copied a dozen times over as the slice grows.
func appendAll[T any](ctx context.Context, q queryer, what string, scan func(rowScanner) (T, error), out []T, query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		r, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// expectOne returns ErrNotFound when an UPDATE or DELETE touched no row.
func expectOne(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrNotFound
	}
	return nil
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// insertRowAtATime inserts n rows, building each with row when it is sent.
func insertRowAtATime(ctx context.Context, tx *sql.Tx, table string, cols []string, n int, row func(int) []any, done func(int)) error {
	if n == 0 {
		return nil
	}
	ph := make([]string, len(cols))
	for i := range ph {
		ph[i] = fmt.Sprintf("$%d", i+1)
	}
	stmt, err := tx.PrepareContext(ctx, fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(cols, ", "), strings.Join(ph, ", ")))
	if err != nil {
		return fmt.Errorf("prepare insert into %s: %w", table, err)
	}
	defer stmt.Close()
	for i := range n {
		if _, err := stmt.ExecContext(ctx, row(i)...); err != nil {
			return fmt.Errorf("insert into %s: %w", table, err)
		}
		if done != nil {
			done(1)
		}
	}
	return nil
}

// writePlaceholders writes rows tuples of cols parameters: ? each when
// anonymous, else $1, $2, ... in order.
func writePlaceholders(b *strings.Builder, rows, cols int, anonymous bool) {
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		for j := range cols {
			if j > 0 {
				b.WriteByte(',')
			}
			if anonymous {
				b.WriteByte('?')
			} else {
				b.WriteByte('$')
				b.WriteString(strconv.Itoa(cols*i + j + 1))
			}
		}
		b.WriteByte(')')
	}
}

// maxParams keeps multi-row INSERTs under both backends' bind limits.
const maxParams = 8000

func insertRows(ctx context.Context, tx execer, table string, cols []string, rows [][]any, done func(int)) error {
	return insertRowsWith(ctx, tx, table, cols, rows, done, false)
}

// insertRowsWith is insertRows with anonymous ? parameters when asked:
// SQLite looks each $N up by name, which over thousands of them costs more
// than the insert (2 s for the 16,216 MICs, against 0.1 s).
func insertRowsWith(ctx context.Context, tx execer, table string, cols []string, rows [][]any, done func(int), anonymous bool) error {
	per := max(1, maxParams/len(cols))
	for start := 0; start < len(rows); start += per {
		batch := rows[start:min(start+per, len(rows))]
		var b strings.Builder
		fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES ", table, strings.Join(cols, ", "))
		writePlaceholders(&b, len(batch), len(cols), anonymous)
		args := make([]any, 0, len(batch)*len(cols))
		for _, r := range batch {
			args = append(args, r...)
		}
		if _, err := tx.ExecContext(ctx, b.String(), args...); err != nil {
			return fmt.Errorf("insert into %s: %w", table, err)
		}
		if done != nil {
			done(len(batch))
		}
	}
	return nil
}

package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/requestlog"
)

// AddRequests writes a batch of the request log in one transaction, then
// drops each account's lines past the newest keep. A line that is not
// plain text fails the batch on both backends, as a NUL does on PostgreSQL.
func (s *DB) AddRequests(ctx context.Context, entries []requestlog.Entry, calls map[requestlog.TokenPeriod]int64, keep int) error {
	if len(entries) == 0 && len(calls) == 0 {
		return nil
	}
	for i, e := range entries {
		if err := e.Check(); err != nil {
			return fmt.Errorf("add request log: line %d of %d: %w", i+1, len(entries), err)
		}
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		// A request may end after its account was deleted: its line goes too.
		accounts := map[string]bool{}
		for _, e := range entries {
			if _, seen := accounts[e.AccountID]; seen {
				continue
			}
			var exists bool
			err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1)`, e.AccountID).Scan(&exists)
			if err != nil {
				return fmt.Errorf("add request log: %w", err)
			}
			accounts[e.AccountID] = exists
		}
		rows := make([]requestlog.Entry, 0, len(entries))
		for _, e := range entries {
			if accounts[e.AccountID] {
				rows = append(rows, e)
			}
		}
		for chunk := range slices.Chunk(rows, requestRowsPerInsert) {
			if err := s.insertRequests(ctx, tx, chunk); err != nil {
				return err
			}
		}
		for id, exists := range accounts {
			if !exists {
				continue
			}
			_, err := tx.ExecContext(ctx, `DELETE FROM request_log WHERE account_id = $1 AND id <=
				(SELECT id FROM request_log WHERE account_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`, id, keep)
			if err != nil {
				return fmt.Errorf("prune request log: %w", err)
			}
		}
		for k, n := range calls {
			_, err := tx.ExecContext(ctx, `INSERT INTO token_calls (token_id, period, calls)
				SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM tokens WHERE id = $1)
				ON CONFLICT (token_id, period) DO UPDATE SET calls = token_calls.calls + excluded.calls`, k.TokenID, k.Period, n)
			if err != nil {
				return fmt.Errorf("count token calls: %w", err)
			}
		}
		return nil
	})
}

// requestRowsPerInsert is how many lines one INSERT writes: requestCols
// parameters each, well inside SQLite's and PostgreSQL's limits.
const (
	requestRowsPerInsert = 200
	requestCols          = 11
)

// insertRequests writes lines with multi-row INSERTs. SQLite gets
// anonymous ? parameters: looking up 2,200 $N by name costs more than the
// insert.
func (s *DB) insertRequests(ctx context.Context, tx *sql.Tx, rows []requestlog.Entry) error {
	anonymous := s.d.Name == "sqlite"
	var q strings.Builder
	q.WriteString(`INSERT INTO request_log (account_id, token_id, at, channel, operation, status, duration_us, request_id,
		query, code, detail) VALUES `)
	writePlaceholders(&q, len(rows), requestCols, anonymous)
	args := make([]any, 0, requestCols*len(rows))
	for _, e := range rows {
		args = append(args, e.AccountID, e.TokenID, e.At.UTC(), e.Channel, e.Operation, e.Status, e.Duration.Microseconds(), e.RequestID,
			e.Query, e.Code, e.Detail)
	}
	if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
		return fmt.Errorf("add request log: %w", err)
	}
	return nil
}

// Requests returns a page of an account's request log, newest first.
func (s *DB) Requests(ctx context.Context, accountID string, f requestlog.Filter) ([]requestlog.Entry, int, error) {
	where := ` WHERE r.account_id = $1`
	args := []any{accountID}
	if f.StatusMin > 0 {
		args = append(args, f.StatusMin, f.StatusMax)
		where += ` AND r.status BETWEEN $` + strconv.Itoa(len(args)-1) + ` AND $` + strconv.Itoa(len(args))
	}
	if f.RequestID != "" {
		args = append(args, f.RequestID)
		where += ` AND r.request_id = $` + strconv.Itoa(len(args))
	}
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM request_log r`+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count request log: %w", err)
	}
	n := len(args)
	args = append(args, f.Limit, f.Offset)
	out, err := queryAll(ctx, s.db, "read request log", func(r rowScanner) (requestlog.Entry, error) {
		var e requestlog.Entry
		var us int64
		var prefix sql.NullString
		err := r.Scan(&e.AccountID, &e.TokenID, &prefix, &e.At, &e.Channel, &e.Operation, &e.Status, &us, &e.RequestID,
			&e.Query, &e.Code, &e.Detail)
		e.TokenPrefix, e.Duration = prefix.String, time.Duration(us)*time.Microsecond
		return e, err
	}, `SELECT r.account_id, r.token_id, t.prefix, r.at, r.channel, r.operation, r.status, r.duration_us, r.request_id,
		r.query, r.code, r.detail FROM request_log r LEFT JOIN tokens t ON t.id = r.token_id`+where+
		` ORDER BY r.id DESC LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2), args...)
	return out, total, err
}

func (s *DB) TokenCalls(ctx context.Context, accountID, period string) (map[string]int64, error) {
	type row struct {
		id    string
		calls int64
	}
	rows, err := queryAll(ctx, s.db, "read token calls", func(r rowScanner) (row, error) {
		var x row
		return x, r.Scan(&x.id, &x.calls)
	}, `SELECT c.token_id, c.calls FROM token_calls c JOIN tokens t ON t.id = c.token_id
		WHERE t.account_id = $1 AND c.period = $2`, accountID, period)
	out := make(map[string]int64, len(rows))
	for _, x := range rows {
		out[x.id] = x.calls
	}
	return out, err
}

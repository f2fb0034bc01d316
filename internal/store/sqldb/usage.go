package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/vds-dev/vds/internal/store"
)

// AddUsage adds a batch of charged calls. The calls of an account deleted
// since they were made are dropped: there is nothing left to charge.
func (s *DB) AddUsage(ctx context.Context, d store.UsageDelta) (int64, error) {
	var used int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM accounts WHERE id = $1`, d.AccountID).Scan(&id)
		if err == sql.ErrNoRows {
			return nil
		}
		if err != nil {
			return fmt.Errorf("add usage: %w", err)
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO usage_monthly (account_id, period, used) VALUES ($1, $2, $3)
			ON CONFLICT (account_id, period) DO UPDATE SET used = usage_monthly.used + excluded.used
			RETURNING used`, d.AccountID, d.Period, d.Calls).Scan(&used)
		if err != nil {
			return fmt.Errorf("add monthly usage: %w", err)
		}
		for k, n := range d.Days {
			_, err := tx.ExecContext(ctx, `INSERT INTO usage_daily (account_id, day, channel, calls) VALUES ($1, $2, $3, $4)
				ON CONFLICT (account_id, day, channel) DO UPDATE SET calls = usage_daily.calls + excluded.calls`,
				d.AccountID, k.Day, k.Channel, n)
			if err != nil {
				return fmt.Errorf("add daily usage: %w", err)
			}
		}
		return nil
	})
	return used, err
}

// LeaseUsage grants up to want units in one transaction, the row locked so
// concurrent leases see each other's grants.
func (s *DB) LeaseUsage(ctx context.Context, accountID, period string, want, quota int64) (int64, int64, error) {
	var granted, used int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO usage_monthly (account_id, period, used) VALUES ($1, $2, 0)
			ON CONFLICT (account_id, period) DO NOTHING`, accountID, period); err != nil {
			return fmt.Errorf("lease usage: %w", err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT used FROM usage_monthly WHERE account_id = $1 AND period = $2`+s.d.ForUpdate,
			accountID, period).Scan(&used); err != nil {
			return fmt.Errorf("lease usage: %w", err)
		}
		granted = max(0, min(want, quota-used))
		if granted == 0 {
			return nil
		}
		used += granted
		if _, err := tx.ExecContext(ctx, `UPDATE usage_monthly SET used = $3 WHERE account_id = $1 AND period = $2`,
			accountID, period, used); err != nil {
			return fmt.Errorf("lease usage: %w", err)
		}
		return nil
	})
	return granted, used, err
}

func (s *DB) Usage(ctx context.Context, accountID, period string) (int64, error) {
	var used int64
	err := s.db.QueryRowContext(ctx, `SELECT used FROM usage_monthly WHERE account_id = $1 AND period = $2`, accountID, period).Scan(&used)
	if err == sql.ErrNoRows {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read usage: %w", err)
	}
	return used, nil
}

// DailyUsage returns daily counters, oldest first.
func (s *DB) DailyUsage(ctx context.Context, accountID, fromDay, toDay string) ([]store.DailyUsage, error) {
	return queryAll(ctx, s.db, "read daily usage", func(r rowScanner) (store.DailyUsage, error) {
		var u store.DailyUsage
		err := r.Scan(&u.Day, &u.Channel, &u.Calls)
		return u, err
	}, `SELECT day, channel, calls FROM usage_daily
		WHERE account_id = $1 AND day >= $2 AND day <= $3 ORDER BY day, channel`, accountID, fromDay, toDay)
}

// TouchTokens updates last_used_at, never moving it backwards.
func (s *DB) TouchTokens(ctx context.Context, used map[string]time.Time) error {
	if len(used) == 0 {
		return nil
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		for id, at := range used {
			_, err := tx.ExecContext(ctx, `UPDATE tokens SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)`, id, at.UTC())
			if err != nil {
				return fmt.Errorf("touch token %s: %w", id, err)
			}
		}
		return nil
	})
}

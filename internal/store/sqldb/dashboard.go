package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
)

func (s *DB) SetPassword(ctx context.Context, accountID, hash string) error {
	if err := expectOne(s.db.ExecContext(ctx, `UPDATE accounts SET password_hash = $2 WHERE id = $1`, accountID, hash)); err != nil {
		return fmt.Errorf("set password of %s: %w", accountID, err)
	}
	return nil
}

// PasswordHash returns the account with that email and its password hash.
func (s *DB) PasswordHash(ctx context.Context, email string) (account.Account, string, error) {
	var a account.Account
	var hash sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT `+accountCols+`, password_hash FROM accounts WHERE email = $1`, email).
		Scan(&a.ID, &a.Email, &a.Plan, &a.Suspended, &a.CreatedAt, &hash)
	if err != nil {
		return account.Account{}, "", s.mapErr(err)
	}
	if !hash.Valid || hash.String == "" {
		return account.Account{}, "", store.ErrNotFound
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return a, hash.String, nil
}

func (s *DB) CreateSession(ctx context.Context, ss account.Session) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO sessions (id_hash, account_id, csrf, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		ss.IDHash, ss.AccountID, ss.CSRF, ss.CreatedAt.UTC(), ss.ExpiresAt.UTC())
	if err != nil {
		return fmt.Errorf("create session: %w", s.mapErr(err))
	}
	return nil
}

func (s *DB) SessionByHash(ctx context.Context, hash string) (account.Session, error) {
	var ss account.Session
	err := s.db.QueryRowContext(ctx, `SELECT id_hash, account_id, csrf, created_at, expires_at FROM sessions WHERE id_hash = $1`, hash).
		Scan(&ss.IDHash, &ss.AccountID, &ss.CSRF, &ss.CreatedAt, &ss.ExpiresAt)
	if err != nil {
		return account.Session{}, s.mapErr(err)
	}
	// As for tokens: the index found the row, a constant-time comparison
	// makes the decision.
	if !account.SameHash(ss.IDHash, hash) {
		return account.Session{}, store.ErrNotFound
	}
	ss.CreatedAt, ss.ExpiresAt = ss.CreatedAt.UTC(), ss.ExpiresAt.UTC()
	return ss, nil
}

func (s *DB) DeleteSession(ctx context.Context, hash string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM sessions WHERE id_hash = $1`, hash); err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

func (s *DB) DeleteAccountSessions(ctx context.Context, accountID string) (int64, error) {
	return rowsAffected(s.db.ExecContext(ctx, `DELETE FROM sessions WHERE account_id = $1`, accountID))
}

func (s *DB) PutFlash(ctx context.Context, sessionHash string, body []byte) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO session_flashes (session_hash, body) VALUES ($1, $2)
		ON CONFLICT (session_hash) DO UPDATE SET body = excluded.body`, sessionHash, body)
	if err != nil {
		return fmt.Errorf("store flash: %w", s.mapErr(err))
	}
	return nil
}

// TakeFlash returns and deletes the session's message in one statement,
// so two loads of a page cannot both read it.
func (s *DB) TakeFlash(ctx context.Context, sessionHash string) ([]byte, error) {
	var body []byte
	err := s.db.QueryRowContext(ctx, `DELETE FROM session_flashes WHERE session_hash = $1 RETURNING body`, sessionHash).Scan(&body)
	if err != nil {
		return nil, s.mapErr(err)
	}
	return body, nil
}

// DeleteExpiredSessions removes the sessions that expired at or before now.
func (s *DB) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	return rowsAffected(s.db.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= $1`, now.UTC()))
}

func rowsAffected(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// RecordFailedSignIn counts a failure in one atomic upsert.
func (s *DB) RecordFailedSignIn(ctx context.Context, key string, at time.Time, window time.Duration) (int, error) {
	at = at.UTC()
	var n int
	err := s.db.QueryRowContext(ctx, `INSERT INTO signin_attempts (key, failures, last_at) VALUES ($1, 1, $2)
		ON CONFLICT (key) DO UPDATE SET
			failures = CASE WHEN signin_attempts.last_at < $3 THEN 1 ELSE signin_attempts.failures + 1 END,
			last_at = excluded.last_at
		RETURNING failures`, key, at, at.Add(-window)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("record failed sign-in: %w", err)
	}
	return n, nil
}

func (s *DB) FailedSignIns(ctx context.Context, key string, since time.Time) (int, time.Time, error) {
	var n int
	var last time.Time
	err := s.db.QueryRowContext(ctx, `SELECT failures, last_at FROM signin_attempts WHERE key = $1`, key).Scan(&n, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, time.Time{}, nil
	}
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("read failed sign-ins: %w", err)
	}
	last = last.UTC()
	if last.Before(since.UTC()) {
		return 0, last, nil
	}
	return n, last, nil
}

func (s *DB) ClearFailedSignIns(ctx context.Context, key string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM signin_attempts WHERE key = $1`, key); err != nil {
		return fmt.Errorf("clear failed sign-ins: %w", err)
	}
	return nil
}

// DeleteStaleSignIns forgets counts whose last failure is before before.
func (s *DB) DeleteStaleSignIns(ctx context.Context, before time.Time) (int64, error) {
	return rowsAffected(s.db.ExecContext(ctx, `DELETE FROM signin_attempts WHERE last_at < $1`, before.UTC()))
}

const listCols = `id, account_id, name, is_default, created_at`

func (s *DB) ListByID(ctx context.Context, accountID, listID string) (account.List, error) {
	var l account.List
	err := s.db.QueryRowContext(ctx, `SELECT `+listCols+` FROM lists WHERE id = $1 AND account_id = $2`, listID, accountID).
		Scan(&l.ID, &l.AccountID, &l.Name, &l.IsDefault, &l.CreatedAt)
	if err != nil {
		return account.List{}, s.mapErr(err)
	}
	l.CreatedAt = l.CreatedAt.UTC()
	return l, nil
}

// CreateList stores a new non-default list unless the account has limit lists.
func (s *DB) CreateList(ctx context.Context, l account.List, limit int) error {
	err := s.insertCapped(ctx, l.AccountID, limit, `SELECT count(*) FROM lists WHERE account_id = $1`, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO lists (`+listCols+`) VALUES ($1, $2, $3, $4, $5)`,
			l.ID, l.AccountID, l.Name, false, l.CreatedAt.UTC())
		return err
	})
	if err != nil {
		err = s.mapErr(err)
		if errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("a list named %q already exists: %w", l.Name, store.ErrConflict)
		}
		return fmt.Errorf("create list: %w", err)
	}
	return nil
}

// DeleteList deletes a non-default list of the account, with its items.
func (s *DB) DeleteList(ctx context.Context, accountID, listID string) error {
	err := expectOne(s.db.ExecContext(ctx, `DELETE FROM lists WHERE id = $1 AND account_id = $2 AND NOT is_default`, listID, accountID))
	if err != nil {
		return fmt.Errorf("delete list %s: %w", listID, err)
	}
	return nil
}

package sqldb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
)

const accountCols = `id, email, plan, suspended, created_at`

func scanAccount(row rowScanner) (account.Account, error) {
	var a account.Account
	err := row.Scan(&a.ID, &a.Email, &a.Plan, &a.Suspended, &a.CreatedAt)
	a.CreatedAt = a.CreatedAt.UTC()
	return a, err
}

// CreateAccount stores the account and its default list in one transaction.
func (s *DB) CreateAccount(ctx context.Context, a account.Account) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO accounts (`+accountCols+`) VALUES ($1, $2, $3, $4, $5)`,
			a.ID, a.Email, a.Plan, a.Suspended, a.CreatedAt.UTC())
		if err != nil {
			return fmt.Errorf("create account %s: %w", a.Email, s.mapErr(err))
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO lists (id, account_id, name, is_default, created_at) VALUES ($1, $2, $3, $4, $5)`,
			account.NewID("lst"), a.ID, account.DefaultListName, true, a.CreatedAt.UTC())
		if err != nil {
			return fmt.Errorf("create default list: %w", s.mapErr(err))
		}
		return nil
	})
}

func (s *DB) AccountByID(ctx context.Context, id string) (account.Account, error) {
	a, err := scanAccount(s.db.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts WHERE id = $1`, id))
	return a, s.mapErr(err)
}

// AccountByEmail returns the account with that (normalised) email.
func (s *DB) AccountByEmail(ctx context.Context, email string) (account.Account, error) {
	a, err := scanAccount(s.db.QueryRowContext(ctx, `SELECT `+accountCols+` FROM accounts WHERE email = $1`, email))
	return a, s.mapErr(err)
}

// ListAccounts returns every account, oldest first.
func (s *DB) ListAccounts(ctx context.Context) ([]account.Account, error) {
	return queryAll(ctx, s.db, "list accounts", scanAccount, `SELECT `+accountCols+` FROM accounts ORDER BY created_at, email`)
}

func (s *DB) SetPlan(ctx context.Context, accountID, plan string) error {
	return expectOne(s.db.ExecContext(ctx, `UPDATE accounts SET plan = $2 WHERE id = $1`, accountID, plan))
}

func (s *DB) SetSuspended(ctx context.Context, accountID string, suspended bool) error {
	return expectOne(s.db.ExecContext(ctx, `UPDATE accounts SET suspended = $2 WHERE id = $1`, accountID, suspended))
}

// DeleteAccount deletes the account; its tokens, lists and their items,
// sessions and usage counters go with it (ON DELETE CASCADE).
func (s *DB) DeleteAccount(ctx context.Context, accountID string) error {
	if err := expectOne(s.db.ExecContext(ctx, `DELETE FROM accounts WHERE id = $1`, accountID)); err != nil {
		return fmt.Errorf("delete account %s: %w", accountID, err)
	}
	return nil
}

const tokenCols = `id, account_id, name, prefix, hash, scopes, created_at, last_used_at, revoked_at`

func scanToken(row rowScanner) (account.Token, error) {
	var t account.Token
	var scopes string
	var lastUsed, revoked sql.NullTime
	if err := row.Scan(&t.ID, &t.AccountID, &t.Name, &t.Prefix, &t.Hash, &scopes, &t.CreatedAt, &lastUsed, &revoked); err != nil {
		return t, err
	}
	t.Scopes = strings.Fields(scopes)
	t.CreatedAt = t.CreatedAt.UTC()
	t.LastUsedAt = utcPtr(lastUsed)
	t.RevokedAt = utcPtr(revoked)
	return t, nil
}

func utcPtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}

func insertToken(ctx context.Context, e execer, t account.Token) error {
	_, err := e.ExecContext(ctx, `INSERT INTO tokens (`+tokenCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, NULL)`,
		t.ID, t.AccountID, t.Name, t.Prefix, t.Hash, strings.Join(t.Scopes, " "), t.CreatedAt.UTC())
	return err
}

// CreateToken stores a token's hash and metadata unless the account has
// limit active tokens.
func (s *DB) CreateToken(ctx context.Context, t account.Token, limit int) error {
	err := s.insertCapped(ctx, t.AccountID, limit,
		`SELECT count(*) FROM tokens WHERE account_id = $1 AND revoked_at IS NULL`,
		func(tx *sql.Tx) error { return insertToken(ctx, tx, t) })
	if err != nil {
		return fmt.Errorf("create token: %w", s.mapErr(err))
	}
	return nil
}

// insertCapped runs insert unless count already reaches limit for the
// account. The account's row is locked first, so concurrent inserts cannot
// both see room for one.
func (s *DB) insertCapped(ctx context.Context, accountID string, limit int, count string, insert func(*sql.Tx) error) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var id string
		if err := tx.QueryRowContext(ctx, `SELECT id FROM accounts WHERE id = $1`+s.d.ForUpdate, accountID).Scan(&id); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, count, accountID).Scan(&n); err != nil {
			return err
		}
		if n >= limit {
			return store.ErrLimit
		}
		return insert(tx)
	})
}

func (s *DB) TokenByID(ctx context.Context, id string) (account.Token, error) {
	t, err := scanToken(s.db.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE id = $1`, id))
	return t, s.mapErr(err)
}

// TokenByHash returns the token whose secret hashes to hash.
func (s *DB) TokenByHash(ctx context.Context, hash string) (account.Token, error) {
	t, err := scanToken(s.db.QueryRowContext(ctx, `SELECT `+tokenCols+` FROM tokens WHERE hash = $1`, hash))
	if err != nil {
		return t, s.mapErr(err)
	}
	// The lookup used an index on the hash; compare again in constant time
	// so the final decision does not leak through timing.
	if !account.SameHash(t.Hash, hash) {
		return account.Token{}, store.ErrNotFound
	}
	return t, nil
}

// Tokens lists an account's tokens, newest first.
func (s *DB) Tokens(ctx context.Context, accountID string) ([]account.Token, error) {
	return queryAll(ctx, s.db, "list tokens", scanToken,
		`SELECT `+tokenCols+` FROM tokens WHERE account_id = $1 ORDER BY created_at DESC, id`, accountID)
}

// RotateToken schedules oldID's revocation and stores next, atomically.
func (s *DB) RotateToken(ctx context.Context, oldID string, next account.Token, at time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := expectOne(tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`,
			oldID, at.UTC())); err != nil {
			return fmt.Errorf("rotate token %s: %w", oldID, err)
		}
		if err := insertToken(ctx, tx, next); err != nil {
			return fmt.Errorf("rotate token %s: %w", oldID, s.mapErr(err))
		}
		return nil
	})
}

// RevokeToken revokes a token valid at at, ending a grace period early.
func (s *DB) RevokeToken(ctx context.Context, id string, at time.Time) error {
	if err := expectOne(s.db.ExecContext(ctx, `UPDATE tokens SET revoked_at = $2 WHERE id = $1 AND (revoked_at IS NULL OR revoked_at > $2)`,
		id, at.UTC())); err != nil {
		return fmt.Errorf("revoke token %s: %w", id, err)
	}
	return nil
}

func (s *DB) Lists(ctx context.Context, accountID string) ([]account.List, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, is_default, created_at FROM lists
		WHERE account_id = $1 ORDER BY is_default DESC, created_at, name`, accountID)
	if err != nil {
		return nil, fmt.Errorf("read lists: %w", err)
	}
	var lists []account.List
	index := map[string]int{}
	for rows.Next() {
		l := account.List{AccountID: accountID, Items: []account.ListItem{}}
		if err := rows.Scan(&l.ID, &l.Name, &l.IsDefault, &l.CreatedAt); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read lists: %w", err)
		}
		l.CreatedAt = l.CreatedAt.UTC()
		index[l.ID] = len(lists)
		lists = append(lists, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read lists: %w", err)
	}
	items, err := s.db.QueryContext(ctx, `SELECT i.list_id, i.record_type, i.record_uuid, i.note, i.added_at, i.vin, i.vin_decode, i.recalls_checked_at
		FROM list_items i JOIN lists l ON l.id = i.list_id WHERE l.account_id = $1 ORDER BY i.added_at, i.record_uuid`, accountID)
	if err != nil {
		return nil, fmt.Errorf("read list items: %w", err)
	}
	defer items.Close()
	for items.Next() {
		var listID string
		it, err := scanListItem(items, &listID)
		if err != nil {
			return nil, fmt.Errorf("read list items: %w", err)
		}
		l := &lists[index[listID]]
		l.Items = append(l.Items, it)
	}
	return lists, items.Err()
}

// scanListItem scans list_id, record_type, record_uuid, note, added_at,
// vin, vin_decode and recalls_checked_at, then any extra columns.
func scanListItem(r rowScanner, listID *string, extra ...any) (account.ListItem, error) {
	var kind, id, vin, decode string
	var checked sql.NullTime
	var it account.ListItem
	if err := r.Scan(append([]any{listID, &kind, &id, &it.Note, &it.AddedAt, &vin, &decode, &checked}, extra...)...); err != nil {
		return it, err
	}
	it.Kind = catalog.Kind(kind)
	var err error
	if it.UUID, err = uuid.Parse(id); err != nil {
		return it, err
	}
	it.AddedAt = it.AddedAt.UTC()
	if checked.Valid {
		at := checked.Time.UTC()
		it.RecallsCheckedAt = &at
	}
	if vin != "" {
		it.VIN = &vin
		it.Decode = new(account.VINDecode)
		if err := json.Unmarshal([]byte(decode), it.Decode); err != nil {
			return it, fmt.Errorf("VIN %s: %w", vin, err)
		}
	}
	return it, nil
}

// DefaultList returns the account's default list, without items.
func (s *DB) DefaultList(ctx context.Context, accountID string) (account.List, error) {
	l := account.List{AccountID: accountID}
	err := s.db.QueryRowContext(ctx, `SELECT id, name, is_default, created_at FROM lists WHERE account_id = $1 AND is_default`, accountID).
		Scan(&l.ID, &l.Name, &l.IsDefault, &l.CreatedAt)
	l.CreatedAt = l.CreatedAt.UTC()
	return l, s.mapErr(err)
}

func (s *DB) AddListItem(ctx context.Context, listID string, it account.ListItem) error {
	vin, decode := "", []byte{}
	if it.VIN != nil {
		vin = *it.VIN
		var err error
		if decode, err = json.Marshal(it.Decode); err != nil {
			return fmt.Errorf("add list item: %w", err)
		}
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO list_items (list_id, record_type, record_uuid, note, added_at, vin, vin_decode) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		listID, string(it.Kind), it.UUID.String(), it.Note, it.AddedAt.UTC(), vin, string(decode))
	if err != nil {
		err = s.mapErr(err)
		if errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("%s %s is already in the list: %w", it.Kind, it.UUID, store.ErrConflict)
		}
		return fmt.Errorf("add list item: %w", err)
	}
	return nil
}

func (s *DB) RemoveListItem(ctx context.Context, listID string, kind catalog.Kind, id uuid.UUID) error {
	err := expectOne(s.db.ExecContext(ctx, `DELETE FROM list_items WHERE list_id = $1 AND record_type = $2 AND record_uuid = $3`,
		listID, string(kind), id.String()))
	if err != nil {
		return fmt.Errorf("remove %s %s from list: %w", kind, id, err)
	}
	return nil
}

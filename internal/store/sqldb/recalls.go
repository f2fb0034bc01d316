package sqldb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
)

// WatchedItems returns every car, motorcycle and VIN item, with its account.
func (s *DB) WatchedItems(ctx context.Context) ([]store.WatchedItem, error) {
	return queryAll(ctx, s.db, "read watched items", func(r rowScanner) (store.WatchedItem, error) {
		var w store.WatchedItem
		var err error
		w.Item, err = scanListItem(r, &w.ListID, &w.AccountID)
		return w, err
	}, `SELECT i.list_id, i.record_type, i.record_uuid, i.note, i.added_at, i.vin, i.vin_decode, i.recalls_checked_at, l.account_id
		FROM list_items i JOIN lists l ON l.id = i.list_id
		WHERE i.record_type IN ($1, $2, $3) ORDER BY i.added_at, i.list_id, i.record_uuid`,
		string(catalog.KindCar), string(catalog.KindMotorcycle), "vin")
}

// RecallChecks returns the last check of every vehicle checked once.
func (s *DB) RecallChecks(ctx context.Context) (map[string]time.Time, error) {
	type check struct {
		vehicle string
		at      time.Time
	}
	rows, err := queryAll(ctx, s.db, "read recall checks", func(r rowScanner) (check, error) {
		var c check
		err := r.Scan(&c.vehicle, &c.at)
		return c, err
	}, `SELECT vehicle, checked_at FROM recall_checks WHERE checked_at IS NOT NULL`)
	out := make(map[string]time.Time, len(rows))
	for _, c := range rows {
		out[c.vehicle] = c.at.UTC()
	}
	return out, err
}

// ClaimRecallCheck is one atomic upsert: the claim holds only when the
// vehicle is due and unclaimed, so replicas never ask about it twice.
func (s *DB) ClaimRecallCheck(ctx context.Context, vehicle string, dueBefore, now, leaseUntil time.Time) (bool, error) {
	n, err := rowsAffected(s.db.ExecContext(ctx, `INSERT INTO recall_checks (vehicle, claimed_until) VALUES ($1, $2)
		ON CONFLICT (vehicle) DO UPDATE SET claimed_until = excluded.claimed_until
		WHERE (recall_checks.checked_at IS NULL OR recall_checks.checked_at <= $3)
			AND (recall_checks.claimed_until IS NULL OR recall_checks.claimed_until <= $4)`,
		vehicle, leaseUntil.UTC(), dueBefore.UTC(), now.UTC()))
	if err != nil {
		return false, fmt.Errorf("claim recall check of %s: %w", vehicle, err)
	}
	return n == 1, nil
}

func (s *DB) FinishRecallCheck(ctx context.Context, vehicle string, checkedAt *time.Time, retryAt time.Time) error {
	var err error
	if checkedAt != nil {
		_, err = s.db.ExecContext(ctx, `UPDATE recall_checks SET checked_at = $2, claimed_until = NULL WHERE vehicle = $1`, vehicle, checkedAt.UTC())
	} else {
		_, err = s.db.ExecContext(ctx, `UPDATE recall_checks SET claimed_until = $2 WHERE vehicle = $1`, vehicle, retryAt.UTC())
	}
	if err != nil {
		return fmt.Errorf("finish recall check of %s: %w", vehicle, err)
	}
	return nil
}

// RecordItemRecalls inserts the sightings and stamps the item's check in one
// transaction; an item checked for the first time records a baseline.
func (s *DB) RecordItemRecalls(ctx context.Context, ref store.ItemRef, campaigns map[string][]byte, now time.Time) ([]store.ItemRecall, error) {
	now = now.UTC()
	var added []store.ItemRecall
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var checked sql.NullTime
		var accountID string
		err := tx.QueryRowContext(ctx, `SELECT i.recalls_checked_at, l.account_id FROM list_items i JOIN lists l ON l.id = i.list_id
			WHERE i.list_id = $1 AND i.record_type = $2 AND i.record_uuid = $3`+s.d.ForUpdate,
			ref.ListID, string(ref.Kind), ref.UUID.String()).Scan(&checked, &accountID)
		if err != nil {
			return fmt.Errorf("record recalls of %s %s: %w", ref.Kind, ref.UUID, s.mapErr(err))
		}
		baseline := !checked.Valid
		for campaign, recall := range campaigns {
			n, err := rowsAffected(tx.ExecContext(ctx, `INSERT INTO item_recalls
				(list_id, record_type, record_uuid, campaign, recall, first_seen_at, baseline, notified, seen)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7) ON CONFLICT DO NOTHING`,
				ref.ListID, string(ref.Kind), ref.UUID.String(), campaign, string(recall), now, baseline))
			if err != nil {
				return fmt.Errorf("record recall %s: %w", campaign, err)
			}
			if n == 1 && !baseline {
				added = append(added, store.ItemRecall{AccountID: accountID, ItemRef: ref, Campaign: campaign, Recall: recall, FirstSeenAt: now})
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE list_items SET recalls_checked_at = $4 WHERE list_id = $1 AND record_type = $2 AND record_uuid = $3`,
			ref.ListID, string(ref.Kind), ref.UUID.String(), now)
		return err
	})
	return added, err
}

const itemRecallColumns = `l.account_id, r.list_id, r.record_type, r.record_uuid, r.campaign, r.recall, r.first_seen_at,
	r.baseline, r.notified, r.seen, r.dealt_with_at, r.dealt_with_note FROM item_recalls r JOIN lists l ON l.id = r.list_id`

func scanItemRecall(r rowScanner) (store.ItemRecall, error) {
	var ir store.ItemRecall
	var kind, id, recall string
	var dealt sql.NullTime
	if err := r.Scan(&ir.AccountID, &ir.ListID, &kind, &id, &ir.Campaign, &recall, &ir.FirstSeenAt,
		&ir.Baseline, &ir.Notified, &ir.Seen, &dealt, &ir.DealtWithNote); err != nil {
		return ir, err
	}
	ir.Kind, ir.Recall, ir.FirstSeenAt = catalog.Kind(kind), []byte(recall), ir.FirstSeenAt.UTC()
	if dealt.Valid {
		at := dealt.Time.UTC()
		ir.DealtWithAt = &at
	}
	var err error
	ir.UUID, err = uuid.Parse(id)
	return ir, err
}

func (s *DB) UnnotifiedRecalls(ctx context.Context) ([]store.ItemRecall, error) {
	return queryAll(ctx, s.db, "read unnotified recalls", scanItemRecall,
		`SELECT `+itemRecallColumns+` WHERE NOT r.notified ORDER BY r.first_seen_at, r.list_id, r.record_uuid, r.campaign`)
}

func (s *DB) MarkRecallNotified(ctx context.Context, ref store.ItemRef, campaign string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE item_recalls SET notified = TRUE
		WHERE list_id = $1 AND record_type = $2 AND record_uuid = $3 AND campaign = $4`,
		ref.ListID, string(ref.Kind), ref.UUID.String(), campaign)
	if err != nil {
		return fmt.Errorf("mark recall %s notified: %w", campaign, err)
	}
	return nil
}

func (s *DB) ItemRecalls(ctx context.Context, accountID string) ([]store.ItemRecall, error) {
	return queryAll(ctx, s.db, "read item recalls", scanItemRecall,
		`SELECT `+itemRecallColumns+` WHERE l.account_id = $1 ORDER BY r.first_seen_at, r.campaign`, accountID)
}

func (s *DB) SetRecallDealtWith(ctx context.Context, accountID string, ref store.ItemRef, campaign string, at *time.Time, note string) error {
	var when any
	if at != nil {
		when = at.UTC()
	}
	err := expectOne(s.db.ExecContext(ctx, `UPDATE item_recalls SET dealt_with_at = $5, dealt_with_note = $6, seen = TRUE
		WHERE list_id = $1 AND record_type = $2 AND record_uuid = $3 AND campaign = $4
			AND list_id IN (SELECT id FROM lists WHERE account_id = $7)`,
		ref.ListID, string(ref.Kind), ref.UUID.String(), campaign, when, note, accountID))
	if err != nil {
		return fmt.Errorf("recall %s of %s %s: %w", campaign, ref.Kind, ref.UUID, err)
	}
	return nil
}

func (s *DB) MarkRecallsSeen(ctx context.Context, accountID string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE item_recalls SET seen = TRUE
		WHERE NOT seen AND list_id IN (SELECT id FROM lists WHERE account_id = $1)`, accountID)
	return err
}

// TryWatchLock holds the dialect's session lock on a connection of its
// own; a replica that dies drops the connection and with it the lock.
func (s *DB) TryWatchLock(ctx context.Context) (bool, func(), error) {
	if s.d.TryWatchLock == "" {
		return true, func() {}, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return false, nil, fmt.Errorf("watch lock: %w", err)
	}
	var held bool
	if err := conn.QueryRowContext(ctx, s.d.TryWatchLock).Scan(&held); err != nil || !held {
		conn.Close()
		return false, nil, err
	}
	return true, func() {
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), s.d.WatchUnlock); err != nil {
			// A session still holding the lock must not go back to the pool.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}, nil
}

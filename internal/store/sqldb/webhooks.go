package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/store"
)

const endpointCols = `id, account_id, url, events, secret, old_secret, old_until, enabled, disabled_at, failing_since, created_at`

func scanEndpoint(row rowScanner) (store.WebhookEndpoint, error) {
	var e store.WebhookEndpoint
	var events string
	var oldUntil, disabled, failing sql.NullTime
	if err := row.Scan(&e.ID, &e.AccountID, &e.URL, &events, &e.Secret, &e.OldSecret, &oldUntil, &e.Enabled, &disabled, &failing, &e.CreatedAt); err != nil {
		return e, err
	}
	e.Events = strings.Fields(events)
	e.CreatedAt = e.CreatedAt.UTC()
	e.OldUntil, e.DisabledAt, e.FailingSince = utcPtr(oldUntil), utcPtr(disabled), utcPtr(failing)
	return e, nil
}

func (s *DB) CreateWebhookEndpoint(ctx context.Context, e store.WebhookEndpoint, limit int) error {
	err := s.insertCapped(ctx, e.AccountID, limit, `SELECT count(*) FROM webhook_endpoints WHERE account_id = $1`,
		func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO webhook_endpoints (`+endpointCols+`) VALUES ($1, $2, $3, $4, $5, '', NULL, $6, NULL, NULL, $7)`,
				e.ID, e.AccountID, e.URL, strings.Join(e.Events, " "), e.Secret, e.Enabled, e.CreatedAt.UTC())
			return err
		})
	if err != nil {
		return fmt.Errorf("create webhook endpoint: %w", s.mapErr(err))
	}
	return nil
}

func (s *DB) WebhookEndpoint(ctx context.Context, id string) (store.WebhookEndpoint, error) {
	e, err := scanEndpoint(s.db.QueryRowContext(ctx, `SELECT `+endpointCols+` FROM webhook_endpoints WHERE id = $1`, id))
	if err != nil {
		return e, fmt.Errorf("webhook endpoint %s: %w", id, s.mapErr(err))
	}
	return e, nil
}

func (s *DB) WebhookEndpoints(ctx context.Context, accountID string) ([]store.WebhookEndpoint, error) {
	return queryAll(ctx, s.db, "list webhook endpoints", scanEndpoint,
		`SELECT `+endpointCols+` FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id`, accountID)
}

func (s *DB) DeleteWebhookEndpoint(ctx context.Context, id string) error {
	return s.mapErr(expectOne(s.db.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE id = $1`, id)))
}

func (s *DB) SetWebhookSecret(ctx context.Context, id, secret string, oldUntil time.Time) error {
	if oldUntil.IsZero() {
		return s.mapErr(expectOne(s.db.ExecContext(ctx,
			`UPDATE webhook_endpoints SET secret = $2, old_secret = '', old_until = NULL WHERE id = $1`, id, secret)))
	}
	// The right-hand secret is the value before the update, in both dialects.
	return s.mapErr(expectOne(s.db.ExecContext(ctx,
		`UPDATE webhook_endpoints SET old_secret = secret, old_until = $3, secret = $2 WHERE id = $1`, id, secret, oldUntil.UTC())))
}

func (s *DB) EnableWebhookEndpoint(ctx context.Context, id string) error {
	return s.mapErr(expectOne(s.db.ExecContext(ctx,
		`UPDATE webhook_endpoints SET enabled = TRUE, disabled_at = NULL, failing_since = NULL WHERE id = $1`, id)))
}

func (s *DB) AddWebhookEvent(ctx context.Context, ev store.WebhookEvent, only string) (int, error) {
	var n int
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		q, args := `SELECT id, events FROM webhook_endpoints WHERE account_id = $1 AND enabled`, []any{ev.AccountID}
		if only != "" {
			q, args = `SELECT id, events FROM webhook_endpoints WHERE account_id = $1 AND id = $2`, append(args, only)
		}
		type target struct{ id, events string }
		all, err := queryAll(ctx, tx, "find webhook endpoints", func(r rowScanner) (target, error) {
			var t target
			return t, r.Scan(&t.id, &t.events)
		}, q, args...)
		if err != nil {
			return err
		}
		var ids []string
		for _, t := range all {
			if only != "" || slices.Contains(strings.Fields(t.events), ev.Type) {
				ids = append(ids, t.id)
			}
		}
		if len(ids) == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_events (id, account_id, type, created_at, data) VALUES ($1, $2, $3, $4, $5)`,
			ev.ID, ev.AccountID, ev.Type, ev.Created.UTC(), string(ev.Data)); err != nil {
			return fmt.Errorf("store webhook event: %w", err)
		}
		rows := make([][]any, len(ids))
		for i, id := range ids {
			rows[i] = []any{ev.ID, id, "pending", ev.Created.UTC()}
		}
		n = len(ids)
		return insertRows(ctx, tx, "webhook_deliveries", []string{"event_id", "endpoint_id", "state", "next_at"}, rows, nil)
	})
	return n, s.mapErr(err)
}

func (s *DB) ClaimWebhookDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]store.WebhookDelivery, error) {
	var out []store.WebhookDelivery
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// The outer condition is checked again on the locked row, so two
		// claimers never both lease a delivery.
		type claimed struct {
			id       int64
			attempts int
		}
		got, err := queryAll(ctx, tx, "claim webhook deliveries", func(r rowScanner) (claimed, error) {
			var c claimed
			return c, r.Scan(&c.id, &c.attempts)
		}, `UPDATE webhook_deliveries SET attempts = attempts + 1, lease_until = $2
			WHERE id IN (SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
				WHERE d.state = 'pending' AND d.next_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1) AND e.enabled
				ORDER BY d.next_at LIMIT $3`+s.d.SkipLocked+`)
			AND state = 'pending' AND (lease_until IS NULL OR lease_until <= $1)
			RETURNING id, attempts`, now.UTC(), now.Add(lease).UTC(), limit)
		if err != nil || len(got) == 0 {
			return err
		}
		for _, c := range got {
			d := store.WebhookDelivery{ID: c.id, Attempt: c.attempts}
			var data string
			err := tx.QueryRowContext(ctx, `SELECT event_id, v.account_id, v.type, v.created_at, v.data
				FROM webhook_deliveries d JOIN webhook_events v ON v.id = d.event_id WHERE d.id = $1`, c.id).
				Scan(&d.Event.ID, &d.Event.AccountID, &d.Event.Type, &d.Event.Created, &data)
			if err != nil {
				return fmt.Errorf("read webhook delivery %d: %w", c.id, err)
			}
			d.Event.Created, d.Event.Data = d.Event.Created.UTC(), []byte(data)
			if d.Endpoint, err = scanEndpoint(tx.QueryRowContext(ctx, `SELECT `+endpointCols+` FROM webhook_endpoints
				WHERE id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = $1)`, c.id)); err != nil {
				return fmt.Errorf("read webhook delivery %d: %w", c.id, err)
			}
			out = append(out, d)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim webhook deliveries: %w", err)
	}
	return out, nil
}

func (s *DB) FinishWebhookAttempt(ctx context.Context, o store.WebhookOutcome) error {
	a := o.Attempt
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// The endpoint's row is locked first: taken after the foreign-key
		// checks of the inserts below, two replicas would deadlock.
		if err := s.trackFailures(ctx, tx, o); err != nil {
			return s.mapErr(err)
		}
		// A stale attempt (its lease ran out and another took over) only logs.
		upd, args := `UPDATE webhook_deliveries SET state = 'delivered', lease_until = NULL`, []any{a.DeliveryID, a.Attempt}
		switch {
		case a.OK():
		case o.Retry.IsZero():
			upd = `UPDATE webhook_deliveries SET state = 'failed', lease_until = NULL`
		default:
			upd, args = `UPDATE webhook_deliveries SET next_at = $3, lease_until = NULL`, append(args, o.Retry.UTC())
		}
		if _, err := tx.ExecContext(ctx, upd+` WHERE id = $1 AND attempts = $2 AND state = 'pending'`, args...); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_id, event_type, attempt, at, status,
			duration_us, error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, a.DeliveryID, a.EndpointID, a.EventID, a.EventType, a.Attempt,
			a.At.UTC(), a.Status, a.Duration.Microseconds(), a.Error); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM webhook_attempts WHERE endpoint_id = $1 AND id <=
			(SELECT id FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`, a.EndpointID, o.KeepLog)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil // the endpoint was deleted meanwhile
	}
	if err != nil {
		return fmt.Errorf("record webhook attempt: %w", err)
	}
	return nil
}

// trackFailures clears an endpoint's failures on a success, and turns it
// off once it has failed for o.DisableAfter without one; sql.ErrNoRows when
// the endpoint is gone.
func (s *DB) trackFailures(ctx context.Context, tx *sql.Tx, o store.WebhookOutcome) error {
	a := o.Attempt
	if a.OK() {
		err := expectOne(tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1`, a.EndpointID))
		if errors.Is(err, store.ErrNotFound) {
			return sql.ErrNoRows
		}
		return err
	}
	var since sql.NullTime
	err := tx.QueryRowContext(ctx, `SELECT failing_since FROM webhook_endpoints WHERE id = $1`+s.d.ForUpdate, a.EndpointID).Scan(&since)
	switch {
	case err != nil:
		return err
	case !since.Valid:
		_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1`, a.EndpointID, a.At.UTC())
	case a.At.Sub(since.Time) >= o.DisableAfter:
		_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET enabled = FALSE, disabled_at = $2 WHERE id = $1 AND enabled`,
			a.EndpointID, a.At.UTC())
	}
	return err
}

// NextWebhookDue orders by when each delivery can next be claimed: when it
// is due, or when its lease runs out if later. SQLite's min() would return
// the time as text, so the row is selected and compared here.
func (s *DB) NextWebhookDue(ctx context.Context) (time.Time, bool, error) {
	var next time.Time
	var lease sql.NullTime
	err := s.db.QueryRowContext(ctx, `SELECT d.next_at, d.lease_until FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
		WHERE d.state = 'pending' AND e.enabled
		ORDER BY CASE WHEN d.lease_until IS NOT NULL AND d.lease_until > d.next_at THEN d.lease_until ELSE d.next_at END LIMIT 1`).Scan(&next, &lease)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next webhook delivery: %w", err)
	}
	if lease.Valid && lease.Time.After(next) {
		next = lease.Time
	}
	return next.UTC(), true, nil
}

func (s *DB) DeleteWebhookEvents(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM webhook_events WHERE created_at < $1 AND NOT EXISTS
		(SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id AND d.state = 'pending')`, before.UTC())
	if err != nil {
		return 0, fmt.Errorf("delete old webhook events: %w", err)
	}
	return res.RowsAffected()
}

func (s *DB) WebhookAttempts(ctx context.Context, endpointID string, limit int) ([]store.WebhookAttempt, error) {
	return queryAll(ctx, s.db, "read webhook deliveries", func(r rowScanner) (store.WebhookAttempt, error) {
		var a store.WebhookAttempt
		var us int64
		err := r.Scan(&a.DeliveryID, &a.EndpointID, &a.EventID, &a.EventType, &a.Attempt, &a.At, &a.Status, &us, &a.Error)
		a.At, a.Duration = a.At.UTC(), time.Duration(us)*time.Microsecond
		return a, err
	}, `SELECT delivery_id, endpoint_id, event_id, event_type, attempt, at, status, duration_us, error
		FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2`, endpointID, limit)
}

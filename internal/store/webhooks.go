package store

import (
	"context"
	"encoding/json"
	"time"
)

// WebhookEndpoint is a URL an account receives signed events at.
type WebhookEndpoint struct {
	ID        string   `json:"id"`
	AccountID string   `json:"account_id"`
	URL       string   `json:"url"`
	Events    []string `json:"events"`
	// Secret signs the deliveries; it is shown once, when created or rotated.
	Secret string `json:"-"`
	// OldSecret, replaced by a rotation, also signs them until OldUntil.
	OldSecret string     `json:"-"`
	OldUntil  *time.Time `json:"old_secret_until,omitempty"`
	Enabled   bool       `json:"enabled"`
	// DisabledAt is when failures turned the endpoint off.
	DisabledAt *time.Time `json:"disabled_at,omitempty"`
	// FailingSince is the first failed attempt since the last success.
	FailingSince *time.Time `json:"failing_since,omitempty"`
	CreatedAt    time.Time  `json:"created_at"`
}

// WebhookEvent is one event, stored before any delivery of it is tried.
type WebhookEvent struct {
	ID        string          `json:"id"`
	AccountID string          `json:"account_id"`
	Type      string          `json:"type"`
	Created   time.Time       `json:"created"`
	Data      json.RawMessage `json:"data"`
}

// WebhookDelivery is an event claimed for sending to one endpoint.
type WebhookDelivery struct {
	ID       int64
	Event    WebhookEvent
	Endpoint WebhookEndpoint
	// Attempt counts this one: 1 for the first.
	Attempt int
}

// WebhookAttempt is one line of an endpoint's delivery log.
type WebhookAttempt struct {
	DeliveryID int64         `json:"delivery_id"`
	EndpointID string        `json:"endpoint_id"`
	EventID    string        `json:"event_id"`
	EventType  string        `json:"event_type"`
	Attempt    int           `json:"attempt"`
	At         time.Time     `json:"at"`
	Status     int           `json:"status"`
	Duration   time.Duration `json:"duration_ns"`
	Error      string        `json:"error,omitempty"`
}

// OK reports a 2xx answer.
func (a WebhookAttempt) OK() bool { return a.Status >= 200 && a.Status < 300 }

// WebhookOutcome is what became of an attempt: Retry is when to try again,
// zero to give up; DisableAfter turns the endpoint off once it has failed
// that long without a success.
type WebhookOutcome struct {
	Attempt      WebhookAttempt
	Retry        time.Time
	DisableAfter time.Duration
	// KeepLog is how many attempts of the endpoint's log are kept.
	KeepLog int
}

// WebhookStore persists endpoints, events and their deliveries.
type WebhookStore interface {
	CreateWebhookEndpoint(ctx context.Context, e WebhookEndpoint, limit int) error
	WebhookEndpoint(ctx context.Context, id string) (WebhookEndpoint, error)
	WebhookEndpoints(ctx context.Context, accountID string) ([]WebhookEndpoint, error)
	DeleteWebhookEndpoint(ctx context.Context, id string) error
	// SetWebhookSecret replaces the secret; the old one keeps signing until
	// oldUntil unless that is zero.
	SetWebhookSecret(ctx context.Context, id, secret string, oldUntil time.Time) error
	// EnableWebhookEndpoint turns an endpoint back on and forgets its failures.
	EnableWebhookEndpoint(ctx context.Context, id string) error
	// AddWebhookEvent stores ev with a delivery due at ev.Created for each
	// enabled endpoint of the account subscribed to its type, or for the one
	// endpoint only names, in one transaction; it returns the deliveries
	// made, and stores nothing when there are none.
	AddWebhookEvent(ctx context.Context, ev WebhookEvent, only string) (int, error)
	// ClaimWebhookDeliveries leases up to limit pending deliveries due at now
	// to enabled endpoints until now+lease; a lease that ran out (its
	// process died) is claimed again. Replicas never claim the same one.
	ClaimWebhookDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]WebhookDelivery, error)
	// FinishWebhookAttempt logs an attempt, marks the delivery done, due
	// again or failed, and tracks the endpoint's failures.
	FinishWebhookAttempt(ctx context.Context, o WebhookOutcome) error
	// NextWebhookDue is when the soonest pending delivery is due; ok is
	// false when none is.
	NextWebhookDue(ctx context.Context) (at time.Time, ok bool, err error)
	// DeleteWebhookEvents deletes the events created before before that no
	// delivery still waits for, with their deliveries and log lines.
	DeleteWebhookEvents(ctx context.Context, before time.Time) (int64, error)
	// WebhookAttempts is an endpoint's delivery log, newest first.
	WebhookAttempts(ctx context.Context, endpointID string, limit int) ([]WebhookAttempt, error)
}

// Package webhooks sends an account's events to its endpoints, signed as
// Stripe signs them: each event is stored with a delivery per subscribed
// endpoint before Emit returns, and the dispatcher that vds serve runs
// claims due deliveries with a lease, so a crash loses none and replicas
// share the queue. Failed attempts are retried with exponential backoff.
package webhooks

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
)

// Event types.
const (
	RecallNew = "recall.new"
	// Test is the type of the event "send test event" sends.
	Test = "webhook.test"
)

// Endpoint and Attempt are the store's, for the callers of this package.
type (
	Endpoint = store.WebhookEndpoint
	Attempt  = store.WebhookAttempt
)

// Types are the event types an endpoint can subscribe to.
var Types = []string{RecallNew}

// Limits and schedule of deliveries (docs/api.md, Webhooks).
const (
	MaxEndpoints = 10
	MaxURL       = 2048
	// RetryFor is how long after an event its delivery is retried.
	RetryFor = 24 * time.Hour
	// DisableAfter turns off an endpoint that has failed that long without a success.
	DisableAfter = 72 * time.Hour
	// MaxResponse is how much of an answer is read.
	MaxResponse = 64 << 10
	// LogSize is how many attempts an endpoint's delivery log keeps.
	LogSize = 1000
	// Keep is how long settled events and their log lines are kept.
	Keep = 30 * 24 * time.Hour
	// inFlight bounds the deliveries a dispatcher sends at once.
	inFlight = 8
)

// Errors the transports turn into messages.
var (
	ErrNotFound error = notFound{}
	// ErrBadURL prefixes every refusal of an endpoint's URL.
	ErrBadURL       = errors.New("webhook URL")
	ErrTooMany      = fmt.Errorf("an account has at most %d webhook endpoints; delete one first", MaxEndpoints)
	ErrBadEventType = fmt.Errorf("unknown event type; endpoints subscribe to %s", strings.Join(Types, ", "))
)

// notFound is store.ErrNotFound (exit code 3, 404) with its own message.
type notFound struct{}

func (notFound) Error() string        { return "no such webhook endpoint" }
func (notFound) Is(target error) bool { return target == store.ErrNotFound }

// Options configure a Service (docs/operations.md, webhooks.*).
type Options struct {
	// RetryInitial is the wait before the first retry; each next one
	// doubles. 1m when 0.
	RetryInitial time.Duration
	// Timeout bounds one attempt, from dialling to reading the answer; 10s when 0.
	Timeout time.Duration
	// AllowPrivate lets endpoints use private, loopback and link-local addresses.
	AllowPrivate bool
	// Transport, when set, replaces the guarded transport (tests in a bubble).
	Transport http.RoundTripper
	// Poll bounds how long the dispatcher waits before it looks for due
	// deliveries that another process stored or left behind; 1s when 0.
	Poll time.Duration
}

// Service manages endpoints, stores events and delivers them.
type Service struct {
	st     store.WebhookStore
	opts   Options
	client *http.Client
	log    *slog.Logger
	kick   chan struct{}
}

// New returns a service on st.
func New(st store.WebhookStore, opts Options, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	opts.Poll = cmp.Or(opts.Poll, time.Second)
	opts.RetryInitial = cmp.Or(opts.RetryInitial, time.Minute)
	opts.Timeout = cmp.Or(opts.Timeout, 10*time.Second)
	rt := opts.Transport
	if rt == nil {
		rt = guardedTransport(opts.AllowPrivate, opts.Timeout)
	}
	return &Service{st: st, opts: opts, log: log, kick: make(chan struct{}, 1), client: &http.Client{
		Transport: rt,
		Timeout:   opts.Timeout,
		// A redirect is a failure: following it could reach a private address.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Emit stores an event of eventType for accountID, with one delivery per
// enabled endpoint of the account subscribed to it, before it returns; the
// dispatcher then sends it within milliseconds. data is the event's "data"
// object, marshalled to JSON.
func (s *Service) Emit(ctx context.Context, accountID, eventType string, data any) error {
	_, err := s.emit(ctx, accountID, eventType, data, "")
	return err
}

func (s *Service) emit(ctx context.Context, accountID, eventType string, data any, only string) (store.WebhookEvent, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return store.WebhookEvent{}, fmt.Errorf("webhook event %s: %w", eventType, err)
	}
	ev := store.WebhookEvent{ID: account.NewID("evt"), AccountID: accountID, Type: eventType, Created: account.Now(), Data: raw}
	n, err := s.st.AddWebhookEvent(ctx, ev, only)
	if err != nil {
		return ev, err
	}
	if n > 0 {
		s.Kick()
	}
	return ev, nil
}

// Kick wakes the dispatcher to look for due deliveries now.
func (s *Service) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Created is a new endpoint with its secret, the one time it is shown.
type Created struct {
	store.WebhookEndpoint
	Secret string `json:"secret"`
}

// Create adds an endpoint for accountID at rawURL, subscribed to events
// (recall.new when empty), after checking the URL is safe to call.
func (s *Service) Create(ctx context.Context, accountID, rawURL string, events []string) (Created, error) {
	u, err := s.checkURL(ctx, rawURL)
	if err != nil {
		return Created{}, fmt.Errorf("%w %q: %w", ErrBadURL, rawURL, err)
	}
	if len(events) == 0 {
		events = []string{RecallNew}
	}
	for _, e := range events {
		if !slices.Contains(Types, e) {
			return Created{}, fmt.Errorf("%w: %q", ErrBadEventType, e)
		}
	}
	slices.Sort(events)
	e := store.WebhookEndpoint{ID: account.NewID("we"), AccountID: accountID, URL: u, Events: slices.Compact(events),
		Secret: NewSecret(), Enabled: true, CreatedAt: account.Now()}
	if err := s.st.CreateWebhookEndpoint(ctx, e, MaxEndpoints); err != nil {
		if errors.Is(err, store.ErrLimit) {
			return Created{}, ErrTooMany
		}
		return Created{}, err
	}
	return Created{WebhookEndpoint: e, Secret: e.Secret}, nil
}

// NewSecret returns a signing secret: "whsec_" and 48 hex digits.
func NewSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return "whsec_" + hex.EncodeToString(b)
}

// Endpoints lists an account's endpoints.
func (s *Service) Endpoints(ctx context.Context, accountID string) ([]store.WebhookEndpoint, error) {
	return s.st.WebhookEndpoints(ctx, accountID)
}

// Endpoint returns one endpoint; accountID "" finds any account's (operators).
func (s *Service) Endpoint(ctx context.Context, accountID, id string) (store.WebhookEndpoint, error) {
	e, err := s.st.WebhookEndpoint(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && accountID != "" && e.AccountID != accountID {
		return store.WebhookEndpoint{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return e, err
}

// Delete deletes an endpoint with its pending deliveries and its log.
func (s *Service) Delete(ctx context.Context, accountID, id string) error {
	if _, err := s.Endpoint(ctx, accountID, id); err != nil {
		return err
	}
	return s.st.DeleteWebhookEndpoint(ctx, id)
}

// Rotate gives an endpoint a new secret and returns it the one time it is
// shown. For grace after, deliveries carry a signature with the old secret
// too, so receivers can move to the new one without refusing any.
func (s *Service) Rotate(ctx context.Context, accountID, id string, grace time.Duration) (Created, error) {
	e, err := s.Endpoint(ctx, accountID, id)
	if err != nil {
		return Created{}, err
	}
	var until time.Time
	if grace > 0 {
		until = account.Now().Add(grace)
		e.OldSecret, e.OldUntil = e.Secret, &until
	} else {
		e.OldSecret, e.OldUntil = "", nil
	}
	e.Secret = NewSecret()
	if err := s.st.SetWebhookSecret(ctx, e.ID, e.Secret, until); err != nil {
		return Created{}, err
	}
	return Created{WebhookEndpoint: e, Secret: e.Secret}, nil
}

// Enable turns back on an endpoint that failures turned off.
func (s *Service) Enable(ctx context.Context, accountID, id string) error {
	if _, err := s.Endpoint(ctx, accountID, id); err != nil {
		return err
	}
	if err := s.st.EnableWebhookEndpoint(ctx, id); err != nil {
		return err
	}
	s.Kick()
	return nil
}

// SendTest stores a webhook.test event for the one endpoint, whatever it
// subscribes to, and returns it.
func (s *Service) SendTest(ctx context.Context, accountID, id string) (store.WebhookEvent, error) {
	e, err := s.Endpoint(ctx, accountID, id)
	if err != nil {
		return store.WebhookEvent{}, err
	}
	return s.emit(ctx, e.AccountID, Test, map[string]any{"endpoint_id": e.ID, "message": "a test event from vds"}, e.ID)
}

// Deliveries is an endpoint's delivery log, newest first.
func (s *Service) Deliveries(ctx context.Context, accountID, id string, limit int) ([]store.WebhookAttempt, error) {
	if _, err := s.Endpoint(ctx, accountID, id); err != nil {
		return nil, err
	}
	return s.st.WebhookAttempts(ctx, id, limit)
}

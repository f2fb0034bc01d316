package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/store"
)

// testWebhooks: an event gets a delivery per enabled endpoint subscribed to
// its type; claims lease due deliveries once until the lease runs out; a
// stale attempt only logs; failures are tracked until they turn the
// endpoint off; the account's deletion takes everything with it.
func testWebhooks(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "hooks@example.com")
	t0 := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	ep := func(id string, events ...string) store.WebhookEndpoint {
		e := store.WebhookEndpoint{ID: id, AccountID: a.ID, URL: "https://example.com/" + id, Events: events, Secret: "whsec_" + id,
			Enabled: true, CreatedAt: t0}
		must(t, s.CreateWebhookEndpoint(ctx, e, 2), "CreateWebhookEndpoint")
		return e
	}
	ep("we_a", "recall.new")
	ep("we_b", "other.type")
	if err := s.CreateWebhookEndpoint(ctx, store.WebhookEndpoint{ID: "we_c", AccountID: a.ID, CreatedAt: t0}, 2); !errors.Is(err, store.ErrLimit) {
		t.Fatalf("a third endpoint past the limit of 2: %v", err)
	}
	ev := store.WebhookEvent{ID: "evt_1", AccountID: a.ID, Type: "recall.new", Created: t0, Data: json.RawMessage(`{"k":1}`)}
	n, err := s.AddWebhookEvent(ctx, ev, "")
	if err != nil || n != 1 {
		t.Fatalf("AddWebhookEvent: %d deliveries, %v; want 1", n, err)
	}
	if n, err := s.AddWebhookEvent(ctx, store.WebhookEvent{ID: "evt_none", AccountID: a.ID, Type: "nobody.listens", Created: t0, Data: []byte(`1`)}, ""); n != 0 || err != nil {
		t.Fatalf("an event nobody subscribes to: %d, %v", n, err)
	}
	if at, ok, err := s.NextWebhookDue(ctx); err != nil || !ok || !at.Equal(t0) {
		t.Fatalf("NextWebhookDue %s %v %v, want %s", at, ok, err, t0)
	}
	if got, _ := s.ClaimWebhookDeliveries(ctx, t0.Add(-time.Second), time.Minute, 10); len(got) != 0 {
		t.Fatalf("claimed %d deliveries before they were due", len(got))
	}
	got, err := s.ClaimWebhookDeliveries(ctx, t0, time.Minute, 10)
	if err != nil || len(got) != 1 {
		t.Fatalf("claim: %d, %v", len(got), err)
	}
	d := got[0]
	if d.Attempt != 1 || d.Event.ID != "evt_1" || string(d.Event.Data) != `{"k":1}` || d.Endpoint.Secret != "whsec_we_a" || !d.Event.Created.Equal(t0) {
		t.Fatalf("claimed %+v", d)
	}
	if again, _ := s.ClaimWebhookDeliveries(ctx, t0.Add(30*time.Second), time.Minute, 10); len(again) != 0 {
		t.Fatal("a leased delivery was claimed twice")
	}
	if at, ok, _ := s.NextWebhookDue(ctx); !ok || !at.Equal(t0.Add(time.Minute)) {
		t.Fatalf("NextWebhookDue while leased: %s, want the lease's end", at)
	}
	// The dispatcher died: once the lease runs out the delivery is claimed again.
	again, err := s.ClaimWebhookDeliveries(ctx, t0.Add(time.Minute), time.Minute, 10)
	if err != nil || len(again) != 1 || again[0].Attempt != 2 {
		t.Fatalf("after the lease: %+v, %v", again, err)
	}
	attempt := func(n, status int, at time.Time) store.WebhookAttempt {
		return store.WebhookAttempt{DeliveryID: d.ID, EndpointID: "we_a", EventID: "evt_1", EventType: "recall.new", Attempt: n, At: at,
			Status: status, Duration: 2 * time.Millisecond, Error: "x"}
	}
	// The first attempt's late answer only logs: attempt 2 owns the delivery.
	must(t, s.FinishWebhookAttempt(ctx, store.WebhookOutcome{Attempt: attempt(1, 200, t0.Add(61*time.Second)), DisableAfter: time.Hour, KeepLog: 10}), "Finish")
	retry := t0.Add(10 * time.Minute)
	must(t, s.FinishWebhookAttempt(ctx, store.WebhookOutcome{Attempt: attempt(2, 500, t0.Add(62*time.Second)), Retry: retry, DisableAfter: time.Hour, KeepLog: 10}), "Finish")
	if at, ok, _ := s.NextWebhookDue(ctx); !ok || !at.Equal(retry) {
		t.Fatalf("NextWebhookDue after a failure: %s, want %s", at, retry)
	}
	e, err := s.WebhookEndpoint(ctx, "we_a")
	if err != nil || e.FailingSince == nil || !e.Enabled {
		t.Fatalf("after a failure: %+v, %v", e, err)
	}
	got, _ = s.ClaimWebhookDeliveries(ctx, retry, time.Minute, 10)
	if len(got) != 1 || got[0].Attempt != 3 {
		t.Fatalf("retry claim: %+v", got)
	}
	must(t, s.FinishWebhookAttempt(ctx, store.WebhookOutcome{Attempt: attempt(3, 0, retry.Add(2*time.Hour)), DisableAfter: time.Hour, KeepLog: 2}), "Finish")
	if e, _ := s.WebhookEndpoint(ctx, "we_a"); e.Enabled || e.DisabledAt == nil || !e.DisabledAt.Equal(retry.Add(2*time.Hour)) {
		t.Fatalf("failing for longer than DisableAfter: %+v", e)
	}
	if _, ok, _ := s.NextWebhookDue(ctx); ok {
		t.Error("a given-up delivery is still due")
	}
	log, err := s.WebhookAttempts(ctx, "we_a", 10)
	if err != nil || len(log) != 2 || log[0].Attempt != 3 || log[1].Attempt != 2 || log[1].Status != 500 || log[1].Duration != 2*time.Millisecond {
		t.Fatalf("the log, kept to 2: %+v, %v", log, err)
	}
	// A disabled endpoint gets no deliveries, but a test event still goes to the one endpoint named.
	if n, _ := s.AddWebhookEvent(ctx, store.WebhookEvent{ID: "evt_2", AccountID: a.ID, Type: "recall.new", Created: t0, Data: []byte(`2`)}, ""); n != 0 {
		t.Errorf("a disabled endpoint got %d deliveries", n)
	}
	must(t, s.EnableWebhookEndpoint(ctx, "we_a"), "Enable")
	until := t0.Add(24 * time.Hour)
	must(t, s.SetWebhookSecret(ctx, "we_a", "whsec_new", until), "SetWebhookSecret")
	if e, _ := s.WebhookEndpoint(ctx, "we_a"); e.Secret != "whsec_new" || e.OldSecret != "whsec_we_a" || e.OldUntil == nil || !e.OldUntil.Equal(until) {
		t.Errorf("rotated with a grace period: %+v", e)
	}
	must(t, s.SetWebhookSecret(ctx, "we_a", "whsec_new", time.Time{}), "SetWebhookSecret")
	if n, _ := s.AddWebhookEvent(ctx, store.WebhookEvent{ID: "evt_3", AccountID: a.ID, Type: "webhook.test", Created: t0, Data: []byte(`3`)}, "we_b"); n != 1 {
		t.Errorf("a test event for one endpoint made %d deliveries", n)
	}
	if e, _ := s.WebhookEndpoint(ctx, "we_a"); !e.Enabled || e.FailingSince != nil || e.Secret != "whsec_new" || e.OldSecret != "" || e.OldUntil != nil {
		t.Errorf("enabled and rotated: %+v", e)
	}
	if err := s.DeleteWebhookEndpoint(ctx, "we_nosuch"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting an unknown endpoint: %v", err)
	}
	// evt_1 is settled, evt_3 still waits to be sent.
	if n, err := s.DeleteWebhookEvents(ctx, t0.Add(time.Second)); n != 1 || err != nil {
		t.Errorf("DeleteWebhookEvents: %d, %v; want evt_1 alone", n, err)
	}
	if log, _ := s.WebhookAttempts(ctx, "we_a", 10); len(log) != 0 {
		t.Errorf("%d log lines outlive their event", len(log))
	}
	if _, ok, _ := s.NextWebhookDue(ctx); !ok {
		t.Error("the pending test event was deleted")
	}
	must(t, s.DeleteAccount(ctx, a.ID), "DeleteAccount")
	if list, err := s.WebhookEndpoints(ctx, a.ID); err != nil || len(list) != 0 {
		t.Errorf("endpoints after the account's deletion: %d, %v", len(list), err)
	}
	if _, ok, _ := s.NextWebhookDue(ctx); ok {
		t.Error("deliveries survive the account")
	}
}

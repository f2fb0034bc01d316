package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/vds-dev/vds/internal/buildinfo"
	"github.com/vds-dev/vds/internal/store"
)

// SignatureHeader carries "t=<unix seconds>,v1=<hex HMAC-SHA256>".
const SignatureHeader = "VDS-Signature"

// Sign returns the VDS-Signature value of body sent at t: a v1 for each
// secret, the hex HMAC-SHA256 it keys of "<t>.<body>".
func Sign(t time.Time, body []byte, secrets ...string) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	out := "t=" + ts
	for _, secret := range secrets {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write([]byte(ts + "."))
		m.Write(body)
		out += ",v1=" + hex.EncodeToString(m.Sum(nil))
	}
	return out
}

// Payload is the body of a delivery.
type Payload struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Created time.Time       `json:"created"`
	Data    json.RawMessage `json:"data"`
}

// Run sends due deliveries until ctx ends, at most inFlight at once, and
// waits for those in flight to finish; hourly it deletes the events settled
// for longer than Keep. It wakes on Kick, when the soonest
// delivery is due, and every Options.Poll for what other processes stored.
func (s *Service) Run(ctx context.Context) {
	slots := make(chan struct{}, inFlight)
	defer func() {
		for range cap(slots) {
			slots <- struct{}{}
		}
	}()
	var swept time.Time
	for ctx.Err() == nil {
		if time.Since(swept) > time.Hour {
			swept = time.Now()
			if _, err := s.st.DeleteWebhookEvents(ctx, swept.Add(-Keep)); err != nil && ctx.Err() == nil {
				s.log.Warn("deleting old webhook events failed; will retry", "err", err)
			}
		}
		free := cap(slots) - len(slots)
		var claimed []store.WebhookDelivery
		if free > 0 {
			var err error
			claimed, err = s.st.ClaimWebhookDeliveries(ctx, time.Now(), s.lease(), free)
			if err != nil && ctx.Err() == nil {
				s.log.Warn("claiming webhook deliveries failed; will retry", "err", err)
			}
		}
		for _, d := range claimed {
			slots <- struct{}{}
			go func() {
				defer func() { <-slots; s.Kick() }()
				s.deliver(context.WithoutCancel(ctx), d)
			}()
		}
		if free > 0 && len(claimed) == free {
			continue
		}
		s.wait(ctx, free > 0)
	}
}

// lease outlasts an attempt, so a live dispatcher's claim never runs out.
func (s *Service) lease() time.Duration { return s.opts.Timeout + 30*time.Second }

// wait sleeps until a kick, or with timed until the next due delivery or poll.
func (s *Service) wait(ctx context.Context, timed bool) {
	var after <-chan time.Time
	if timed {
		d := s.opts.Poll
		if at, ok, err := s.st.NextWebhookDue(ctx); err == nil && ok {
			d = min(d, max(time.Until(at), 0))
		}
		t := time.NewTimer(d)
		defer t.Stop()
		after = t.C
	}
	select {
	case <-ctx.Done():
	case <-s.kick:
	case <-after:
	}
}

// deliver makes one attempt and records what became of it.
func (s *Service) deliver(ctx context.Context, d store.WebhookDelivery) {
	a := store.WebhookAttempt{DeliveryID: d.ID, EndpointID: d.Endpoint.ID, EventID: d.Event.ID, EventType: d.Event.Type, Attempt: d.Attempt}
	a.At = time.Now()
	a.Status, a.Error = s.post(ctx, d)
	a.Duration = time.Since(a.At)
	o := store.WebhookOutcome{Attempt: a, DisableAfter: DisableAfter, KeepLog: LogSize}
	if !a.OK() {
		if next := a.At.Add(s.opts.RetryInitial << min(d.Attempt-1, 30)); next.Sub(d.Event.Created) <= RetryFor {
			o.Retry = next
		}
		s.log.Info("webhook delivery failed", "endpoint", a.EndpointID, "event", a.EventID, "attempt", a.Attempt,
			"status", a.Status, "err", a.Error, "retry_at", o.Retry)
	}
	if err := s.st.FinishWebhookAttempt(ctx, o); err != nil {
		s.log.Warn("recording a webhook attempt failed; the delivery is retried when its lease ends", "err", err)
	}
}

// post sends the event; status is 0 when no answer came, and errMsg says
// why an attempt failed.
func (s *Service) post(ctx context.Context, d store.WebhookDelivery) (status int, errMsg string) {
	body, err := json.Marshal(Payload{ID: d.Event.ID, Type: d.Event.Type, Created: d.Event.Created, Data: d.Event.Data})
	if err != nil {
		return 0, err.Error()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.Endpoint.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "vds-webhooks/"+buildinfo.Get().Version)
	req.Header.Set("VDS-Event-ID", d.Event.ID)
	now, secrets := time.Now(), []string{d.Endpoint.Secret}
	if e := d.Endpoint; e.OldUntil != nil && now.Before(*e.OldUntil) {
		secrets = append(secrets, e.OldSecret)
	}
	req.Header.Set(SignatureHeader, Sign(now, body, secrets...))
	resp, err := s.client.Do(req)
	if err != nil {
		var ue interface{ Timeout() bool }
		if errors.As(err, &ue) && ue.Timeout() {
			return 0, fmt.Sprintf("no answer within %s", s.opts.Timeout)
		}
		return 0, errors.Unwrap(err).Error()
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponse))
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return resp.StatusCode, "redirects are not followed"
	case resp.StatusCode >= 400 || resp.StatusCode < 200:
		return resp.StatusCode, "HTTP " + strconv.Itoa(resp.StatusCode)
	}
	return resp.StatusCode, ""
}

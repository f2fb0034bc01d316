package webhooks_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/memnet"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/postgres"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/webhooks"
)

// inBubble returns a SQLite store, a service whose deliveries reach rc over
// memnet, and the new endpoint, for a test inside a synctest bubble.
func inBubble(t *testing.T, rc *receiver, opts webhooks.Options) (store.Store, *webhooks.Service, string, webhooks.Created) {
	st := storetest.Empty(t, "sqlite")
	srv := memnet.NewServer(t, rc)
	opts.Transport, opts.AllowPrivate = srv.Client().Transport, true
	svc := webhooks.New(st, opts, nil)
	acc := newAccount(t, st)
	ep, err := svc.Create(context.Background(), acc, srv.URL+"/hook", nil)
	if err != nil {
		t.Fatal(err)
	}
	return st, svc, acc, ep
}

// TestBackoff: failed attempts are retried after 1, 2, then 4 times
// webhooks.retry_initial, with the same event id, until one succeeds.
func TestBackoff(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		rc := newReceiver(func(n int) int {
			if n <= 3 {
				return http.StatusServiceUnavailable
			}
			return http.StatusOK
		})
		// No polling: the dispatcher wakes when the next retry is due.
		_, svc, acc, ep := inBubble(t, rc, webhooks.Options{RetryInitial: time.Minute, Timeout: 5 * time.Second, Poll: 24 * time.Hour})
		stop := start(t, svc)
		t0 := time.Now()
		if err := svc.Emit(context.Background(), acc, webhooks.RecallNew, map[string]string{"k": "v"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour)
		stop()
		got := rc.all()
		want := []time.Duration{0, time.Minute, 3 * time.Minute, 7 * time.Minute}
		if len(got) != len(want) {
			t.Fatalf("%d attempts, want %d", len(got), len(want))
		}
		for i, r := range got {
			if d := r.at.Sub(t0); d != want[i] || r.eventID != got[0].eventID {
				t.Errorf("attempt %d at +%s with event %s, want +%s with %s", i+1, d, r.eventID, want[i], got[0].eventID)
			}
		}
		log, err := svc.Deliveries(context.Background(), acc, ep.ID, 10)
		if err != nil || len(log) != 4 || log[0].Attempt != 4 || log[0].Status != 200 || log[3].Status != 503 || log[3].Error != "HTTP 503" {
			t.Errorf("log %+v, %v", log, err)
		}
	})
}

// TestGiveUpAndDisable: a delivery is retried for 24 hours, then given up;
// an endpoint failing for 3 days is turned off, takes no new events, and
// comes back when enabled.
func TestGiveUpAndDisable(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		rc := newReceiver(always(http.StatusInternalServerError))
		st, svc, acc, ep := inBubble(t, rc, webhooks.Options{RetryInitial: time.Hour, Timeout: 5 * time.Second, Poll: time.Hour})
		ctx := context.Background()
		stop := start(t, svc)
		for range 4 {
			if err := svc.Emit(ctx, acc, webhooks.RecallNew, "x"); err != nil {
				t.Fatal(err)
			}
			time.Sleep(25 * time.Hour)
		}
		stop()
		perEvent := map[string]int{}
		for _, r := range rc.all() {
			perEvent[r.eventID]++
		}
		// Attempts at 0, 1, 3, 7 and 15 h; the next, at 31 h, is past 24 h.
		if len(perEvent) != 4 || perEvent[rc.all()[0].eventID] != 5 {
			t.Errorf("attempts per event %v, want 5 for the first", perEvent)
		}
		e, err := st.WebhookEndpoint(ctx, ep.ID)
		if err != nil || e.Enabled || e.DisabledAt == nil || e.FailingSince == nil || e.DisabledAt.Sub(*e.FailingSince) < webhooks.DisableAfter {
			t.Fatalf("after 3 days of failures: %+v, %v", e, err)
		}
		n := len(rc.all())
		start(t, svc)
		if err := svc.Emit(ctx, acc, webhooks.RecallNew, "x"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour)
		if len(rc.all()) != n {
			t.Error("a disabled endpoint received an event")
		}
		if err := svc.Enable(ctx, acc, ep.ID); err != nil {
			t.Fatal(err)
		}
		if e, _ := st.WebhookEndpoint(ctx, ep.ID); !e.Enabled || e.FailingSince != nil {
			t.Errorf("enabled: %+v", e)
		}
	})
}

// TestRefusePrivate: URLs that are not http(s), carry credentials, or
// point at private, loopback, link-local or other non-public addresses are
// refused unless webhooks.allow_private is set.
func TestRefusePrivate(t *testing.T) {
	t.Parallel()
	st := storetest.Empty(t, "sqlite")
	ctx := context.Background()
	acc := newAccount(t, st)
	strict := webhooks.New(st, webhooks.Options{RetryInitial: time.Minute, Timeout: time.Second}, nil)
	for _, u := range []string{"http://127.0.0.1/hook", "http://localhost:8080/", "http://api.localhost/", "http://10.1.2.3/",
		"http://172.16.0.1/", "http://192.168.1.1/", "http://[::1]:9000/", "http://169.254.169.254/latest/meta-data",
		"http://[fe80::1]/", "http://100.64.0.1/", "http://0.0.0.0/", "http://[::ffff:127.0.0.1]/", "http://[fd00::1]/",
		"http://224.0.0.1/", "http://[64:ff9b::a00:1]/", "http://2130706433/"} {
		if _, err := strict.Create(ctx, acc, u, nil); err == nil {
			t.Errorf("%s was accepted", u)
		}
	}
	for _, u := range []string{"ftp://93.184.215.14/", "file:///etc/passwd", "https://user:pw@93.184.215.14/", "/relative", "javascript:alert(1)", "http://"} {
		if _, err := strict.Create(ctx, acc, u, nil); err == nil || errors.Is(err, webhooks.ErrPrivate) {
			t.Errorf("%s: %v, want a refusal of the URL itself", u, err)
		}
	}
	if _, err := strict.Create(ctx, acc, "https://93.184.215.14/hook", []string{"recall.new"}); err != nil {
		t.Errorf("a public address: %v", err)
	}
	if _, err := strict.Create(ctx, acc, "https://93.184.215.14/hook", []string{"recall.old"}); !errors.Is(err, webhooks.ErrBadEventType) {
		t.Errorf("an unknown event type: %v", err)
	}
	open := webhooks.New(st, webhooks.Options{RetryInitial: time.Minute, Timeout: time.Second, AllowPrivate: true}, nil)
	if _, err := open.Create(ctx, acc, "http://127.0.0.1:9/hook", nil); err != nil {
		t.Errorf("allow_private: %v", err)
	}
}

// failures is a logger that reports each failed delivery on the channel.
func failures() (*slog.Logger, chan slog.Record) {
	c := make(chan slog.Record, 100)
	return slog.New(chanHandler(c)), c
}

type chanHandler chan slog.Record

func (h chanHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h chanHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "webhook delivery failed" {
		h <- r
	}
	return nil
}
func (h chanHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h chanHandler) WithGroup(string) slog.Handler      { return h }

// TestDialRefusesPrivate: an endpoint whose address turned private after
// it was created (DNS rebinding) is refused when dialled, and the receiver
// never hears of the event.
func TestDialRefusesPrivate(t *testing.T) {
	t.Parallel()
	st := storetest.Empty(t, "sqlite")
	ctx := context.Background()
	rc := newReceiver(always(http.StatusOK))
	srv := listen(t, rc)
	acc := newAccount(t, st)
	// Stored as if it had resolved to a public address at creation.
	ep := store.WebhookEndpoint{ID: account.NewID("we"), AccountID: acc, URL: srv, Events: []string{webhooks.RecallNew},
		Secret: webhooks.NewSecret(), Enabled: true, CreatedAt: account.Now()}
	if err := st.CreateWebhookEndpoint(ctx, ep, 10); err != nil {
		t.Fatal(err)
	}
	log, failed := failures()
	svc := webhooks.New(st, webhooks.Options{RetryInitial: time.Minute, Timeout: time.Second}, log)
	stop := start(t, svc)
	if err := svc.Emit(ctx, acc, webhooks.RecallNew, 1); err != nil {
		t.Fatal(err)
	}
	<-failed
	stop()
	attempts, err := st.WebhookAttempts(ctx, ep.ID, 10)
	if err != nil || len(attempts) != 1 || attempts[0].Status != 0 || !strings.Contains(attempts[0].Error, "private") {
		t.Errorf("attempts %+v, %v; want one refused as private", attempts, err)
	}
	if n := len(rc.all()); n != 0 {
		t.Errorf("the receiver got %d requests", n)
	}
}

// TestRedirectNotFollowed: a 3xx answer is a failed attempt; the redirect
// (here to another loopback receiver) is not followed.
func TestRedirectNotFollowed(t *testing.T) {
	t.Parallel()
	st := storetest.Empty(t, "sqlite")
	ctx := context.Background()
	target := newReceiver(always(http.StatusOK))
	inner := listen(t, target)
	outer := listen(t, http.RedirectHandler(inner+"/internal", http.StatusTemporaryRedirect))
	log, failed := failures()
	svc := webhooks.New(st, loopback, log)
	acc := newAccount(t, st)
	ep, err := svc.Create(ctx, acc, outer, nil)
	if err != nil {
		t.Fatal(err)
	}
	stop := start(t, svc)
	if err := svc.Emit(ctx, acc, webhooks.RecallNew, 1); err != nil {
		t.Fatal(err)
	}
	<-failed
	stop()
	attempts, err := svc.Deliveries(ctx, acc, ep.ID, 10)
	if err != nil || len(attempts) != 1 || attempts[0].Status != http.StatusTemporaryRedirect || attempts[0].Error != "redirects are not followed" {
		t.Errorf("attempts %+v, %v", attempts, err)
	}
	if n := len(target.all()); n != 0 {
		t.Errorf("the redirect was followed: %d requests", n)
	}
}

// TestTwoReplicas: two dispatchers on one PostgreSQL database, each
// emitting half the events, deliver every event; the only repeats are
// retries of failed attempts, with the same event id.
func TestTwoReplicas(t *testing.T) {
	t.Parallel()
	url := storetest.PostgresURL(t)
	ctx := context.Background()
	var replicas []*webhooks.Service
	var stores []store.Store
	for range 2 {
		st, err := postgres.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		if err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		stores = append(stores, st)
		replicas = append(replicas, webhooks.New(st, webhooks.Options{RetryInitial: time.Millisecond, Timeout: 5 * time.Second, AllowPrivate: true}, nil))
	}
	// Every fourth request fails, so some events are retried.
	rc := newReceiver(func(n int) int {
		if n%4 == 0 {
			return http.StatusBadGateway
		}
		return http.StatusOK
	})
	srv := listen(t, rc)
	acc := newAccount(t, stores[0])
	ep, err := replicas[0].Create(ctx, acc, srv, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stops []func()
	for _, r := range replicas {
		stops = append(stops, start(t, r))
	}
	const events = 100
	var wg sync.WaitGroup
	for i := range events {
		wg.Go(func() {
			if err := replicas[i%2].Emit(ctx, acc, webhooks.RecallNew, i); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	ok := 0
	for ok < events {
		<-rc.seen
		ok = 0
		for _, r := range rc.all() {
			if r.status == http.StatusOK {
				ok++
			}
		}
	}
	for _, stop := range stops {
		stop()
	}
	got := rc.all()
	okPer, failedPer := map[string]int{}, map[string]int{}
	for _, r := range got {
		if r.status == http.StatusOK {
			okPer[r.eventID]++
		} else {
			failedPer[r.eventID]++
		}
	}
	for id, n := range okPer {
		if n != 1 {
			t.Errorf("event %s delivered %d times", id, n)
		}
	}
	if len(okPer) != events || len(failedPer) == 0 {
		t.Errorf("%d events delivered, %d retried; want %d, some", len(okPer), len(failedPer), events)
	}
	t.Logf("%d requests for %d events: %d retries of failed attempts, no other repeat", len(got), events, len(got)-events)
	log, err := stores[1].WebhookAttempts(ctx, ep.ID, 1000)
	if err != nil || len(log) != len(got) {
		t.Errorf("delivery log has %d lines for %d requests: %v", len(log), len(got), err)
	}
}

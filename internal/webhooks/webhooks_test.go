package webhooks_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/webhooks"
)

// received is one POST a test receiver got.
type received struct {
	at        time.Time
	body      []byte
	signature string
	eventID   string
	status    int
}

// receiver records what it receives and answers with status(n) for the n-th (from 1).
type receiver struct {
	mu     sync.Mutex
	got    []received
	status func(n int) int
	seen   chan struct{}
}

func newReceiver(status func(n int) int) *receiver {
	return &receiver{status: status, seen: make(chan struct{}, 1000)}
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	n := len(rc.got) + 1
	code := rc.status(n)
	rc.got = append(rc.got, received{time.Now(), body, r.Header.Get(webhooks.SignatureHeader), r.Header.Get("VDS-Event-ID"), code})
	rc.mu.Unlock()
	w.WriteHeader(code)
	rc.seen <- struct{}{}
}

func (rc *receiver) all() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// listen serves h on a loopback port until the test ends and returns its URL.
func listen(t testing.TB, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func always(code int) func(int) int { return func(int) int { return code } }

func newAccount(t testing.TB, st store.Store) string {
	t.Helper()
	a := account.Account{ID: account.NewID("acc"), Email: account.NewID("u") + "@example.com", Plan: "free", CreatedAt: account.Now()}
	if err := st.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// start runs svc's dispatcher until stop or the test's end; stop returns
// once the attempts in flight are recorded.
func start(t testing.TB, svc *webhooks.Service) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { svc.Run(ctx); close(done) }()
	stop = sync.OnceFunc(func() { cancel(); <-done })
	t.Cleanup(stop)
	return stop
}

var loopback = webhooks.Options{RetryInitial: time.Minute, Timeout: 5 * time.Second, AllowPrivate: true}

// TestDeliverSigned: an emitted event reaches a loopback receiver at once,
// signed with the endpoint's secret, in the documented shape, and the
// delivery log records it; an endpoint not subscribed gets nothing.
func TestDeliverSigned(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		t.Parallel()
		ctx := context.Background()
		rc := newReceiver(always(http.StatusNoContent))
		srv := listen(t, rc)
		svc := webhooks.New(st, loopback, nil)
		acc := newAccount(t, st)
		ep, err := svc.Create(ctx, acc, srv+"/hook", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(ep.Secret, "whsec_") || !slices.Equal(ep.Events, []string{webhooks.RecallNew}) {
			t.Fatalf("created %+v", ep)
		}
		stop := start(t, svc)
		data := map[string]any{"item": map[string]any{"vin": "1HGCM82633A004352"}, "campaign": map[string]any{"id": "24V001000"}}
		var latencies []time.Duration
		const n = 50
		for range n {
			emitted := time.Now()
			if err := svc.Emit(ctx, acc, webhooks.RecallNew, data); err != nil {
				t.Fatal(err)
			}
			<-rc.seen
			got := rc.all()
			latencies = append(latencies, got[len(got)-1].at.Sub(emitted))
		}
		if err := svc.Emit(ctx, newAccount(t, st), webhooks.RecallNew, data); err != nil {
			t.Fatal(err)
		}
		stop()
		ids := map[string]bool{}
		for _, r := range rc.all() {
			if err := verifySignature(ep.Secret, r.signature, r.body, time.Now()); err != nil {
				t.Fatalf("signature %q: %v", r.signature, err)
			}
			if err := verifySignature("whsec_other", r.signature, r.body, time.Now()); err == nil {
				t.Fatal("another secret verifies the signature")
			}
			var p struct {
				ID, Type string
				Created  time.Time
				Data     map[string]map[string]string
			}
			if err := json.Unmarshal(r.body, &p); err != nil {
				t.Fatal(err)
			}
			if p.Type != webhooks.RecallNew || p.ID != r.eventID || p.Data["campaign"]["id"] != "24V001000" || p.Data["item"]["vin"] == "" || p.Created.IsZero() {
				t.Fatalf("body %s", r.body)
			}
			ids[p.ID] = true
		}
		if len(ids) != n {
			t.Errorf("%d distinct event ids in %d deliveries", len(ids), n)
		}
		sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
		p99 := latencies[n*99/100-1]
		t.Logf("emit to first attempt: median %s, p99 %s, max %s", latencies[n/2], p99, latencies[n-1])
		if p99 > 5*time.Second {
			t.Errorf("p99 from emit to first attempt is %s, the goal is at most 5s", p99)
		}
		log, err := svc.Deliveries(ctx, acc, ep.ID, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != n || log[0].Status != http.StatusNoContent || log[0].Attempt != 1 || log[0].Error != "" {
			t.Errorf("delivery log has %d lines, newest %+v", len(log), log[0])
		}
		if _, err := svc.Deliveries(ctx, newAccount(t, st), ep.ID, 10); err == nil {
			t.Error("another account reads the delivery log")
		}
	})
}

// TestRotateAndTest: after a rotation with a grace period a test event is
// signed with the new and the old secret; after one without, with the new
// secret alone.
func TestRotateAndTest(t *testing.T) {
	t.Parallel()
	st := storetest.Empty(t, "sqlite")
	ctx := context.Background()
	rc := newReceiver(always(http.StatusOK))
	srv := listen(t, rc)
	svc := webhooks.New(st, loopback, nil)
	acc := newAccount(t, st)
	ep, err := svc.Create(ctx, acc, srv, nil)
	if err != nil {
		t.Fatal(err)
	}
	start(t, svc)
	send := func() received {
		ev, err := svc.SendTest(ctx, acc, ep.ID)
		if err != nil {
			t.Fatal(err)
		}
		<-rc.seen
		r := rc.all()[len(rc.all())-1]
		if r.eventID != ev.ID || !strings.Contains(string(r.body), `"type":"webhook.test"`) {
			t.Errorf("got %s", r.body)
		}
		return r
	}
	signs := func(r received, secret string) bool {
		return verifySignature(secret, r.signature, r.body, time.Now()) == nil
	}
	graced, err := svc.Rotate(ctx, acc, ep.ID, time.Hour)
	if err != nil || graced.Secret == ep.Secret || graced.OldUntil == nil {
		t.Fatalf("rotate: %+v, %v", graced, err)
	}
	if r := send(); !signs(r, graced.Secret) || !signs(r, ep.Secret) {
		t.Errorf("in the grace period, %q is not signed with both secrets", r.signature)
	}
	now, err := svc.Rotate(ctx, acc, ep.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := send(); !signs(r, now.Secret) || signs(r, graced.Secret) || signs(r, ep.Secret) {
		t.Errorf("after a rotation without grace, %q is not signed with the new secret alone", r.signature)
	}
}

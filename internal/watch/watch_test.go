package watch_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/postgres"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/watch"
)

// fakeNHTSA answers each vehicle's recalls after delay, counting the asks
// per vehicle and the most in flight at once.
type fakeNHTSA struct {
	delay    time.Duration
	mu       sync.Mutex
	open     map[string][]upstream.Recall
	asks     map[string]int
	fail     bool
	inFlight atomic.Int64
	maxIn    atomic.Int64
}

func newFake(delay time.Duration) *fakeNHTSA {
	return &fakeNHTSA{delay: delay, open: map[string][]upstream.Recall{}, asks: map[string]int{}}
}

func (f *fakeNHTSA) add(key, campaign string, parkIt bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.open[key] = append(f.open[key], upstream.Recall{CampaignNumber: campaign, ParkIt: parkIt})
}

func (f *fakeNHTSA) RefreshRecalls(ctx context.Context, mk, model string, year int) ([]upstream.Recall, error) {
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for {
		m := f.maxIn.Load()
		if n <= m || f.maxIn.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(f.delay)
	key := watch.Key(mk, model, year)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asks[key]++
	if f.fail {
		return nil, errors.New("NHTSA answered Too Many Requests")
	}
	return append([]upstream.Recall{}, f.open[key]...), nil
}

// Recalls is the cached answer: it never counts as an ask.
func (f *fakeNHTSA) Recalls(_ context.Context, mk, model string, year int) ([]upstream.Recall, upstream.Meta, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]upstream.Recall{}, f.open[watch.Key(mk, model, year)]...), upstream.Meta{FromCache: true}, nil
}

func (f *fakeNHTSA) totalAsks() (total, most int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, n := range f.asks {
		total += n
		most = max(most, n)
	}
	return total, most
}

// notifier records what it is told; failing refuses.
type notifier struct {
	mu      sync.Mutex
	got     []string
	failing bool
}

func (n *notifier) RecallNew(_ context.Context, accountID string, item watch.Item, c watch.Campaign) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.failing {
		return errors.New("receiver down")
	}
	n.got = append(n.got, fmt.Sprintf("%s %s %s", *item.VIN, c.CampaignNumber, c.FirstSeenAt.Format(time.RFC3339)))
	return nil
}

func (n *notifier) told() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string{}, n.got...)
}

// garage makes an account whose garage holds n VIN items, VIN i decoding
// to make "M", model "X<i/per>", year 2020: per items per vehicle.
func garage(t testing.TB, st store.Store, n, per int) (account.Account, account.List) {
	t.Helper()
	ctx := context.Background()
	a := account.Account{ID: account.NewID("acc"), Email: account.NewID("u") + "@example.com", Plan: "free", CreatedAt: time.Now()}
	if err := st.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	l, err := st.DefaultList(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		vin := fmt.Sprintf("VIN%014d", i)
		mk, model, year := "M", fmt.Sprintf("X%d", i/per), 2020
		it := account.ListItem{Kind: account.KindVIN, UUID: account.VINItemID(vin), VIN: &vin, AddedAt: time.Now(),
			Decode: &account.VINDecode{Make: &mk, Model: &model, Year: &year}}
		if err := st.AddListItem(ctx, l.ID, it); err != nil {
			t.Fatal(err)
		}
	}
	return a, l
}

// inBubbles runs fn in a synctest bubble per backend, the store opened
// inside it: a connection made in a bubble must be closed there.
func inBubbles(t *testing.T, fn func(t *testing.T, st store.Store)) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) { fn(t, storetest.Empty(t, backend)) })
		})
	}
}

// killSession ends the PostgreSQL sessions query selects, from a connection of its own.
func killSession(t *testing.T, url, query string) {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatal(err)
	}
}

func newWatch(st store.Store, f *fakeNHTSA, n watch.Notifier, cfg watch.Config) *watch.Watch {
	return watch.New(st, nil, f, n, nil, cfg, slog.New(slog.DiscardHandler))
}

// TestFirstSightings: the first check is a baseline, a campaign appearing
// later is notified once per item, a failed notification is retried, and
// no vehicle is asked about twice within the interval.
func TestFirstSightings(t *testing.T) {
	t.Parallel()
	inBubbles(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		f, n := newFake(50*time.Millisecond), &notifier{}
		a, _ := garage(t, st, 3, 2) // VIN 0 and 1 are M X0 2020, VIN 2 is M X1 2020
		x0 := watch.Key("M", "X0", 2020)
		f.add(x0, "20V001000", false)
		w := newWatch(st, f, n, watch.Config{Interval: time.Hour})

		res, err := w.Pass(ctx, watch.PassOptions{})
		if err != nil || res.Checked != 2 || res.Baselined != 3 || len(res.New) != 0 || len(n.told()) != 0 {
			t.Fatalf("first pass = %v, %v, told %v; want 2 vehicles checked, 3 baselines, nothing new", res, err, n.told())
		}
		f.add(x0, "26V777000", true)
		if res, _ = w.Pass(ctx, watch.PassOptions{}); res.Checked != 0 {
			t.Fatalf("a pass within the interval asked again: %v", res)
		}
		time.Sleep(time.Hour)
		n.failing = true
		if res, _ = w.Pass(ctx, watch.PassOptions{}); res.Checked != 2 || len(res.New) != 2 || res.New[0].Notified {
			t.Fatalf("pass after the interval = %+v; want 2 new sightings, unnotified", res)
		}
		n.failing = false
		res, _ = w.Pass(ctx, watch.PassOptions{})
		if told := n.told(); len(told) != 2 || res.Checked != 0 {
			t.Fatalf("retry pass told %v and checked %d; want the 2 sightings told, no ask", told, res.Checked)
		}
		if res, _ = w.Pass(ctx, watch.PassOptions{}); len(res.New) != 0 || len(n.told()) != 2 {
			t.Fatalf("a sighting was told twice: %v", n.told())
		}
		if total, most := f.totalAsks(); total != 4 || most != 2 {
			t.Fatalf("NHTSA asked %d times, at most %d per vehicle; want 4 and 2 (two intervals)", total, most)
		}
		if res, _ = w.Pass(ctx, watch.PassOptions{Force: true}); res.Checked != 2 || len(res.New) != 0 {
			t.Fatalf("forced pass = %v; want both vehicles asked again, nothing new", res)
		}

		// A process without a notifier (vds recalls refresh before webhooks
		// are wired) leaves its sightings for one that has one.
		f.add(watch.Key("M", "X1", 2020), "26V888000", false)
		if res, _ = newWatch(st, f, nil, watch.Config{Interval: time.Hour}).Pass(ctx, watch.PassOptions{Force: true}); len(res.New) != 1 || res.New[0].Notified {
			t.Fatalf("pass without a notifier = %+v; want the sighting, unnotified", res)
		}
		if res, _ = w.Pass(ctx, watch.PassOptions{}); len(n.told()) != 3 || len(res.New) != 1 || !res.New[0].Notified {
			t.Fatalf("the notifier's next pass told %v (%+v); want the sighting told", n.told(), res)
		}
		recalls, err := st.ItemRecalls(ctx, a.ID)
		if err != nil || len(recalls) != 5 {
			t.Fatalf("ItemRecalls = %d rows, %v; want 2 baselines and 3 sightings", len(recalls), err)
		}
		for _, r := range recalls {
			if r.Baseline != (r.Campaign == "20V001000") || !r.Notified && !r.Baseline {
				t.Errorf("%s: baseline %v, notified %v", r.Campaign, r.Baseline, r.Notified)
			}
		}
	})
}

// TestBackoff: NHTSA refusing stops the pass after MaxFailures in a row,
// pausing between them, and the refused vehicles stay due.
func TestBackoff(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st := storetest.Empty(t, "sqlite")
		garage(t, st, 40, 1)
		f := newFake(time.Millisecond)
		f.fail = true
		w := newWatch(st, f, nil, watch.Config{Interval: time.Hour, MaxInFlight: 1, Backoff: time.Second, MaxFailures: 3})
		start := time.Now()
		res, err := w.Pass(context.Background(), watch.PassOptions{})
		if err != nil || res.Failed != 3 || res.Checked != 0 {
			t.Fatalf("pass = %v, %v; want 3 failures, then a stop", res, err)
		}
		if took := time.Since(start); took < 3*time.Second {
			t.Fatalf("three failures took %v; want pauses of 1 s and 2 s between them", took)
		}
		f.fail = false
		time.Sleep(time.Minute)
		if res, _ = w.Pass(context.Background(), watch.PassOptions{}); res.Checked != 40 {
			t.Fatalf("after the backoff %d of 40 vehicles checked", res.Checked)
		}
	})
}

// TestTenThousandVehicles: a pass over 10,000 vehicles against an NHTSA
// answering in 50 ms takes under 2 minutes (of the bubble's clock, so the
// stores' own time is not counted) and never has more than 8 in flight.
// The suite runs a fiftieth of it against a fiftieth of the time, which bounds
// the same rate; VDS_WATCH_FULL=1 runs it whole (about 10 s).
func TestTenThousandVehicles(t *testing.T) {
	t.Parallel()
	vehicles, limit := 200, 2400*time.Millisecond
	if os.Getenv("VDS_WATCH_FULL") != "" {
		vehicles, limit = 10_000, 2*time.Minute
	}
	inBubbles(t, func(t *testing.T, st store.Store) {
		garage(t, st, vehicles, 1)
		f := newFake(50 * time.Millisecond)
		w := newWatch(st, f, nil, watch.Config{})
		start := time.Now()
		res, err := w.Pass(context.Background(), watch.PassOptions{})
		took := time.Since(start)
		if err != nil || res.Checked != vehicles {
			t.Fatalf("pass = %v, %v; want all %d checked", res, err, vehicles)
		}
		if most := f.maxIn.Load(); most > 8 || took > limit {
			t.Fatalf("pass took %v with up to %d requests in flight; want <= %v and <= 8", took, most, limit)
		}
		t.Logf("%s: %d vehicles in %v, at most %d in flight", st.Backend(), vehicles, took, f.maxIn.Load())
	})
}

// TestReplicas: two stores on one PostgreSQL database, each running
// passes at once, never ask about one vehicle twice within the interval;
// the watch lock goes to one replica and passes on when it dies.
func TestReplicas(t *testing.T) {
	t.Parallel()
	url := storetest.PostgresURL(t)
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		open := func() store.Store {
			st, err := postgres.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		}
		a, b := open(), open()
		if err := a.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		garage(t, a, 200, 1)
		f := newFake(50 * time.Millisecond)
		var wg sync.WaitGroup
		for _, st := range []store.Store{a, b, a, b} {
			wg.Go(func() {
				if _, err := newWatch(st, f, nil, watch.Config{Interval: time.Hour}).Pass(ctx, watch.PassOptions{}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if total, most := f.totalAsks(); total != 200 || most != 1 {
			t.Fatalf("NHTSA asked %d times, at most %d about one vehicle; want each of 200 once", total, most)
		}

		held, release, err := a.TryWatchLock(ctx)
		if err != nil || !held {
			t.Fatalf("first replica's lock: %v, %v", held, err)
		}
		if held, _, err := b.TryWatchLock(ctx); err != nil || held {
			t.Fatalf("second replica got the lock the first holds: %v, %v", held, err)
		}
		release()
		held, _, err = b.TryWatchLock(ctx)
		if err != nil || !held {
			t.Fatalf("second replica after the first released: %v, %v", held, err)
		}
		killSession(t, url, `SELECT pg_terminate_backend(pid, 10000) FROM pg_locks WHERE locktype = 'advisory' AND objid = 1986294647
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)
		if held, release, err := a.TryWatchLock(ctx); err != nil || !held {
			t.Fatalf("first replica after the holder died: %v, %v", held, err)
		} else {
			release()
		}
	})
}

// TestRunSpreads: Run checks new vehicles at once, then each at most once
// per interval, a Slots-th of them per tick.
func TestRunSpreads(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st := storetest.Empty(t, "sqlite")
		garage(t, st, 8, 1)
		f := newFake(time.Millisecond)
		w := newWatch(st, f, nil, watch.Config{Interval: 4 * time.Hour, Slots: 4})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { w.Run(ctx); close(done) }()
		time.Sleep(time.Minute)
		if total, _ := f.totalAsks(); total != 8 {
			t.Fatalf("first tick asked %d times; want each new vehicle once", total)
		}
		time.Sleep(4 * time.Hour)
		if total, most := f.totalAsks(); total != 10 || most != 2 {
			t.Fatalf("after one interval NHTSA was asked %d times, at most %d per vehicle; want 8 + a quarter of 8", total, most)
		}
		time.Sleep(3 * time.Hour)
		if total, most := f.totalAsks(); total != 16 || most != 2 {
			t.Fatalf("by the end of the second interval %d asks, at most %d per vehicle; want each vehicle twice", total, most)
		}
		cancel()
		<-done
	})
}

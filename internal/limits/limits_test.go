package limits

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/sqlite"
)

// newStore returns a migrated SQLite store holding one account.
func newStore(t testing.TB) (store.Store, string) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "vds.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st, addAccount(t, st, "q@example.com")
}

// addAccount creates an account and returns its ID.
func addAccount(t testing.TB, st store.Store, email string) string {
	t.Helper()
	a := account.Account{ID: account.NewID("acc"), Email: email, Plan: "free", CreatedAt: time.Now()}
	if err := st.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return a.ID
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newLimiter(st store.UsageStore, c *clock) *Limiter {
	l := New(st, slog.New(slog.DiscardHandler))
	l.now = c.now
	return l
}

// newRateFixture is a limiter on a fresh store holding one account, with
// its clock at start.
func newRateFixture(tb testing.TB, start time.Time) (*Limiter, *clock, string) {
	st, id := newStore(tb)
	c := &clock{t: start}
	return newLimiter(st, c), c, id
}

var quotaOnly = account.Plan{Name: "free", MonthlyQuota: 100}

// TestQuotaExactUnderConcurrency: 50 callers race for a quota of 100; a
// third of the calls fail and are refunded. Exactly 100 are charged.
func TestQuotaExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	st, id := newStore(t)
	c := &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	l := newLimiter(st, c)
	ctx := context.Background()
	var charged, refused atomic.Int64
	var wg sync.WaitGroup
	for w := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				tk, _, err := l.Admit(ctx, id, quotaOnly, true)
				var r *Refusal
				if errors.As(err, &r) {
					if r.Reason != CodeQuotaExceeded {
						t.Errorf("refused for %s", r.Reason)
					}
					refused.Add(1)
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				if (w+i)%3 == 0 {
					tk.Refund()
					continue
				}
				tk.Commit(ChannelREST)
				charged.Add(1)
				if i%7 == 0 {
					_ = l.Flush(ctx) // flushes interleaved with admissions lose nothing
				}
			}
		}()
	}
	wg.Wait()
	if charged.Load() != 100 || refused.Load() != 50 {
		t.Fatalf("charged %d calls, %d callers refused; want exactly 100 and 50", charged.Load(), refused.Load())
	}
	if err := l.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	used, err := st.Usage(ctx, id, "2026-11")
	if err != nil || used != 100 {
		t.Fatalf("stored usage %d, %v; want 100", used, err)
	}
	s, err := l.State(ctx, id, quotaOnly)
	if err != nil || s.QuotaUsed != 100 || s.QuotaRemaining() != 0 {
		t.Fatalf("state %+v, %v", s, err)
	}
}

func TestRateWindow(t *testing.T) {
	t.Parallel()
	l, c, id := newRateFixture(t, time.Date(2026, 11, 21, 10, 0, 30, 0, time.UTC))
	ctx := context.Background()
	plan := account.Plan{RatePerMinute: 3}
	for i := range 3 {
		tk, s, err := l.Admit(ctx, id, plan, false)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		// The next unit frees up a minute after the first call.
		if s.RateRemaining != 2-i || !s.RateReset.Equal(time.Date(2026, 11, 21, 10, 1, 30, 0, time.UTC)) {
			t.Fatalf("call %d: remaining %d reset %v", i, s.RateRemaining, s.RateReset)
		}
		tk.Commit(ChannelREST) // free calls are never charged
		c.add(10 * time.Second)
	}
	_, _, err := l.Admit(ctx, id, plan, false)
	var r *Refusal
	if !errors.As(err, &r) || r.Reason != CodeRateLimited || r.RetryAfter != 30*time.Second || r.State.RateRemaining != 0 {
		t.Fatalf("4th call at 10:01:00: %v (%+v), want rate_limited retry 30s", err, r)
	}
	c.add(30 * time.Second) // 10:01:30: the first call leaves the window
	_, s, err := l.Admit(ctx, id, plan, false)
	if err != nil {
		t.Fatalf("a minute after the first call: %v", err)
	}
	if s.RateRemaining != 0 || !s.RateReset.Equal(time.Date(2026, 11, 21, 10, 1, 40, 0, time.UTC)) {
		t.Fatalf("after it: remaining %d reset %v, want 0 and 10:01:40", s.RateRemaining, s.RateReset)
	}
	if s, _ := l.State(ctx, id, plan); s.QuotaUsed != 0 {
		t.Fatalf("free calls were charged: %d", s.QuotaUsed)
	}
}

// TestRateWindowEdge: a full burst at the end of one minute and another at
// the start of the next is the fixed window's hole: the second burst must
// wait until the first is a minute old.
func TestRateWindowEdge(t *testing.T) {
	t.Parallel()
	l, c, id := newRateFixture(t, time.Date(2026, 11, 21, 10, 0, 59, 500e6, time.UTC))
	ctx := context.Background()
	plan := account.Plan{RatePerMinute: 10}
	for i := range 10 {
		if _, _, err := l.Admit(ctx, id, plan, false); err != nil {
			t.Fatalf("call %d at 10:00:59.5: %v", i, err)
		}
	}
	c.add(500 * time.Millisecond) // 10:01:00, a new calendar minute
	_, _, err := l.Admit(ctx, id, plan, false)
	var r *Refusal
	if !errors.As(err, &r) || r.Reason != CodeRateLimited || r.RetryAfter != 59500*time.Millisecond || !strings.HasSuffix(err.Error(), "retry in 60 s") {
		t.Fatalf("11th call half a second later: %v (%+v), want rate_limited, retry in 59.5 s", err, r)
	}
	c.add(59 * time.Second) // 10:01:59, half a second early
	if _, _, err := l.Admit(ctx, id, plan, false); !errors.As(err, &r) {
		t.Fatalf("at 10:01:59: %v, want a refusal", err)
	}
	c.add(500 * time.Millisecond)
	for i := range 10 {
		if _, _, err := l.Admit(ctx, id, plan, false); err != nil {
			t.Fatalf("call %d a minute after the burst: %v", i, err)
		}
	}
}

// TestRateWindowNeverExceeded: for random arrivals and limits, no 60 s
// interval holds more admissions than the limit, and every refusal had
// exactly the limit in the minute before it (the window is not stricter
// than it says). Store failures take their admission back. Each seed has
// its own limiter and account in one store: a store per seed took 30 s.
func TestRateWindowNeverExceeded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := newStore(t)
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 42))
		limit := 1 + rng.IntN(30)
		plan := account.Plan{RatePerMinute: limit}
		start := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		c := &clock{t: start}
		l, id := newLimiter(st, c), addAccount(t, st, fmt.Sprintf("seed%d@example.com", seed))
		var admitted []time.Time
		for range 400 {
			// Bursts and lulls: mostly quick arrivals, now and then a pause.
			gap := time.Duration(rng.Int64N(int64(2 * time.Second)))
			if rng.IntN(20) == 0 {
				gap = time.Duration(rng.Int64N(int64(50 * time.Second)))
			}
			c.add(gap)
			now := c.now()
			_, _, err := l.Admit(ctx, id, plan, false)
			inLastMinute := 0
			for _, a := range admitted {
				if now.Sub(a) < time.Minute {
					inLastMinute++
				}
			}
			if err == nil {
				admitted = append(admitted, now)
				continue
			}
			var r *Refusal
			if !errors.As(err, &r) || r.Reason != CodeRateLimited {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if inLastMinute != limit {
				t.Fatalf("seed %d: refused at %v with %d admissions in the last minute, limit %d", seed, now.Sub(start), inLastMinute, limit)
			}
		}
		for i, a := range admitted {
			n := 0
			for _, b := range admitted[i:] {
				if b.Sub(a) < time.Minute {
					n++
				}
			}
			if n > limit {
				t.Fatalf("seed %d: %d admissions in the minute from %v, limit %d", seed, n, a.Sub(start), limit)
			}
		}
	}
}

// TestRateWindowFollowsPlanChanges: a lower limit refuses until enough
// admissions leave the window; a higher one admits at once.
func TestRateWindowFollowsPlanChanges(t *testing.T) {
	t.Parallel()
	l, c, id := newRateFixture(t, time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC))
	ctx := context.Background()
	for range 8 {
		if _, _, err := l.Admit(ctx, id, account.Plan{RatePerMinute: 10}, false); err != nil {
			t.Fatal(err)
		}
		c.add(time.Second)
	}
	low := account.Plan{RatePerMinute: 5}
	if _, s, err := l.Admit(ctx, id, low, false); err == nil || s.RateRemaining != 0 {
		t.Fatalf("8 in the window, limit lowered to 5: %v, remaining %d; want a refusal", err, s.RateRemaining)
	}
	c.add(55 * time.Second) // the first 4 have left: 4 remain
	if _, s, err := l.Admit(ctx, id, low, false); err != nil || s.RateRemaining != 0 {
		t.Fatalf("4 in the window, limit 5: %v, remaining %d; want admitted, 0 left", err, s.RateRemaining)
	}
	if _, s, err := l.Admit(ctx, id, account.Plan{RatePerMinute: 50}, false); err != nil || s.RateRemaining != 44 {
		t.Fatalf("limit raised to 50: %v, remaining %d; want admitted, 44 left", err, s.RateRemaining)
	}
}

func TestUsageSurvivesRestartAndMonthRollover(t *testing.T) {
	t.Parallel()
	st, id := newStore(t)
	c := &clock{t: time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)}
	ctx := context.Background()
	run, cancel := context.WithCancel(ctx)
	l := newLimiter(st, c)
	done := make(chan struct{})
	go func() { l.Run(run, time.Hour); close(done) }()
	for range 7 {
		tk, _, err := l.Admit(ctx, id, quotaOnly, true)
		if err != nil {
			t.Fatal(err)
		}
		tk.Commit(ChannelMCP)
	}
	cancel() // shutdown: Run flushes before returning
	<-done

	l2 := newLimiter(st, c)
	s, err := l2.State(ctx, id, quotaOnly)
	if err != nil || s.QuotaUsed != 7 || s.Period != "2026-11" {
		t.Fatalf("after restart: %+v, %v; want 7 used in 2026-11", s, err)
	}
	tk, _, _ := l2.Admit(ctx, id, quotaOnly, true)
	tk.Commit(ChannelREST)
	c.add(2 * time.Minute) // December
	s, err = l2.State(ctx, id, quotaOnly)
	if err != nil || s.QuotaUsed != 0 || s.Period != "2026-12" || !s.QuotaReset.Equal(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("in December: %+v, %v", s, err)
	}
	if used, _ := st.Usage(ctx, id, "2026-11"); used != 8 {
		t.Fatalf("November usage %d, want 8 (the unflushed call is written at rollover)", used)
	}
	days, _ := st.DailyUsage(ctx, id, "2026-11-30", "2026-11-30")
	if len(days) != 2 || days[0].Channel != "mcp" || days[0].Calls != 7 || days[1].Calls != 1 {
		t.Fatalf("daily usage %+v, want mcp 7 and rest 1", days)
	}
}

// TestTwoReplicasShareOneQuota: two limiters on one store, flushing now
// and then, admit exactly the quota between them: leases never overshoot.
func TestTwoReplicasShareOneQuota(t *testing.T) {
	t.Parallel()
	st, id := newStore(t)
	c := &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	plan := account.Plan{RatePerMinute: 10, MonthlyQuota: 100}
	replicas := []*Limiter{newLimiter(st, c), newLimiter(st, c)}
	ctx := context.Background()
	total := 0
	for minute := 0; minute < 30; minute++ {
		for _, l := range replicas {
			for range 12 {
				tk, _, err := l.Admit(ctx, id, plan, true)
				if err == nil {
					tk.Commit(ChannelREST)
					total++
				}
			}
			if err := l.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
		c.add(time.Minute)
	}
	if total != 100 {
		t.Fatalf("two replicas admitted %d calls on a quota of 100, want exactly 100", total)
	}
}

func TestStoreFailureIsAnError(t *testing.T) {
	t.Parallel()
	st, id := newStore(t)
	c := &clock{t: time.Now()}
	l := newLimiter(st, c)
	st.Close()
	_, _, err := l.Admit(context.Background(), id, quotaOnly, true)
	var r *Refusal
	if err == nil || errors.As(err, &r) {
		t.Fatalf("admit with a closed store: %v, want a store error", err)
	}
}

// TestConcurrentReplicas: two limiters hammered at once, flushing in the
// background, admit exactly the quota. Like a real client, a worker retries
// a refusal until the quota is spent: units the other replica leased and
// did not use come back at its next flush. In a synctest bubble the
// retries' sleeps and the flush ticks take no real time, and the clock
// moves only when every goroutine waits, so no load can starve the flushes;
// the deadline ends at once a run whose units never come back.
func TestConcurrentReplicas(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st, id := newStore(t)
		c := &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		runCtx, stop := context.WithCancel(ctx)
		var total atomic.Int64
		var wg, runs sync.WaitGroup
		for range 2 {
			l := newLimiter(st, c)
			runs.Go(func() { l.Run(runCtx, 5*time.Millisecond) })
			for range 20 {
				wg.Go(func() {
					// A worker stops at a refusal once the quota is spent, so
					// admissions past it would still be counted.
					for ctx.Err() == nil {
						tk, _, err := l.Admit(ctx, id, quotaOnly, true)
						if err != nil {
							if total.Load() >= 100 {
								return
							}
							time.Sleep(2 * time.Millisecond)
							continue
						}
						tk.Commit(ChannelREST)
						if total.Add(1) > 100 {
							return
						}
					}
				})
			}
		}
		wg.Wait()
		stop()
		runs.Wait()
		if total.Load() != 100 {
			t.Fatalf("two busy replicas admitted %d calls on a quota of 100 (%v)", total.Load(), ctx.Err())
		}
		_, _, err := newLimiter(st, c).Admit(ctx, id, quotaOnly, true)
		if r := (*Refusal)(nil); !errors.As(err, &r) || r.Reason != CodeQuotaExceeded {
			t.Errorf("a third replica after the flushes: %v, want the quota refusal", err)
		}
	})
}

func TestLeaseSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ quota, used, want int64 }{
		{100, 0, 12}, {100, 95, 1}, {100, 100, 1}, {100000, 0, 100}, {250000, 249000, 100}, {250000, 249990, 1},
	} {
		if got := leaseSize(tc.quota, tc.used); got != tc.want {
			t.Errorf("leaseSize(%d, %d) = %d, want %d", tc.quota, tc.used, got, tc.want)
		}
	}
}

// BenchmarkAdmit admits free calls of one account at exactly its rate: 600
// a minute, one every 100 ms of the injected clock, so none is refused.
func BenchmarkAdmit(b *testing.B) {
	l, c, id := newRateFixture(b, time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC))
	ctx := context.Background()
	plan := account.Plan{RatePerMinute: 600}
	for b.Loop() {
		tk, _, err := l.Admit(ctx, id, plan, false)
		if err != nil {
			b.Fatal(err)
		}
		tk.Commit(ChannelREST)
		c.add(100 * time.Millisecond)
	}
}

func TestRetryAfterSecondsRoundsUp(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]int{
		0: 0, time.Nanosecond: 1, time.Second: 1, time.Second + time.Millisecond: 2,
		1500 * time.Millisecond: 2, 59*time.Second + 1: 60,
	} {
		if got := RetryAfterSeconds(d); got != want {
			t.Errorf("RetryAfterSeconds(%v) = %d, want %d: a client waiting that long would be early", d, got, want)
		}
	}
	r := &Refusal{Reason: CodeRateLimited, RetryAfter: 1500 * time.Millisecond, State: State{RateLimit: 10}}
	if got, want := r.Error(), "rate limit of 10 requests per minute exceeded; retry in 2 s"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestDailyUsageIncludesUnflushedCalls: the days add the calls this server
// counted and has not flushed to the flushed ones, once each.
func TestDailyUsageIncludesUnflushedCalls(t *testing.T) {
	t.Parallel()
	st, id := newStore(t)
	c := &clock{t: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
	ctx := context.Background()
	l := newLimiter(st, c)
	call := func(channel string) {
		t.Helper()
		tk, _, err := l.Admit(ctx, id, quotaOnly, true)
		if err != nil {
			t.Fatal(err)
		}
		tk.Commit(channel)
	}
	call(ChannelREST)
	call(ChannelMCP)
	if err := l.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	c.add(24 * time.Hour) // the 30th
	call(ChannelREST)
	call(ChannelREST)
	call(ChannelMCP)
	want := []DayCalls{
		{"2026-11-29", ChannelMCP, 1}, {"2026-11-29", ChannelREST, 1},
		{"2026-11-30", ChannelMCP, 1}, {"2026-11-30", ChannelREST, 2},
	}
	for _, step := range []string{"before flush", "after flush"} {
		got, err := l.DailyUsage(ctx, id, "2026-11-01", "2026-11-30")
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %+v, %v; want %+v", step, got, err, want)
		}
		if err := l.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := l.DailyUsage(ctx, id, "2026-11-30", "2026-11-30"); !slices.Equal(got, want[2:]) {
		t.Errorf("one day: %+v, want %+v", got, want[2:])
	}
}

// slowStore holds AddUsage until release is closed, and can make it fail.
type slowStore struct {
	store.UsageStore
	entered chan struct{}
	release chan struct{}
	fail    bool
}

func (s *slowStore) AddUsage(ctx context.Context, d store.UsageDelta) (int64, error) {
	s.entered <- struct{}{}
	<-s.release
	if s.fail {
		return 0, errors.New("database gone")
	}
	return s.UsageStore.AddUsage(ctx, d)
}

// TestFlushDoesNotHoldRequests: while a flush waits on the store, an
// unlimited plan's calls are admitted and counted; a failed flush loses no
// count, and the next one writes them all.
func TestFlushDoesNotHoldRequests(t *testing.T) {
	t.Parallel()
	st, id := newStore(t)
	c := &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	slow := &slowStore{UsageStore: st, entered: make(chan struct{}), release: make(chan struct{}), fail: true}
	l := newLimiter(slow, c)
	ctx := context.Background()
	unlimited := account.Plan{Name: "bench"}
	call := func() State {
		t.Helper()
		tk, _, err := l.Admit(ctx, id, unlimited, true)
		if err != nil {
			t.Fatal(err)
		}
		return tk.Commit(ChannelREST)
	}
	call()
	call()
	done := make(chan error)
	go func() { done <- l.Flush(ctx) }()
	<-slow.entered // the flush is in the store now
	for range 3 {
		call() // would deadlock if the flush held the account
	}
	if s, err := l.State(ctx, id, unlimited); err != nil || s.QuotaUsed != 5 {
		t.Fatalf("state during the flush: used %d, %v; want 5", s.QuotaUsed, err)
	}
	close(slow.release)
	if err := <-done; err == nil {
		t.Fatal("the failing flush reported no error")
	}
	slow.fail = false
	go func() { <-slow.entered }()
	if err := l.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if used, err := st.Usage(ctx, id, "2026-11"); err != nil || used != 5 {
		t.Fatalf("stored usage %d, %v; want all 5 calls", used, err)
	}
	days, err := l.DailyUsage(ctx, id, "2026-11-21", "2026-11-21")
	if err != nil || len(days) != 1 || days[0].Calls != 5 {
		t.Fatalf("daily usage %+v, %v; want 5 REST calls", days, err)
	}
}

// TestTouchKeepsTheLatestUse: a flush writes each token's latest use since
// the previous flush, once; a later flush with no use writes nothing new.
func TestTouchKeepsTheLatestUse(t *testing.T) {
	t.Parallel()
	st, id := newStore(t)
	ctx := context.Background()
	_, hash, prefix := account.NewSecret()
	tok := account.Token{ID: account.NewID("tok"), AccountID: id, Name: "t", Prefix: prefix, Hash: hash,
		Scopes: []string{account.ScopeRead}, CreatedAt: account.Now()}
	if err := st.CreateToken(ctx, tok, 10); err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	l := newLimiter(st, c)
	t0 := time.Date(2026, 11, 21, 10, 0, 1, 0, time.UTC)
	var wg sync.WaitGroup
	for i := range 50 { // concurrent uses: the latest wins, whatever the order
		wg.Go(func() { l.Touch(tok.ID, t0.Add(time.Duration(i)*time.Millisecond)) })
	}
	wg.Wait()
	lastUsed := func() time.Time {
		t.Helper()
		got, err := st.TokenByID(ctx, tok.ID)
		if err != nil || got.LastUsedAt == nil {
			t.Fatalf("token %+v, %v", got, err)
		}
		return got.LastUsedAt.UTC()
	}
	if err := l.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := lastUsed(), t0.Add(49*time.Millisecond); !got.Equal(want) {
		t.Fatalf("last used %v, want %v", got, want)
	}
	if err := l.Flush(ctx); err != nil || !lastUsed().Equal(t0.Add(49*time.Millisecond)) {
		t.Fatalf("a flush with no use changed last used to %v (%v)", lastUsed(), err)
	}
	l.Touch(tok.ID, t0.Add(time.Minute))
	// A use within a millisecond of the one recorded is left out.
	l.Touch(tok.ID, t0.Add(time.Minute+time.Millisecond/2))
	if err := l.Flush(ctx); err != nil || !lastUsed().Equal(t0.Add(time.Minute)) {
		t.Fatalf("last used %v after a later use (%v)", lastUsed(), err)
	}
}

// TestUnlockedCountsAreExact: a plan without a rate window is admitted and
// settled without the account's lock. Its calls, raced against flushes, the
// turn of a day and the entry's drop after idling, are all counted once:
// in the month's total and on the day each was committed.
func TestUnlockedCountsAreExact(t *testing.T) {
	t.Parallel()
	st, id := newStore(t)
	c := &clock{t: time.Date(2026, 11, 21, 23, 59, 59, 0, time.UTC)}
	l := newLimiter(st, c)
	ctx := context.Background()
	unlimited := account.Plan{Name: "bench"}
	const workers, calls = 8, 300
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range calls {
				tk, _, err := l.Admit(ctx, id, unlimited, true)
				if err != nil {
					t.Error(err)
					return
				}
				if w == 0 && i == calls/2 {
					c.add(time.Second) // midnight: the 22nd
				}
				channel := ChannelREST
				if i%4 == 0 {
					channel = ChannelMCP
				}
				tk.Commit(channel)
				if i%100 == w {
					if err := l.Flush(ctx); err != nil { // while the others count
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	c.add(idleAfter + time.Minute)
	if err := l.Flush(ctx); err != nil { // writes the rest and drops the idle entry
		t.Fatal(err)
	}
	if _, ok := l.accounts.Load(id); ok {
		t.Fatal("the idle entry was not dropped")
	}
	tk, _, err := l.Admit(ctx, id, unlimited, true)
	if err != nil {
		t.Fatal(err)
	}
	st1 := tk.Commit(ChannelREST)
	const total = workers*calls + 1
	if st1.QuotaUsed != total {
		t.Errorf("state after the drop: used %d, want %d", st1.QuotaUsed, total)
	}
	if err := l.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if used, err := st.Usage(ctx, id, "2026-11"); err != nil || used != total {
		t.Fatalf("stored usage %d, %v; want %d", used, err, total)
	}
	days, err := l.DailyUsage(ctx, id, "2026-11-21", "2026-11-22")
	if err != nil {
		t.Fatal(err)
	}
	var sum, mcp int64
	for _, d := range days {
		sum += d.Calls
		if d.Channel == ChannelMCP {
			mcp += d.Calls
		}
	}
	if sum != total || mcp != workers*calls/4 || len(days) != 4 {
		t.Fatalf("daily usage %+v: %d calls, %d by MCP; want %d and %d on two days", days, sum, mcp, total, workers*calls/4)
	}
}

// TestAdmitIntoCountsAtArrival: AdmitInto counts a request at the time
// given, the request's arrival, not at the limiter's clock.
func TestAdmitIntoCountsAtArrival(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	l, c, id := newRateFixture(t, start)
	ctx := context.Background()
	plan := account.Plan{RatePerMinute: 1}
	c.add(30 * time.Second)
	if s, err := l.AdmitInto(ctx, new(Ticket), id, plan, false, start); err != nil || !s.RateReset.Equal(start.Add(time.Minute)) {
		t.Fatalf("admitted at the start: %v, window frees at %v; want %v", err, s.RateReset, start.Add(time.Minute))
	}
	// A minute after that arrival the window is free again, whatever the
	// limiter's clock reads (30 s after the start).
	if _, err := l.AdmitInto(ctx, new(Ticket), id, plan, false, start.Add(time.Minute)); err != nil {
		t.Fatalf("a minute after the first arrival: %v", err)
	}
}

// Package limits enforces per-minute rate limits and monthly quotas.
//
// Counting happens in memory so the hot path never waits for a database
// write. Each server keeps, per account, the period's usage as last read
// from the store (base), the calls it has charged but not yet written
// (committed and flushing), and the calls admitted whose outcome is not known
// yet (reserved). A call is admitted only while base + flushing + committed +
// reserved < quota, all under one lock, so one server never exceeds a quota.
// A flush every second adds the local counts to the store's shared counter
// and reads back the total, which brings in the other replicas' calls.
//
// Across replicas a server cannot see the calls others admitted since their
// last flush, so an account can go over its quota by at most what the other
// replicas admit in one flush interval: (replicas - 1) x rate_per_minute at
// the very worst, since a replica admits at most rate_per_minute calls per
// window. Per-minute windows are counted per server.
package limits

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
)

// Refusal reasons, used as problem codes.
const (
	RateLimited   = "rate_limited"
	QuotaExceeded = "quota_exceeded"
)

// Channels a charged call can come through.
const (
	ChannelREST = "rest"
	ChannelMCP  = "mcp"
)

// State is an account's standing in both windows.
type State struct {
	RateLimit     int       `json:"limit"`
	RateRemaining int       `json:"remaining"`
	RateReset     time.Time `json:"reset"`
	QuotaLimit    int       `json:"-"`
	QuotaUsed     int64     `json:"-"`
	QuotaReset    time.Time `json:"-"`
	Period        string    `json:"-"`
}

// QuotaRemaining is what is left of the monthly quota; -1 when unlimited.
func (s State) QuotaRemaining() int64 {
	if s.QuotaLimit == 0 {
		return -1
	}
	return max(0, int64(s.QuotaLimit)-s.QuotaUsed)
}

// Refusal says why a call was refused and when to retry.
type Refusal struct {
	Reason     string
	RetryAfter time.Duration
	State      State
}

func (r *Refusal) Error() string {
	if r.Reason == QuotaExceeded {
		return fmt.Sprintf("monthly quota of %d calls is used up; it resets at %s", r.State.QuotaLimit, r.State.QuotaReset.Format(time.RFC3339))
	}
	return fmt.Sprintf("rate limit of %d requests per minute exceeded; retry in %d s", r.State.RateLimit, int(r.RetryAfter.Seconds()))
}

// Limiter holds the counters of one server.
type Limiter struct {
	st  store.UsageStore
	log *slog.Logger
	now func() time.Time

	// flushMu serialises flushes: an entry has one flushing slot.
	flushMu  sync.Mutex
	mu       sync.Mutex
	accounts map[string]*entry
	touched  map[string]time.Time
}

type entry struct {
	mu         sync.Mutex
	period     string // the month base belongs to; "" until loaded
	base       int64
	flushing   int64
	committed  int64
	reserved   int64
	days       map[store.DayChannel]int64
	window     int64 // Unix minute of the rate window
	count      int
	lastActive time.Time
}

// New returns a Limiter on st.
func New(st store.UsageStore, log *slog.Logger) *Limiter {
	return &Limiter{st: st, log: log, now: time.Now, accounts: map[string]*entry{}, touched: map[string]time.Time{}}
}

func period(t time.Time) string { return t.UTC().Format("2006-01") }

func monthEnd(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
}

func (l *Limiter) entry(accountID string) *entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.accounts[accountID]
	if !ok {
		e = &entry{}
		l.accounts[accountID] = e
	}
	return e
}

// load makes sure e holds the current period's base. Called with e.mu held:
// concurrent first calls of one account wait for one read.
func (l *Limiter) load(ctx context.Context, e *entry, accountID string, now time.Time) error {
	p := period(now)
	if e.period == p {
		return nil
	}
	used, err := l.st.Usage(ctx, accountID, p)
	if err != nil {
		return err
	}
	// Calls of the previous month not flushed yet belong to that month:
	// write them before the entry moves on.
	if e.committed > 0 {
		if err := l.flushEntryLocked(ctx, e, accountID); err != nil {
			return err
		}
	}
	e.period, e.base = p, used
	return nil
}

// state computes the headers' view of an entry. Called with e.mu held.
func (e *entry) state(plan account.Plan, now time.Time) State {
	minute := now.Unix() / 60
	count := e.count
	if e.window != minute {
		count = 0
	}
	s := State{
		RateLimit:  plan.RatePerMinute,
		RateReset:  time.Unix((minute+1)*60, 0).UTC(),
		QuotaLimit: plan.MonthlyQuota,
		QuotaUsed:  e.base + e.flushing + e.committed,
		QuotaReset: monthEnd(now),
		Period:     e.period,
	}
	if plan.RatePerMinute > 0 {
		s.RateRemaining = max(0, plan.RatePerMinute-count)
	} else {
		s.RateRemaining = -1
	}
	return s
}

// Ticket is an admitted call. Exactly one of Commit or Refund must follow
// for a charged call; for a free call both are no-ops.
type Ticket struct {
	l       *Limiter
	e       *entry
	plan    account.Plan
	charged bool
	done    bool
}

// Admit counts one request against the account's rate window and, when
// charge is true, reserves one unit of its monthly quota. A refused request
// returns a *Refusal.
func (l *Limiter) Admit(ctx context.Context, accountID string, plan account.Plan, charge bool) (*Ticket, State, error) {
	now := l.now()
	e := l.entry(accountID)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := l.load(ctx, e, accountID, now); err != nil {
		return nil, State{}, fmt.Errorf("read quota usage: %w", err)
	}
	e.lastActive = now
	minute := now.Unix() / 60
	if e.window != minute {
		e.window, e.count = minute, 0
	}
	if plan.RatePerMinute > 0 && e.count >= plan.RatePerMinute {
		st := e.state(plan, now)
		return nil, st, &Refusal{Reason: RateLimited, RetryAfter: st.RateReset.Sub(now), State: st}
	}
	e.count++
	if charge && plan.MonthlyQuota > 0 && e.base+e.flushing+e.committed+e.reserved >= int64(plan.MonthlyQuota) {
		st := e.state(plan, now)
		return nil, st, &Refusal{Reason: QuotaExceeded, RetryAfter: st.QuotaReset.Sub(now), State: st}
	}
	if charge {
		e.reserved++
	}
	return &Ticket{l: l, e: e, plan: plan, charged: charge}, e.state(plan, now), nil
}

// Commit charges the reserved unit to channel and returns the state after it.
func (t *Ticket) Commit(channel string) State {
	return t.finish(true, channel)
}

// Refund releases the reserved unit: the call failed and is not charged.
func (t *Ticket) Refund() State {
	return t.finish(false, "")
}

func (t *Ticket) finish(charge bool, channel string) State {
	now := t.l.now()
	t.e.mu.Lock()
	defer t.e.mu.Unlock()
	if t.charged && !t.done {
		t.e.reserved--
		if charge {
			t.e.committed++
			if t.e.days == nil {
				t.e.days = map[store.DayChannel]int64{}
			}
			t.e.days[store.DayChannel{Day: now.UTC().Format(time.DateOnly), Channel: channel}]++
		}
	}
	t.done = true
	return t.e.state(t.plan, now)
}

// State returns the account's standing without counting a request.
func (l *Limiter) State(ctx context.Context, accountID string, plan account.Plan) (State, error) {
	now := l.now()
	e := l.entry(accountID)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := l.load(ctx, e, accountID, now); err != nil {
		return State{}, fmt.Errorf("read quota usage: %w", err)
	}
	return e.state(plan, now), nil
}

// Touch records that a token was used; the time is written on the next flush.
func (l *Limiter) Touch(tokenID string, at time.Time) {
	l.mu.Lock()
	l.touched[tokenID] = at
	l.mu.Unlock()
}

// flushEntryLocked writes an entry's committed calls. Called with e.mu held.
func (l *Limiter) flushEntryLocked(ctx context.Context, e *entry, accountID string) error {
	delta := store.UsageDelta{AccountID: accountID, Period: e.period, Calls: e.committed, Days: e.days}
	used, err := l.st.AddUsage(ctx, delta)
	if err != nil {
		return err
	}
	e.committed, e.days, e.base = 0, nil, used
	return nil
}

// Flush writes every account's unflushed calls and refreshes the totals of
// recently active accounts from the store, so calls counted by other
// replicas are seen. Idle entries are dropped.
func (l *Limiter) Flush(ctx context.Context) error {
	l.flushMu.Lock()
	defer l.flushMu.Unlock()
	now := l.now()
	l.mu.Lock()
	ids := make([]string, 0, len(l.accounts))
	for id := range l.accounts {
		ids = append(ids, id)
	}
	touched := l.touched
	l.touched = map[string]time.Time{}
	l.mu.Unlock()

	var firstErr error
	for _, id := range ids {
		if err := l.flushAccount(ctx, id, now); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if err := l.st.TouchTokens(ctx, touched); err != nil {
		l.mu.Lock()
		for id, at := range touched {
			if prev, ok := l.touched[id]; !ok || prev.Before(at) {
				l.touched[id] = at
			}
		}
		l.mu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}

// idleAfter is how long an account's counters stay in memory unused.
const idleAfter = 10 * time.Minute

func (l *Limiter) flushAccount(ctx context.Context, id string, now time.Time) error {
	l.mu.Lock()
	e := l.accounts[id]
	l.mu.Unlock()
	e.mu.Lock()
	if e.period == "" {
		e.mu.Unlock()
		return nil
	}
	if e.committed == 0 && e.reserved == 0 && now.Sub(e.lastActive) > idleAfter {
		e.mu.Unlock()
		l.mu.Lock()
		delete(l.accounts, id)
		l.mu.Unlock()
		return nil
	}
	// Move the committed calls to flushing so admissions keep counting them
	// while the write is under way without holding the lock over it.
	p := e.period
	delta := store.UsageDelta{AccountID: id, Period: p, Calls: e.committed, Days: e.days}
	e.flushing, e.committed, e.days = e.committed, 0, nil
	e.mu.Unlock()

	var (
		used int64
		err  error
	)
	if delta.Calls > 0 {
		used, err = l.st.AddUsage(ctx, delta)
	} else {
		used, err = l.st.Usage(ctx, id, p)
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		// Keep the calls to write them next time.
		e.committed += e.flushing
		for k, n := range delta.Days {
			if e.days == nil {
				e.days = map[store.DayChannel]int64{}
			}
			e.days[k] += n
		}
		e.flushing = 0
		return fmt.Errorf("flush usage of %s: %w", id, err)
	}
	e.flushing = 0
	if e.period == p {
		e.base = used
	}
	return nil
}

// Run flushes every interval until ctx ends, then flushes once more so a
// graceful shutdown loses no usage.
func (l *Limiter) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := l.Flush(fctx); err != nil {
				l.log.Error("final usage flush failed", "err", err)
			}
			cancel()
			return
		case <-t.C:
			if err := l.Flush(ctx); err != nil && ctx.Err() == nil {
				l.log.Warn("usage flush failed; will retry", "err", err)
			}
		}
	}
}

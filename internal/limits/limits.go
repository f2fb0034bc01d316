// Package limits enforces per-minute rate limits and monthly quotas. The
// quota is one store counter that replicas lease blocks from
// (docs/architecture.md, "Quota leases"); the rate limit is an exact
// sliding window per server.
package limits

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
)

const (
	CodeRateLimited   = "rate_limited"
	CodeQuotaExceeded = "quota_exceeded"
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

// Limited is true when a window limits the account: its answers have
// limit headers.
func (s State) Limited() bool { return s.RateLimit > 0 || s.QuotaLimit > 0 }

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
	if r.Reason == CodeQuotaExceeded {
		return fmt.Sprintf("monthly quota of %d calls is used up; it resets at %s", r.State.QuotaLimit, r.State.QuotaReset.Format(time.RFC3339))
	}
	return fmt.Sprintf("rate limit of %d requests per minute exceeded; retry in %d s", r.State.RateLimit, RetryAfterSeconds(r.RetryAfter))
}

// RetryAfterSeconds rounds a wait up to whole seconds, so a client that
// waits that long is never early.
func RetryAfterSeconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// Limiter holds the counters of one server. A call of a plan without a rate
// window that finds its month loaded and, on a quota plan, a leased unit at
// hand is admitted and settled with atomics alone, without the lock.
type Limiter struct {
	st  store.UsageStore
	log *slog.Logger
	now func() time.Time

	// accounts maps an account id to its *entry.
	accounts sync.Map
	// used holds each token's last use since the last flush (*atomic.Int64,
	// Unix nanoseconds).
	used sync.Map
}

// entry is one account's counters on this server. Its lock is held over a
// lease, a month's settlement, the rate window and reads of the daily
// counts; the periodic flush writes without it, and those wait for it.
type entry struct {
	mu sync.Mutex
	// flushing is true while a periodic flush writes; flushed signals its end.
	flushing bool
	flushed  *sync.Cond
	// pending is what the flush in flight adds to used.
	pending atomic.Int64
	// used is the store's counter as last seen.
	used atomic.Int64
	// balance is leased units not used yet.
	balance atomic.Int64
	// month is the calendar month counted; nil until loaded.
	month atomic.Pointer[month]
	// days holds the daily counts of a failed flush, for the next one.
	days       map[store.DayChannel]int64
	rate       slidingLog
	lastActive atomic.Int64 // Unix nanoseconds
	// dropped is set when the entry leaves the map: look the account up again.
	dropped atomic.Bool
}

type month struct {
	period     string // YYYY-MM
	start, end time.Time
	// leasedOut is admitted calls holding a leased unit, outcome pending.
	leasedOut atomic.Int64
	// unflushed is calls of unlimited plans not yet added to the store.
	unflushed atomic.Int64
	// today is the day calls are counted on; days every day of the month
	// counted, so a flush finds a late call of a day that has ended.
	today atomic.Pointer[dayCount]
	days  []*dayCount
}

func New(st store.UsageStore, log *slog.Logger) *Limiter {
	return &Limiter{st: st, log: log, now: time.Now}
}

func newMonth(now time.Time) *month {
	u := now.UTC()
	start := time.Date(u.Year(), u.Month(), 1, 0, 0, 0, 0, time.UTC)
	return &month{period: start.Format("2006-01"), start: start, end: start.AddDate(0, 1, 0)}
}

func (m *month) holds(now time.Time) bool {
	return m != nil && !now.Before(m.start) && now.Before(m.end)
}

func (l *Limiter) entryOf(accountID string) *entry {
	if v, ok := l.accounts.Load(accountID); ok {
		return v.(*entry)
	}
	e := &entry{}
	e.flushed = sync.NewCond(&e.mu)
	v, _ := l.accounts.LoadOrStore(accountID, e)
	return v.(*entry)
}

func (l *Limiter) lockEntry(accountID string) *entry {
	for {
		e := l.entryOf(accountID)
		e.mu.Lock()
		if !e.dropped.Load() {
			return e
		}
		e.mu.Unlock()
	}
}

// load makes sure e counts now's month and returns it. Called with e.mu held.
func (l *Limiter) load(ctx context.Context, e *entry, accountID string, now time.Time) (*month, error) {
	if m := e.month.Load(); m.holds(now) {
		return m, nil
	}
	e.waitFlush()
	m := e.month.Load()
	if m.holds(now) {
		return m, nil // another caller loaded it while this one waited
	}
	if m != nil {
		if err := l.flushLocked(ctx, e, m, accountID); err != nil {
			return nil, err
		}
	}
	next := newMonth(now)
	used, err := l.st.Usage(ctx, accountID, next.period)
	if err != nil {
		return nil, err
	}
	e.used.Store(used)
	e.balance.Store(0)
	e.month.Store(next)
	return next, nil
}

func (e *entry) consumed(m *month) int64 {
	return e.used.Load() + e.pending.Load() + m.unflushed.Load() - e.balance.Load() - m.leasedOut.Load()
}

func (e *entry) quotaState(plan account.Plan, m *month, now time.Time) State {
	return State{
		RateRemaining: -1,
		RateReset:     now.UTC(),
		QuotaLimit:    plan.MonthlyQuota,
		QuotaUsed:     e.consumed(m),
		QuotaReset:    m.end,
		Period:        m.period,
	}
}

// state computes the headers' view of an entry. Called with e.mu held.
func (e *entry) state(plan account.Plan, m *month, now time.Time) State {
	s := e.quotaState(plan, m, now)
	if plan.RatePerMinute > 0 {
		e.rate.expire(now)
		s.RateLimit = plan.RatePerMinute
		s.RateRemaining = max(0, plan.RatePerMinute-e.rate.n)
		s.RateReset = e.rate.freeAt(now)
	}
	return s
}

// State returns the account's standing without counting a request.
func (l *Limiter) State(ctx context.Context, accountID string, plan account.Plan) (State, error) {
	now := l.now()
	e := l.lockEntry(accountID)
	defer e.mu.Unlock()
	m, err := l.load(ctx, e, accountID, now)
	if err != nil {
		return State{}, fmt.Errorf("read quota usage: %w", err)
	}
	return e.state(plan, m, now), nil
}

// Package limits enforces per-minute rate limits and monthly quotas.
//
// Quotas are shared by every replica through one counter in the store that
// never passes the quota: servers lease small blocks of units from it and
// admit calls only against units they hold (docs/architecture.md, "Quota
// leases"). The rate limit is an exact sliding window counted per server, so
// no 60 s interval admits more than the limit, even across a minute's turn.
package limits

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
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

// RetryAfterSeconds rounds a wait up to whole seconds, as every Retry-After
// and retry_after says it: the window frees units at any instant, and a
// client that waits exactly that long must never be early.
func RetryAfterSeconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// Limiter holds the counters of one server.
type Limiter struct {
	st  store.UsageStore
	log *slog.Logger
	now func() time.Time

	mu       sync.Mutex
	accounts map[string]*entry
	// used holds each token's last use since the last flush
	// (*atomic.Int64, Unix nanoseconds; 0 when unused since): a request
	// stores into it without a lock.
	used sync.Map
}

// entry is one account's counters on this server. Its lock is held over a
// lease, a month's settlement and reads of the daily counts; the periodic
// flush writes without it (see flushAccount), and those wait for the flush
// in flight, so store calls that change the counters never interleave.
type entry struct {
	mu sync.Mutex
	// flushing is true while a periodic flush writes; flushed signals its end.
	flushing bool
	flushed  *sync.Cond
	// pending is what the flush in flight adds to used.
	pending int64
	period  string // the month the counters belong to; "" until loaded
	// used is the store's counter as last seen: units granted to any server
	// (quota plans) or calls added (unlimited plans).
	used int64
	// balance is leased units not used yet.
	balance int64
	// leasedOut is admitted calls holding a leased unit, outcome pending.
	leasedOut int64
	// unflushed is calls of unlimited plans not yet added to the store.
	unflushed  int64
	days       map[store.DayChannel]int64
	rate       slidingLog
	lastActive time.Time
	// day is the UTC date of the calls counted last, until dayEnd.
	day    string
	dayEnd time.Time
	// dropped is set when the entry leaves the map: a caller that found it
	// just before must look the account up again.
	dropped bool
}

func New(st store.UsageStore, log *slog.Logger) *Limiter {
	return &Limiter{st: st, log: log, now: time.Now, accounts: map[string]*entry{}}
}

func period(t time.Time) string { return t.UTC().Format("2006-01") }

func monthEnd(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
}

func (l *Limiter) lockEntry(accountID string) *entry {
	for {
		l.mu.Lock()
		e, ok := l.accounts[accountID]
		if !ok {
			e = &entry{}
			e.flushed = sync.NewCond(&e.mu)
			l.accounts[accountID] = e
		}
		l.mu.Unlock()
		e.mu.Lock()
		if !e.dropped {
			return e
		}
		e.mu.Unlock()
	}
}

// dayOf returns now's UTC date, formatting it once a day. Called with e.mu held.
func (e *entry) dayOf(now time.Time) string {
	if e.day == "" || !now.Before(e.dayEnd) || now.Before(e.dayEnd.AddDate(0, 0, -1)) {
		u := now.UTC()
		e.day = u.Format(time.DateOnly)
		e.dayEnd = time.Date(u.Year(), u.Month(), u.Day()+1, 0, 0, 0, 0, time.UTC)
	}
	return e.day
}

// countDay adds n calls to a day and channel. Called with e.mu held.
func (e *entry) countDay(k store.DayChannel, n int64) {
	if e.days == nil {
		e.days = map[store.DayChannel]int64{}
	}
	e.days[k] += n
}

// delta is what a flush writes: the calls of unlimited plans less the
// leased units handed back, and the daily counts. Called with e.mu held.
func (e *entry) delta(accountID string) store.UsageDelta {
	return store.UsageDelta{AccountID: accountID, Period: e.period, Calls: e.unflushed - e.balance, Days: e.days}
}

// waitFlush returns once no periodic flush of e is in flight. Called with
// e.mu held, which it releases while it waits.
func (e *entry) waitFlush() {
	for e.flushing {
		e.flushed.Wait()
	}
}

// load makes sure e holds the current period. Called with e.mu held.
func (l *Limiter) load(ctx context.Context, e *entry, accountID string, now time.Time) error {
	p := period(now)
	if e.period == p {
		return nil
	}
	e.waitFlush()
	if e.period == p {
		return nil // another caller loaded it while this one waited
	}
	if e.period != "" {
		// Settle the month that ended before counting the new one.
		if err := l.flushLocked(ctx, e, accountID); err != nil {
			return err
		}
	}
	used, err := l.st.Usage(ctx, accountID, p)
	if err != nil {
		return err
	}
	e.period, e.used, e.balance = p, used, 0
	return nil
}

func (e *entry) consumed() int64 {
	return e.used + e.pending + e.unflushed - e.balance - e.leasedOut
}

// state computes the headers' view of an entry. Called with e.mu held.
func (e *entry) state(plan account.Plan, now time.Time) State {
	e.rate.expire(now)
	s := State{
		RateLimit:  plan.RatePerMinute,
		RateReset:  e.rate.freeAt(now),
		QuotaLimit: plan.MonthlyQuota,
		QuotaUsed:  e.consumed(),
		QuotaReset: monthEnd(now),
		Period:     e.period,
	}
	if plan.RatePerMinute > 0 {
		s.RateRemaining = max(0, plan.RatePerMinute-e.rate.n)
	} else {
		s.RateRemaining = -1
	}
	return s
}

const rateWindow = time.Minute

// slidingLog is one account's admissions in the last rateWindow, in a ring
// that grows up to the plan's limit, so a rarely calling account keeps a few
// bytes.
type slidingLog struct {
	at    []int64 // Unix nanoseconds; a ring whose oldest entry is at start
	start int
	n     int
}

func (s *slidingLog) expire(now time.Time) {
	edge := now.Add(-rateWindow).UnixNano()
	for s.n > 0 && s.at[s.start] <= edge {
		s.start = (s.start + 1) % len(s.at)
		s.n--
	}
}

// admit records an admission at now unless limit admissions are in the
// window already (more than limit after the plan's limit was lowered).
func (s *slidingLog) admit(now time.Time, limit int) bool {
	s.expire(now)
	if s.n >= limit {
		return false
	}
	if s.n == len(s.at) || len(s.at) > limit {
		s.reshape(min(limit, max(8, 2*s.n)))
	}
	s.at[(s.start+s.n)%len(s.at)] = now.UnixNano()
	s.n++
	return true
}

// unadmit takes back the latest admission: the request was not admitted
// after all (the store failed).
func (s *slidingLog) unadmit() { s.n-- }

func (s *slidingLog) reshape(size int) {
	at := make([]int64, size)
	for i := range s.n {
		at[i] = s.at[(s.start+i)%len(s.at)]
	}
	s.at, s.start = at, 0
}

// freeAt is when the oldest admission leaves the window; now when it is empty.
func (s *slidingLog) freeAt(now time.Time) time.Time {
	if s.n == 0 {
		return now.UTC()
	}
	return time.Unix(0, s.at[s.start]).Add(rateWindow).UTC()
}

// maxLease bounds one lease, and so what a crash can strand.
const maxLease = 100

// leaseSize asks for an eighth of what is left: big enough that a busy
// account needs the database rarely, small enough that the last units of a
// quota are not stranded on one replica.
func leaseSize(quota, used int64) int64 {
	return min(maxLease, max(1, (quota-used)/8))
}

// Ticket is an admitted call. Commit or Refund must follow.
type Ticket struct {
	l      *Limiter
	e      *entry
	plan   account.Plan
	period string
	leased bool // holds a leased unit
	counts bool // a charged call of an unlimited plan
	done   bool
}

// Admit counts one request against the account's rate window and, when
// charge is true, takes one unit of its monthly quota (leasing more from the
// store when this server holds none). A refused request returns a *Refusal.
func (l *Limiter) Admit(ctx context.Context, accountID string, plan account.Plan, charge bool) (*Ticket, State, error) {
	now := l.now()
	e := l.lockEntry(accountID)
	defer e.mu.Unlock()
	if err := l.load(ctx, e, accountID, now); err != nil {
		return nil, State{}, fmt.Errorf("read quota usage: %w", err)
	}
	e.lastActive = now
	limited := plan.RatePerMinute > 0
	if limited && !e.rate.admit(now, plan.RatePerMinute) {
		st := e.state(plan, now)
		return nil, st, &Refusal{Reason: CodeRateLimited, RetryAfter: st.RateReset.Sub(now), State: st}
	}
	t := &Ticket{l: l, e: e, plan: plan, period: e.period}
	if charge {
		if st, err := l.takeUnit(ctx, e, t, accountID, plan, now); err != nil {
			var refusal *Refusal
			if limited && !errors.As(err, &refusal) {
				e.rate.unadmit() // the store failed: the request was not admitted
			}
			return nil, st, err
		}
	}
	return t, e.state(plan, now), nil
}

// takeUnit charges t to the monthly quota. An exhausted quota is a *Refusal
// with the state; a store failure returns the zero State. Called with e.mu held.
func (l *Limiter) takeUnit(ctx context.Context, e *entry, t *Ticket, accountID string, plan account.Plan, now time.Time) (State, error) {
	if plan.MonthlyQuota == 0 {
		t.counts = true
		return State{}, nil
	}
	if e.balance == 0 {
		e.waitFlush() // it hands the balance back; a failed one restores it
	}
	if e.balance == 0 {
		quota := int64(plan.MonthlyQuota)
		granted, used, err := l.st.LeaseUsage(ctx, accountID, e.period, leaseSize(quota, e.used), quota)
		if err != nil {
			return State{}, fmt.Errorf("lease quota: %w", err)
		}
		e.used, e.balance = used, granted
	}
	if e.balance == 0 {
		st := e.state(plan, now)
		return st, &Refusal{Reason: CodeQuotaExceeded, RetryAfter: st.QuotaReset.Sub(now), State: st}
	}
	e.balance--
	e.leasedOut++
	t.leased = true
	return State{}, nil
}

// Charge takes one quota unit for a call whose Admit already counted
// against the rate window: an MCP tools/call inside POST /mcp, or one VIN
// of a REST batch. commit(true) charges it to channel, commit(false)
// refunds it; only the first commit counts.
func (l *Limiter) Charge(ctx context.Context, accountID string, plan account.Plan, channel string) (func(success bool), State, error) {
	now := l.now()
	e := l.lockEntry(accountID)
	defer e.mu.Unlock()
	if err := l.load(ctx, e, accountID, now); err != nil {
		return nil, State{}, fmt.Errorf("read quota usage: %w", err)
	}
	e.lastActive = now
	t := &Ticket{l: l, e: e, plan: plan, period: e.period}
	if st, err := l.takeUnit(ctx, e, t, accountID, plan, now); err != nil {
		return nil, st, err
	}
	return func(success bool) {
		if success {
			t.Commit(channel)
		} else {
			t.Refund()
		}
	}, e.state(plan, now), nil
}

// Commit charges the call to channel and returns the state after it.
func (t *Ticket) Commit(channel string) State {
	return t.finish(true, channel)
}

// Refund releases the call's unit: the call failed and is not charged.
func (t *Ticket) Refund() State {
	return t.finish(false, "")
}

func (t *Ticket) finish(charge bool, channel string) State {
	now := t.l.now()
	e := t.e
	e.mu.Lock()
	defer e.mu.Unlock()
	if t.done || (!t.leased && !t.counts) {
		t.done = true
		return e.state(t.plan, now)
	}
	t.done = true
	// A call that straddled the turn of a month was settled with the old
	// month: its unit stays used there, and the new month is not touched.
	if t.period != e.period {
		return e.state(t.plan, now)
	}
	if t.leased {
		e.leasedOut--
		if !charge {
			e.balance++
		}
	}
	if charge {
		if t.counts {
			e.unflushed++
		}
		e.countDay(store.DayChannel{Day: e.dayOf(now), Channel: channel}, 1)
	}
	return e.state(t.plan, now)
}

// State returns the account's standing without counting a request.
func (l *Limiter) State(ctx context.Context, accountID string, plan account.Plan) (State, error) {
	now := l.now()
	e := l.lockEntry(accountID)
	defer e.mu.Unlock()
	if err := l.load(ctx, e, accountID, now); err != nil {
		return State{}, fmt.Errorf("read quota usage: %w", err)
	}
	return e.state(plan, now), nil
}

// DayCalls is one day's calls of an account on one channel.
type DayCalls struct {
	Day     string // YYYY-MM-DD, UTC
	Channel string // ChannelREST or ChannelMCP
	Calls   int64
}

// DailyUsage returns the account's calls per day and channel between two
// days (YYYY-MM-DD, inclusive), sorted by day and channel. It adds the calls
// counted here and not flushed yet, so the days agree with State; the entry
// stays locked over the read so a flush cannot count them twice.
func (l *Limiter) DailyUsage(ctx context.Context, accountID, fromDay, toDay string) ([]DayCalls, error) {
	e := l.lockEntry(accountID)
	defer e.mu.Unlock()
	e.waitFlush() // the days in flight are in neither the store nor e.days
	rows, err := l.st.DailyUsage(ctx, accountID, fromDay, toDay)
	if err != nil {
		return nil, fmt.Errorf("read daily usage: %w", err)
	}
	sums := map[store.DayChannel]int64{}
	for _, r := range rows {
		sums[store.DayChannel{Day: r.Day, Channel: r.Channel}] += r.Calls
	}
	for k, n := range e.days {
		if k.Day >= fromDay && k.Day <= toDay {
			sums[k] += n
		}
	}
	out := make([]DayCalls, 0, len(sums))
	for k, n := range sums {
		out = append(out, DayCalls{Day: k.Day, Channel: k.Channel, Calls: n})
	}
	slices.SortFunc(out, func(a, b DayCalls) int {
		return cmp.Or(strings.Compare(a.Day, b.Day), strings.Compare(a.Channel, b.Channel))
	})
	return out, nil
}

// Touch records that a token was used; the time is written on the next
// flush. It takes no lock once the token is known since that flush.
func (l *Limiter) Touch(tokenID string, at time.Time) {
	v, ok := l.used.Load(tokenID)
	if !ok {
		v, _ = l.used.LoadOrStore(tokenID, new(atomic.Int64))
	}
	last := v.(*atomic.Int64)
	for n := at.UnixNano(); ; {
		prev := last.Load()
		if prev >= n || last.CompareAndSwap(prev, n) {
			return
		}
	}
}

// takeTouched returns and resets the token uses recorded since the last call.
func (l *Limiter) takeTouched() map[string]time.Time {
	out := map[string]time.Time{}
	l.used.Range(func(k, v any) bool {
		if n := v.(*atomic.Int64).Swap(0); n != 0 {
			out[k.(string)] = time.Unix(0, n).UTC()
		}
		return true
	})
	return out
}

// flushLocked hands back unused leased units, adds the calls of unlimited
// plans and the daily counts, and reads back the shared counter. Called
// with e.mu held; on failure the counts stay for the next flush.
func (l *Limiter) flushLocked(ctx context.Context, e *entry, accountID string) error {
	delta := e.delta(accountID)
	used, err := l.write(ctx, delta)
	if err != nil {
		return err
	}
	e.used, e.unflushed, e.balance, e.days = used, 0, 0, nil
	return nil
}

// write adds a delta to the store, or only reads the counter when there is
// nothing to add, and returns the store's counter.
func (l *Limiter) write(ctx context.Context, delta store.UsageDelta) (int64, error) {
	var (
		used int64
		err  error
	)
	if delta.Calls != 0 || len(delta.Days) > 0 {
		used, err = l.st.AddUsage(ctx, delta)
	} else {
		used, err = l.st.Usage(ctx, delta.AccountID, delta.Period)
	}
	if err != nil {
		return 0, fmt.Errorf("flush usage of %s: %w", delta.AccountID, err)
	}
	return used, nil
}

// Flush settles every account and reads back the shared counters, so /me and
// the headers see the other replicas' calls. Idle entries are dropped.
func (l *Limiter) Flush(ctx context.Context) error {
	now := l.now()
	l.mu.Lock()
	ids := make([]string, 0, len(l.accounts))
	for id := range l.accounts {
		ids = append(ids, id)
	}
	l.mu.Unlock()
	touched := l.takeTouched()

	var errs []error
	for _, id := range ids {
		if err := l.flushAccount(ctx, id, now); err != nil {
			errs = append(errs, err)
		}
	}
	if err := l.st.TouchTokens(ctx, touched); err != nil {
		for id, at := range touched {
			l.Touch(id, at) // for the next flush, unless a later use came
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// idleAfter is how long an account's counters stay in memory unused.
const idleAfter = 10 * time.Minute

// flushAccount is the periodic flush of one account. It takes the counts
// out under the lock and writes them without it, so the account's requests
// are not held up by the store; those that need the store (a lease, a month's
// settlement, the daily counts) wait for it. On failure the counts go back.
func (l *Limiter) flushAccount(ctx context.Context, id string, now time.Time) error {
	l.mu.Lock()
	e, ok := l.accounts[id]
	l.mu.Unlock()
	if !ok {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.waitFlush()
	if e.period == "" || e.dropped {
		return nil
	}
	unflushed, balance, days := e.unflushed, e.balance, e.days
	delta := e.delta(id)
	e.unflushed, e.balance, e.days = 0, 0, nil
	e.pending, e.flushing = delta.Calls, true
	e.mu.Unlock()
	used, err := l.write(ctx, delta)
	e.mu.Lock()
	e.pending, e.flushing = 0, false
	e.flushed.Broadcast()
	if err != nil {
		e.unflushed += unflushed
		e.balance += balance
		for k, n := range days {
			e.countDay(k, n)
		}
		return err
	}
	e.used = used
	if e.leasedOut == 0 && now.Sub(e.lastActive) > idleAfter {
		e.dropped = true
		l.mu.Lock()
		delete(l.accounts, id)
		l.mu.Unlock()
	}
	return nil
}

// Run flushes every interval until ctx ends, then flushes once more so a
// graceful shutdown returns its leases and loses no usage.
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

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
//
// A call that needs no rate window (the plan has none) and finds its
// account's month loaded and, on a quota plan, a leased unit in hand, is
// admitted and settled with atomic operations only: a busy account's
// concurrent requests do not queue on its lock. The lock is taken for the
// rate window, a lease, the month's turn, a day's first call and the flush.
type Limiter struct {
	st  store.UsageStore
	log *slog.Logger
	now func() time.Time

	// accounts maps an account id to its *entry.
	accounts sync.Map
	// used holds each token's last use since the last flush
	// (*atomic.Int64, Unix nanoseconds; 0 when unused since): a request
	// stores into it without a lock.
	used sync.Map
}

// entry is one account's counters on this server. Its lock is held over a
// lease, a month's settlement, the rate window and reads of the daily
// counts; the periodic flush writes without it (see flushAccount), and those
// wait for the flush in flight, so store calls that change the counters
// never interleave. The counters are atomic so that the lock-free paths can
// read them (the quota headers) and settle calls.
type entry struct {
	mu sync.Mutex
	// flushing is true while a periodic flush writes; flushed signals its end.
	flushing bool
	flushed  *sync.Cond
	// pending is what the flush in flight adds to used.
	pending atomic.Int64
	// used is the store's counter as last seen: units granted to any server
	// (quota plans) or calls added (unlimited plans).
	used atomic.Int64
	// balance is leased units not used yet; taken without the lock, only
	// ever raised by the lease and a refund.
	balance atomic.Int64
	// month is the calendar month counted; nil until loaded.
	month atomic.Pointer[month]
	// days holds the daily counts of a flush that failed, for the next one.
	days       map[store.DayChannel]int64
	rate       slidingLog
	lastActive atomic.Int64 // Unix nanoseconds
	// dropped is set when the entry leaves the map: a caller that found it
	// just before must look the account up again.
	dropped atomic.Bool
}

// month is an entry's counts in one calendar month (UTC). A call that
// straddles the month's turn settles against the month it was admitted in,
// which has been written by then: its unit stays used there.
type month struct {
	period     string // YYYY-MM
	start, end time.Time
	// leasedOut is admitted calls holding a leased unit, outcome pending.
	leasedOut atomic.Int64
	// unflushed is calls of unlimited plans not yet added to the store.
	unflushed atomic.Int64
	// today is the day calls are counted on; days every day counted this
	// month (under the entry's lock), so a flush finds a late call of a
	// day that has ended.
	today atomic.Pointer[dayCount]
	days  []*dayCount
}

// dayCount is one UTC day's charged calls by channel, not yet flushed.
type dayCount struct {
	day        string // YYYY-MM-DD
	start, end int64  // Unix nanoseconds
	calls      [2]atomic.Int64
}

// channels are the channel names in the order of dayCount.calls.
var channels = [2]string{ChannelREST, ChannelMCP}

func channelIndex(channel string) int {
	if channel == ChannelMCP {
		return 1
	}
	return 0
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

// entryOf returns the account's entry, adding one when there is none.
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

// count adds a charged call to its day and channel. It takes the entry's
// lock only for the first call of a day.
func (e *entry) count(m *month, now time.Time, channel string) {
	d := m.today.Load()
	if n := now.UnixNano(); d == nil || n < d.start || n >= d.end {
		d = e.dayOf(m, now)
	}
	d.calls[channelIndex(channel)].Add(1)
}

// dayOf finds or adds the count of now's day and makes it today's.
func (e *entry) dayOf(m *month, now time.Time) *dayCount {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := now.UnixNano()
	for _, d := range m.days {
		if n >= d.start && n < d.end {
			m.today.Store(d)
			return d
		}
	}
	u := now.UTC()
	start := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	d := &dayCount{day: start.Format(time.DateOnly), start: start.UnixNano(), end: start.AddDate(0, 0, 1).UnixNano()}
	m.days = append(m.days, d)
	m.today.Store(d)
	return d
}

// taken is what a flush takes out of an entry to write: the calls of
// unlimited plans, the leased units it hands back and the daily counts.
type taken struct {
	unflushed, balance int64
	days               map[store.DayChannel]int64
}

func (tk taken) delta(accountID string, m *month) store.UsageDelta {
	return store.UsageDelta{AccountID: accountID, Period: m.period, Calls: tk.unflushed - tk.balance, Days: tk.days}
}

// take takes out the counts of month m, with the daily counts a failed
// flush left. Called with e.mu held.
func (e *entry) take(m *month) taken {
	tk := taken{unflushed: m.unflushed.Swap(0), balance: e.balance.Swap(0), days: e.days}
	e.days = nil
	for _, d := range m.days {
		for i, c := range channels {
			if n := d.calls[i].Swap(0); n != 0 {
				if tk.days == nil {
					tk.days = map[store.DayChannel]int64{}
				}
				tk.days[store.DayChannel{Day: d.day, Channel: c}] += n
			}
		}
	}
	return tk
}

// restore puts back what a failed flush took, for the next one. Called
// with e.mu held.
func (e *entry) restore(m *month, tk taken) {
	m.unflushed.Add(tk.unflushed)
	e.balance.Add(tk.balance)
	if e.days == nil {
		e.days = map[store.DayChannel]int64{}
	}
	for k, n := range tk.days {
		e.days[k] += n
	}
}

// waitFlush returns once no periodic flush of e is in flight. Called with
// e.mu held, which it releases while it waits.
func (e *entry) waitFlush() {
	for e.flushing {
		e.flushed.Wait()
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
		// Settle the month that ended before counting the new one.
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

// quotaState is the state of the monthly quota, with no rate window: the
// plan has none, or the caller fills it in.
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
	m      *month
	plan   account.Plan
	admit  State // the state at admission, whose rate window the answer shows
	leased bool  // holds a leased unit
	counts bool  // a charged call of an unlimited plan
	done   bool
}

// Admit counts one request against the account's rate window and, when
// charge is true, takes one unit of its monthly quota (leasing more from the
// store when this server holds none). A refused request returns a *Refusal.
func (l *Limiter) Admit(ctx context.Context, accountID string, plan account.Plan, charge bool) (*Ticket, State, error) {
	now := l.now()
	if plan.RatePerMinute == 0 {
		if t, ok := l.admitUnlocked(accountID, plan, charge, now); ok {
			return t, t.admit, nil
		}
	}
	e := l.lockEntry(accountID)
	defer e.mu.Unlock()
	m, err := l.load(ctx, e, accountID, now)
	if err != nil {
		return nil, State{}, fmt.Errorf("read quota usage: %w", err)
	}
	e.lastActive.Store(now.UnixNano())
	limited := plan.RatePerMinute > 0
	if limited && !e.rate.admit(now, plan.RatePerMinute) {
		st := e.state(plan, m, now)
		return nil, st, &Refusal{Reason: CodeRateLimited, RetryAfter: st.RateReset.Sub(now), State: st}
	}
	t := &Ticket{l: l, e: e, m: m, plan: plan}
	if charge {
		if st, err := l.takeUnit(ctx, e, m, t, accountID, plan, now); err != nil {
			var refusal *Refusal
			if limited && !errors.As(err, &refusal) {
				e.rate.unadmit() // the store failed: the request was not admitted
			}
			return nil, st, err
		}
	}
	t.admit = e.state(plan, m, now)
	return t, t.admit, nil
}

// admitUnlocked admits a call of a plan without a rate window when the
// account's month is loaded and, on a quota plan, a leased unit is at hand.
// Otherwise it returns false and Admit takes the lock.
func (l *Limiter) admitUnlocked(accountID string, plan account.Plan, charge bool, now time.Time) (*Ticket, bool) {
	v, ok := l.accounts.Load(accountID)
	if !ok {
		return nil, false
	}
	e := v.(*entry)
	m := e.month.Load()
	if !m.holds(now) {
		return nil, false
	}
	// Marked active before the check of dropped, which flushAccount sets
	// before it reads lastActive: one of the two sees the other.
	e.lastActive.Store(now.UnixNano())
	if e.dropped.Load() {
		return nil, false
	}
	t := &Ticket{l: l, e: e, m: m, plan: plan}
	if charge {
		if plan.MonthlyQuota == 0 {
			t.counts = true
		} else if !e.takeLeased(m) {
			return nil, false
		} else {
			t.leased = true
		}
	}
	t.admit = e.quotaState(plan, m, now)
	return t, true
}

// takeLeased takes one leased unit without the lock, if one is left.
func (e *entry) takeLeased(m *month) bool {
	for {
		b := e.balance.Load()
		if b <= 0 {
			return false
		}
		if e.balance.CompareAndSwap(b, b-1) {
			m.leasedOut.Add(1)
			return true
		}
	}
}

// takeUnit charges t to the monthly quota. An exhausted quota is a *Refusal
// with the state; a store failure returns the zero State. Called with e.mu held.
func (l *Limiter) takeUnit(ctx context.Context, e *entry, m *month, t *Ticket, accountID string, plan account.Plan, now time.Time) (State, error) {
	if plan.MonthlyQuota == 0 {
		t.counts = true
		return State{}, nil
	}
	if e.balance.Load() == 0 {
		e.waitFlush() // it hands the balance back; a failed one restores it
	}
	if e.balance.Load() == 0 {
		quota := int64(plan.MonthlyQuota)
		granted, used, err := l.st.LeaseUsage(ctx, accountID, m.period, leaseSize(quota, e.used.Load()), quota)
		if err != nil {
			return State{}, fmt.Errorf("lease quota: %w", err)
		}
		e.used.Store(used)
		e.balance.Add(granted)
	}
	if !e.takeLeased(m) {
		st := e.state(plan, m, now)
		return st, &Refusal{Reason: CodeQuotaExceeded, RetryAfter: st.QuotaReset.Sub(now), State: st}
	}
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
	m, err := l.load(ctx, e, accountID, now)
	if err != nil {
		return nil, State{}, fmt.Errorf("read quota usage: %w", err)
	}
	e.lastActive.Store(now.UnixNano())
	t := &Ticket{l: l, e: e, m: m, plan: plan}
	if st, err := l.takeUnit(ctx, e, m, t, accountID, plan, now); err != nil {
		return nil, st, err
	}
	t.admit = e.state(plan, m, now)
	return func(success bool) {
		if success {
			t.Commit(channel)
		} else {
			t.Refund()
		}
	}, t.admit, nil
}

// Commit charges the call to channel and returns the state after it: the
// rate window as admitted, the quota as it stands now.
func (t *Ticket) Commit(channel string) State {
	return t.finish(true, channel)
}

// Refund releases the call's unit: the call failed and is not charged.
func (t *Ticket) Refund() State {
	return t.finish(false, "")
}

// finish settles the call with atomic operations only. A call that
// straddled the turn of a month settles against the month it was admitted
// in, which was written at the turn: its unit stays used there, and the new
// month is not touched.
func (t *Ticket) finish(charge bool, channel string) State {
	e, m := t.e, t.m
	if !t.done {
		t.done = true
		if t.leased {
			if !charge {
				e.balance.Add(1)
			}
			m.leasedOut.Add(-1)
		}
		if charge && (t.leased || t.counts) {
			if t.counts {
				m.unflushed.Add(1)
			}
			e.count(m, t.l.now(), channel)
		}
	}
	st := t.admit
	m = e.month.Load() // the next one, when the call straddled the turn
	st.QuotaUsed, st.QuotaReset, st.Period = e.consumed(m), m.end, m.period
	return st
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
	add := func(k store.DayChannel, n int64) {
		if n != 0 && k.Day >= fromDay && k.Day <= toDay {
			sums[k] += n
		}
	}
	for k, n := range e.days {
		add(k, n)
	}
	if m := e.month.Load(); m != nil {
		for _, d := range m.days {
			for i, c := range channels {
				add(store.DayChannel{Day: d.day, Channel: c}, d.calls[i].Load())
			}
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
// plans and the daily counts of month m, and reads back the shared counter.
// Called with e.mu held; on failure the counts stay for the next flush.
func (l *Limiter) flushLocked(ctx context.Context, e *entry, m *month, accountID string) error {
	tk := e.take(m)
	used, err := l.write(ctx, tk.delta(accountID, m))
	if err != nil {
		e.restore(m, tk)
		return err
	}
	e.used.Store(used)
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
	var ids []string
	l.accounts.Range(func(id, _ any) bool {
		ids = append(ids, id.(string))
		return true
	})
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
	v, ok := l.accounts.Load(id)
	if !ok {
		return nil
	}
	e := v.(*entry)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.waitFlush()
	m := e.month.Load()
	if m == nil || e.dropped.Load() {
		return nil
	}
	tk := e.take(m)
	delta := tk.delta(id, m)
	e.pending.Store(delta.Calls)
	e.flushing = true
	e.mu.Unlock()
	used, err := l.write(ctx, delta)
	e.mu.Lock()
	e.flushing = false
	e.flushed.Broadcast()
	if err != nil {
		e.pending.Store(0)
		e.restore(m, tk)
		return err
	}
	e.used.Store(used)
	e.pending.Store(0)
	if m.leasedOut.Load() == 0 && e.idle(now) {
		// An unlocked admission marks the entry active before it reads
		// dropped; reading lastActive again after setting dropped makes
		// sure that one of the two sees the other.
		e.dropped.Store(true)
		if e.idle(now) {
			l.accounts.CompareAndDelete(id, e)
		} else {
			e.dropped.Store(false)
		}
	}
	return nil
}

func (e *entry) idle(now time.Time) bool {
	return now.UnixNano()-e.lastActive.Load() > int64(idleAfter)
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

package limits

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vds-dev/vds/internal/account"
)

// maxLease bounds one lease, and so what a crash can strand.
const maxLease = 100

// leaseSize asks for an eighth of what is left: a busy account needs the
// database rarely, and the last units are not stranded on one replica.
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

// Admit counts one request against the rate window and, when charge is
// true, takes one quota unit. A refused request returns a *Refusal.
func (l *Limiter) Admit(ctx context.Context, accountID string, plan account.Plan, charge bool) (*Ticket, State, error) {
	t := new(Ticket)
	st, err := l.AdmitInto(ctx, t, accountID, plan, charge, l.now())
	if err != nil {
		return nil, st, err
	}
	return t, st, nil
}

// AdmitInto is Admit at now, the time a request arrived (which its server
// has read already), writing the ticket to t, which the caller may keep in
// an allocation of its own; t is valid only when err is nil.
func (l *Limiter) AdmitInto(ctx context.Context, t *Ticket, accountID string, plan account.Plan, charge bool, now time.Time) (State, error) {
	if plan.RatePerMinute == 0 && l.admitUnlocked(t, accountID, plan, charge, now) {
		return t.admit, nil
	}
	e, m, err := l.enter(ctx, accountID, now)
	if err != nil {
		return State{}, err
	}
	defer e.mu.Unlock()
	limited := plan.RatePerMinute > 0
	if limited && !e.rate.admit(now, plan.RatePerMinute) {
		st := e.state(plan, m, now)
		return st, &Refusal{Reason: CodeRateLimited, RetryAfter: st.RateReset.Sub(now), State: st}
	}
	*t = Ticket{l: l, e: e, m: m, plan: plan}
	if charge {
		if st, err := l.takeUnit(ctx, e, m, t, accountID, plan, now); err != nil {
			var refusal *Refusal
			if limited && !errors.As(err, &refusal) {
				e.rate.unadmit() // the store failed: the request was not admitted
			}
			return st, err
		}
	}
	t.admit = e.state(plan, m, now)
	return t.admit, nil
}

// admitUnlocked admits into t without the lock when it can; false sends
// AdmitInto to the locked path, t untouched.
func (l *Limiter) admitUnlocked(t *Ticket, accountID string, plan account.Plan, charge bool, now time.Time) bool {
	v, ok := l.accounts.Load(accountID)
	if !ok {
		return false
	}
	e := v.(*entry)
	m := e.month.Load()
	if !m.holds(now) {
		return false
	}
	// Marked active before reading dropped, which flushAccount sets before
	// reading lastActive: one of the two sees the other (a mark left out
	// reads a use that recent, which flushAccount sees as well).
	e.active(now)
	if e.dropped.Load() {
		return false
	}
	tk := Ticket{l: l, e: e, m: m, plan: plan}
	if charge {
		if plan.MonthlyQuota == 0 {
			tk.counts = true
		} else if !e.takeLeased(m) {
			return false
		} else {
			tk.leased = true
		}
	}
	tk.admit = e.quotaState(plan, m, now)
	*t = tk
	return true
}

// active marks e used at now, unless a use within useGrain is marked.
func (e *entry) active(now time.Time) {
	if n := now.UnixNano(); n-e.lastActive.Load() >= int64(useGrain) {
		e.lastActive.Store(n)
	}
}

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

// takeUnit charges t to the monthly quota. Called with e.mu held.
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
		return spent(e, plan, m, now)
	}
	t.leased = true
	return State{}, nil
}

// enter locks the account's entry, loads its month and marks it active.
func (l *Limiter) enter(ctx context.Context, accountID string, now time.Time) (*entry, *month, error) {
	e := l.lockEntry(accountID)
	m, err := l.load(ctx, e, accountID, now)
	if err != nil {
		e.mu.Unlock()
		return nil, nil, fmt.Errorf("read quota usage: %w", err)
	}
	e.active(now)
	return e, m, nil
}

func spent(e *entry, plan account.Plan, m *month, now time.Time) (State, error) {
	st := e.state(plan, m, now)
	return st, &Refusal{Reason: CodeQuotaExceeded, RetryAfter: st.QuotaReset.Sub(now), State: st}
}

// Ready refuses with a *Refusal when Charge would find no unit, and takes
// none, not even a lease: a call that is free when it succeeds is still
// refused once the quota is spent, and holds no unit another call needs.
func (l *Limiter) Ready(ctx context.Context, accountID string, plan account.Plan) error {
	if plan.MonthlyQuota == 0 {
		return nil
	}
	now := l.now()
	if v, ok := l.accounts.Load(accountID); ok {
		e := v.(*entry)
		if e.month.Load().holds(now) && e.balance.Load() > 0 && !e.dropped.Load() {
			return nil
		}
	}
	e := l.lockEntry(accountID)
	defer e.mu.Unlock()
	m, err := l.load(ctx, e, accountID, now)
	if err != nil {
		return fmt.Errorf("read quota usage: %w", err)
	}
	if e.balance.Load() == 0 {
		e.waitFlush()
	}
	if e.balance.Load() > 0 {
		return nil
	}
	used, err := l.st.Usage(ctx, accountID, m.period)
	if err != nil {
		return fmt.Errorf("read quota usage: %w", err)
	}
	e.used.Store(used)
	if used < int64(plan.MonthlyQuota) {
		return nil
	}
	_, err = spent(e, plan, m, now)
	return err
}

// Charge takes one quota unit for a call Admit already counted against the
// rate window (an MCP tools/call, one VIN of a batch). commit(true) charges
// it to channel, commit(false) refunds it; only the first commit counts.
func (l *Limiter) Charge(ctx context.Context, accountID string, plan account.Plan, channel string) (func(success bool), State, error) {
	now := l.now()
	e, m, err := l.enter(ctx, accountID, now)
	if err != nil {
		return nil, State{}, err
	}
	defer e.mu.Unlock()
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

// Admitted is the state at admission, as Admit returned it.
func (t *Ticket) Admitted() State { return t.admit }

// Commit charges the call to channel and returns the state after it.
func (t *Ticket) Commit(channel string) State {
	return t.finish(true, channel)
}

// Refund releases the call's unit: the call failed and is not charged.
func (t *Ticket) Refund() State {
	return t.finish(false, "")
}

// finish settles the call with atomics alone. A call that straddled a
// month's turn settles against the month it was admitted in.
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

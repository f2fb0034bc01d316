package limits

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vds-dev/vds/internal/store"
)

type taken struct {
	unflushed, balance int64
	days               map[store.DayChannel]int64
}

func (tk taken) delta(accountID string, m *month) store.UsageDelta {
	return store.UsageDelta{AccountID: accountID, Period: m.period, Calls: tk.unflushed - tk.balance, Days: tk.days}
}

// take takes out the counts of month m. Called with e.mu held.
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

// restore puts back what a failed flush took. Called with e.mu held.
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

// waitFlush returns once no periodic flush of e is in flight; it releases
// e.mu while it waits.
func (e *entry) waitFlush() {
	for e.flushing {
		e.flushed.Wait()
	}
}

// flushLocked writes month m's counts and reads back the shared counter.
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

// Flush settles every account and reads back the shared counters, so the
// headers see the other replicas' calls. Idle entries are dropped.
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

// flushAccount takes the counts out under the lock and writes them
// without it, so the account's requests do not wait for the store.
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
		// Set dropped, then read lastActive again (see admitUnlocked).
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

// Run flushes every interval until ctx ends, then once more.
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

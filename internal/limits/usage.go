package limits

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vds-dev/vds/internal/store"
)

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

// count adds a charged call to its day and channel.
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

// DayCalls is one day's calls of an account on one channel.
type DayCalls struct {
	Day     string // YYYY-MM-DD, UTC
	Channel string // ChannelREST or ChannelMCP
	Calls   int64
}

// DailyUsage returns the account's calls per day and channel between two
// days (inclusive), sorted, with the calls not flushed yet.
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

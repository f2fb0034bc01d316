package limits

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/account"
)

// TestCharge: a call inside an admitted request takes a quota unit
// without a second unit of the rate window; failures are refunded, and
// an exhausted quota is refused with the reset time.
func TestCharge(t *testing.T) {
	t.Parallel()
	st, id := newStore(t)
	c := &clock{t: time.Date(2026, 11, 21, 10, 0, 30, 0, time.UTC)}
	l := newLimiter(st, c)
	ctx := context.Background()
	plan := account.Plan{Name: "small", RatePerMinute: 10, MonthlyQuota: 2}

	req, _, err := l.Admit(ctx, id, plan, false) // the POST /mcp
	if err != nil {
		t.Fatal(err)
	}
	commit, _, err := l.Charge(ctx, id, plan, ChannelMCP) // its tools/call
	if err != nil {
		t.Fatal(err)
	}
	commit(true)
	commit(false) // only the first commit counts
	req.Refund()
	s, _ := l.State(ctx, id, plan)
	if s.RateRemaining != 9 || s.QuotaUsed != 1 {
		t.Fatalf("after one charged call: rate remaining %d, quota used %d; want 9 and 1", s.RateRemaining, s.QuotaUsed)
	}

	commit, _, err = l.Charge(ctx, id, plan, ChannelMCP)
	if err != nil {
		t.Fatal(err)
	}
	commit(false) // the tool failed
	if s, _ := l.State(ctx, id, plan); s.QuotaUsed != 1 {
		t.Fatalf("a refunded call was charged: used %d", s.QuotaUsed)
	}

	commit, _, err = l.Charge(ctx, id, plan, ChannelMCP)
	if err != nil {
		t.Fatal(err)
	}
	commit(true)
	_, st2, err := l.Charge(ctx, id, plan, ChannelMCP)
	var r *Refusal
	if !errors.As(err, &r) || r.Reason != CodeQuotaExceeded || !r.State.QuotaReset.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("over the quota: %v", err)
	}
	if st2.QuotaUsed != 2 || st2.QuotaRemaining() != 0 {
		t.Fatalf("refusal state %+v", st2)
	}
	if err := l.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	// Both calls are counted on the MCP channel.
	days, err := st.DailyUsage(ctx, id, "2026-11-21", "2026-11-21")
	if err != nil || len(days) != 1 || days[0].Channel != ChannelMCP || days[0].Calls != 2 {
		t.Fatalf("daily usage %+v, %v; want 2 calls on mcp", days, err)
	}
}

// TestReady: Ready refuses only a spent quota, and takes no unit, not even
// a lease another replica would wait for; it sees what that replica used.
func TestReady(t *testing.T) {
	st, id := newStore(t)
	c := &clock{t: time.Date(2026, 11, 21, 10, 0, 30, 0, time.UTC)}
	a, b := newLimiter(st, c), newLimiter(st, c)
	ctx := context.Background()
	plan := account.Plan{Name: "small", MonthlyQuota: 2}
	spent := func(l *Limiter) bool {
		t.Helper()
		err := l.Ready(ctx, id, plan)
		var r *Refusal
		if err != nil && (!errors.As(err, &r) || r.Reason != CodeQuotaExceeded) {
			t.Fatalf("Ready: %v", err)
		}
		return err != nil
	}
	for range 3 {
		if spent(a) {
			t.Fatal("Ready refused an unused quota")
		}
	}
	if s, _ := a.State(ctx, id, plan); s.QuotaUsed != 0 {
		t.Fatalf("Ready took units: used %d", s.QuotaUsed)
	}
	// a holds no lease, so b can take both units.
	for range 2 {
		commit, _, err := b.Charge(ctx, id, plan, ChannelREST)
		if err != nil {
			t.Fatal(err)
		}
		commit(true)
	}
	if !spent(a) || !spent(b) {
		t.Fatal("Ready admitted a spent quota")
	}
	if err := b.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if !spent(newLimiter(st, c)) {
		t.Fatal("a third replica: Ready admitted a spent quota")
	}
	if err := a.Ready(ctx, id, account.Plan{Name: "big"}); err != nil {
		t.Fatalf("Ready on an unlimited plan: %v", err)
	}
}

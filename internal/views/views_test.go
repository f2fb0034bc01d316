package views

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/limits"
)

func TestNewMeUnlimitedIsNull(t *testing.T) {
	p := access.Principal{Account: account.Account{ID: "acc_1"}, TokenID: "tok_1", Scopes: []string{account.ScopeRead},
		Plan: account.Plan{Name: "internal", APIAccess: true}}
	b, err := json.Marshal(NewMe(p, limits.State{Period: "2026-11", QuotaUsed: 7}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"rate_limit":{"limit":null,"remaining":null`, `"quota":{"period":"2026-11","limit":null,"used":7,"remaining":null`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
	me := NewMe(p, limits.State{RateLimit: 10, RateRemaining: 4, QuotaLimit: 100, QuotaUsed: 30})
	if *me.RateLimit.Limit != 10 || *me.RateLimit.Remaining != 4 || *me.Quota.Limit != 100 || *me.Quota.Remaining != 70 {
		t.Errorf("limited windows: %+v %+v", me.RateLimit, me.Quota)
	}
}

func TestSetLimitHeaders(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 30, 0, time.UTC)
	h := http.Header{}
	SetLimitHeaders(h, limits.State{RateLimit: 10, RateRemaining: 9, RateReset: now.Add(30 * time.Second)}, now)
	if h.Get("X-RateLimit-Remaining") != "9" || h.Get("X-Quota-Used") != "" || h.Get("RateLimit") != `"minute";r=9;t=30` {
		t.Errorf("rate only: %v", h)
	}
	// A unit that frees up within a second is reported at the next second.
	h = http.Header{}
	SetLimitHeaders(h, limits.State{RateLimit: 10, RateRemaining: 0, RateReset: now.Add(29500 * time.Millisecond)}, now)
	if want := strconv.FormatInt(now.Unix()+30, 10); h.Get("X-RateLimit-Reset") != want || h.Get("RateLimit") != `"minute";r=0;t=30` {
		t.Errorf("reset between seconds: X-RateLimit-Reset %s RateLimit %s, want %s and t=30", h.Get("X-RateLimit-Reset"), h.Get("RateLimit"), want)
	}
	h = http.Header{}
	SetLimitHeaders(h, limits.State{}, now)
	if len(h) != 0 {
		t.Errorf("unlimited plan got headers %v", h)
	}
}

package views

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/limits"
)

func TestNewMeUnlimitedIsNull(t *testing.T) {
	t.Parallel()
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

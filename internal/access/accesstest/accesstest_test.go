package accesstest_test

import (
	"context"
	"testing"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/access/accesstest"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/store/storetest"
)

func TestCreate(t *testing.T) {
	t.Parallel()
	st := storetest.Empty(t, "sqlite")
	cfg := &config.Config{Plans: config.DefaultPlans}
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	auth := access.NewAuthenticator(st, cfg.Plan, 0)
	got := accesstest.Create(t, acc, map[string]string{"ann": "free", "bob": "developer"})
	if len(got) != 2 {
		t.Fatalf("got %d accounts, want 2", len(got))
	}
	for name, plan := range map[string]string{"ann": "free", "bob": "developer"} {
		a := got[name]
		if a.Email != name+"@example.com" || a.Plan != plan {
			t.Errorf("%s: got %s on %s", name, a.Email, a.Plan)
		}
		p, err := auth.Authenticate(context.Background(), a.Token)
		if err != nil || p.Account.ID != a.ID {
			t.Errorf("%s: token authenticates as %v, %v; want account %s", name, p.Account.ID, err, a.ID)
		}
	}
}

package access_test

import (
	"context"
	"errors"
	"maps"
	"testing"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/textcheck"
)

func newService(st store.Store, opts ...access.Option) *access.Service {
	cfg := &config.Config{Plans: maps.Clone(config.DefaultPlans)}
	return access.New(st, cfg.Plan, cfg.PlanNames(), opts...)
}

// TestTokenScoping: an account rotates and revokes only its own tokens.
func TestTokenScoping(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc := newService(st)
		mine, _ := svc.CreateAccount(ctx, "me@example.com", "free")
		theirs, _ := svc.CreateAccount(ctx, "them@example.com", "free")
		tok, _, err := svc.CreateToken(ctx, theirs.ID, "theirs")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.RotateToken(ctx, mine.ID, tok.ID, 0); !errors.Is(err, access.ErrNotFound) || err.Error() != "no token with id "+tok.ID+": not found" {
			t.Fatalf("rotating another account's token: %v", err)
		}
		if _, err := svc.RevokeToken(ctx, mine.ID, tok.ID); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("revoking another account's token: %v", err)
		}
		if toks, _ := svc.Tokens(ctx, theirs.ID); len(toks) != 1 || !toks[0].Active() {
			t.Fatal("another account's token changed")
		}
		// An operator finds the token's account first, then acts as it.
		found, err := svc.Token(ctx, tok.ID)
		if err != nil || found.AccountID != theirs.ID {
			t.Fatalf("Token = %+v, %v", found, err)
		}
		if _, err := svc.RevokeToken(ctx, found.AccountID, tok.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.RevokeToken(ctx, theirs.ID, tok.ID); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("revoking a revoked token: %v", err)
		}
		if _, err := svc.Token(ctx, "tok_unknown"); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("Token of an unknown id: %v", err)
		}
	})
}

func TestSetPlanAndSuspended(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc := newService(st)
		a, err := svc.CreateAccount(ctx, "ann@example.com", "free")
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.SetPlan(ctx, a.ID, "gold"); !errors.Is(err, access.ErrUnknownPlan) {
			t.Fatalf("SetPlan(gold) = %v, want ErrUnknownPlan", err)
		}
		if err := svc.SetPlan(ctx, a.ID, "pro"); err != nil {
			t.Fatal(err)
		}
		if err := svc.SetSuspended(ctx, a.ID, true); err != nil {
			t.Fatal(err)
		}
		got, err := svc.Account(ctx, "ANN@example.com")
		if err != nil || got.Plan != "pro" || !got.Suspended {
			t.Fatalf("Account = %+v, %v; want pro and suspended", got, err)
		}
	})
}

// Every value from outside that reaches the store is checked here, once,
// for the dashboard and the command line alike.
func TestTextNoPersonTypesIsRefused(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc := newService(st)
		a, err := svc.CreateAccount(ctx, "text@example.com", "free")
		if err != nil {
			t.Fatal(err)
		}
		const bad = "x\x00y"
		for name, call := range map[string]func() error{
			"email":       func() error { _, err := svc.CreateAccount(ctx, "a\u0085@example.com", "free"); return err },
			"token name":  func() error { _, _, err := svc.CreateToken(ctx, a.ID, bad); return err },
			"token id":    func() error { _, err := svc.Token(ctx, bad); return err },
			"revoke id":   func() error { _, err := svc.RevokeToken(ctx, a.ID, bad); return err },
			"rotate id":   func() error { _, err := svc.RotateToken(ctx, a.ID, bad, 0); return err },
			"invalid utf": func() error { _, _, err := svc.CreateToken(ctx, a.ID, "x\xffy"); return err },
		} {
			var te *textcheck.Error
			if err := call(); !errors.As(err, &te) {
				t.Errorf("%s: %v, want a textcheck error", name, err)
			}
		}
	})
}

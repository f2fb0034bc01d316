package access_test

import (
	"context"
	"errors"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// clock is a settable time for the service and the authenticator.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// keyed is a service and an authenticator that caches for two hours, both
// on a settable clock, with an account.
func keyed(t *testing.T, st store.Store) (*access.Service, *access.Authenticator, *clock, account.Account) {
	t.Helper()
	cfg := &config.Config{Plans: maps.Clone(config.DefaultPlans)}
	auth := access.NewAuthenticator(st, cfg.Plan, 2*time.Hour)
	svc := newService(st, access.WithAuthenticator(auth))
	c := &clock{t: account.Now()}
	access.SetClock(svc, auth, c.now)
	a, err := svc.CreateAccount(context.Background(), "keys@example.com", "free")
	if err != nil {
		t.Fatal(err)
	}
	return svc, auth, c, a
}

func admitted(t *testing.T, auth *access.Authenticator, secret string, want error) {
	t.Helper()
	if _, err := auth.Authenticate(context.Background(), secret); !errors.Is(err, want) {
		t.Fatalf("Authenticate(%s…) = %v, want %v", secret[:10], err, want)
	}
}

// During a rotation's grace both tokens are admitted; at its end the old
// one is refused although the cache would otherwise keep it for two hours.
func TestRotationGrace(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, auth, c, a := keyed(t, st)
		tok, old, err := svc.CreateToken(ctx, a.ID, "ci")
		if err != nil {
			t.Fatal(err)
		}
		admitted(t, auth, old, nil) // cached from here
		t0 := c.now()
		rot, err := svc.RotateToken(ctx, a.ID, tok.ID, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if rot.Old.ID != tok.ID || !rot.Old.RevokedAt.Equal(t0.Add(time.Hour)) || rot.New.Name != "ci" || rot.New.ID == tok.ID {
			t.Fatalf("rotation = old %s until %v, new %s %q", rot.Old.ID, rot.Old.RevokedAt, rot.New.ID, rot.New.Name)
		}
		admitted(t, auth, old, nil)
		admitted(t, auth, rot.Secret, nil)
		c.set(t0.Add(time.Hour - time.Second))
		admitted(t, auth, old, nil)
		c.set(t0.Add(time.Hour))
		admitted(t, auth, old, access.ErrUnauthorized)
		admitted(t, auth, rot.Secret, nil)

		// It was rotated: it rotates no more, nor can its grace be revoked.
		if _, err := svc.RotateToken(ctx, a.ID, tok.ID, 0); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("rotating a rotated token: %v", err)
		}
		if _, err := svc.RevokeToken(ctx, a.ID, tok.ID); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("revoking a token past its grace: %v", err)
		}

		// No grace: the old token is refused at once, cached or not.
		rot2, err := svc.RotateToken(ctx, a.ID, rot.New.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		admitted(t, auth, rot.Secret, access.ErrUnauthorized)
		admitted(t, auth, rot2.Secret, nil)

		// A grace period not offered is refused, and nothing changes.
		if _, err := svc.RotateToken(ctx, a.ID, rot2.New.ID, 2*time.Hour); !errors.Is(err, access.ErrBadGrace) {
			t.Fatalf("rotating with a 2h grace: %v, want ErrBadGrace", err)
		}
		admitted(t, auth, rot2.Secret, nil)

		// Revoking during a grace ends it at once.
		rot3, err := svc.RotateToken(ctx, a.ID, rot2.New.ID, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		admitted(t, auth, rot2.Secret, nil)
		if _, err := svc.RevokeToken(ctx, a.ID, rot2.New.ID); err != nil {
			t.Fatal(err)
		}
		admitted(t, auth, rot2.Secret, access.ErrUnauthorized)
		admitted(t, auth, rot3.Secret, nil)
	})
}

// Deleting an account refuses its tokens at once, cached as they are.
func TestDeleteAccountRefusesTokens(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, auth, _, a := keyed(t, st)
		_, secret, err := svc.CreateToken(ctx, a.ID, "ci")
		if err != nil {
			t.Fatal(err)
		}
		admitted(t, auth, secret, nil)
		if err := svc.DeleteAccount(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		admitted(t, auth, secret, access.ErrUnauthorized)
		if err := svc.DeleteAccount(ctx, a.ID); !errors.Is(err, access.ErrNotFound) {
			t.Fatalf("deleting twice: %v, want ErrNotFound", err)
		}
	})
}

func TestParseGrace(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"none": 0, "0": 0, "0s": 0, "1h": time.Hour, "60m": time.Hour, "24h": 24 * time.Hour} {
		if got, err := access.ParseGrace(in); err != nil || got != want {
			t.Errorf("ParseGrace(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2h", "-1h", "1 hour", "forever"} {
		_, err := access.ParseGrace(in)
		if !errors.Is(err, access.ErrBadGrace) || err.Error() != `the grace period is none, 1h or 24h, not "`+in+`"` {
			t.Errorf("ParseGrace(%q) = %v", in, err)
		}
	}
}

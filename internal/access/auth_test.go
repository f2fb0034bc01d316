package access_test

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// pausedLookup holds a token lookup after it has read the database, until
// released: a fetch in flight while the token is revoked.
type pausedLookup struct {
	store.Store
	read, release chan struct{}
}

func (p *pausedLookup) TokenByHash(ctx context.Context, hash string) (account.Token, error) {
	t, err := p.Store.TokenByHash(ctx, hash)
	if p.read != nil {
		close(p.read)
		<-p.release
		p.read = nil
	}
	return t, err
}

// A lookup that read the token before a revocation must not put it back
// into the cache after the revocation evicted it.
func TestRevocationBeatsALookupInFlight(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		cfg := &config.Config{Plans: maps.Clone(config.DefaultPlans)}
		paused := &pausedLookup{Store: st}
		auth := access.NewAuthenticator(paused, cfg.Plan, time.Hour)
		svc := newService(st, access.WithAuthenticator(auth))
		a, err := svc.CreateAccount(ctx, "a@example.com", "free")
		if err != nil {
			t.Fatal(err)
		}
		tok, secret, err := svc.CreateToken(ctx, a.ID, "t")
		if err != nil {
			t.Fatal(err)
		}

		paused.read, paused.release = make(chan struct{}), make(chan struct{})
		done := make(chan error)
		go func() {
			_, err := auth.Authenticate(ctx, secret)
			done <- err
		}()
		<-paused.read
		if _, err := svc.RevokeToken(ctx, a.ID, tok.ID); err != nil {
			t.Fatal(err)
		}
		close(paused.release)
		if err := <-done; err != nil {
			t.Fatalf("the call in flight during the revocation: %v, want it admitted", err)
		}
		if _, err := auth.Authenticate(ctx, secret); !errors.Is(err, access.ErrUnauthorized) {
			t.Fatalf("the call after the revocation: %v, want ErrUnauthorized", err)
		}
	})
}

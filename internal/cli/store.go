package cli

import (
	"context"
	"fmt"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/postgres"
	"github.com/vds-dev/vds/internal/store/sqlite"
)

// Store opens the configured database and applies pending migrations; the
// store is closed when the command ends.
func (f *Factory) Store(ctx context.Context) (store.Store, error) {
	if f.st != nil {
		return f.st, nil
	}
	loc, err := store.ParseURL(f.cfg.Database.URL)
	if err != nil {
		return nil, err
	}
	var st store.Store
	switch loc.Backend {
	case "postgres":
		st, err = postgres.Open(ctx, loc.Target)
	default:
		st, err = sqlite.Open(loc.Target)
	}
	if err != nil {
		return nil, err
	}
	f.closers = append(f.closers, st.Close)
	if err := st.Migrate(ctx); err != nil {
		return nil, err
	}
	f.st = st
	return st, nil
}

// Access returns the account service on the configured database.
func (f *Factory) Access(ctx context.Context) (*access.Service, error) {
	st, err := f.Store(ctx)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	return access.New(st, f.cfg.Plan, f.cfg.PlanNames()), nil
}

// accountAccess is Access for an operator command on the account --email
// names, refusing a missing --email before it opens the database.
func (f *Factory) accountAccess(ctx context.Context, email string) (*access.Service, error) {
	if err := requireFlag("email", email); err != nil {
		return nil, err
	}
	return f.Access(ctx)
}

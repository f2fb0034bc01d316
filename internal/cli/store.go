package cli

import (
	"context"
	"fmt"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/signin"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/postgres"
	"github.com/vds-dev/vds/internal/store/sqlite"
	"github.com/vds-dev/vds/internal/vehicle"
)

// Store opens the configured database, migrated, closed when the command ends.
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

// database is Store for the operator services, saying what failed.
func (f *Factory) database(ctx context.Context) (store.Store, error) {
	st, err := f.Store(ctx)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	return st, nil
}

// Access returns the account service on the configured database.
func (f *Factory) Access(ctx context.Context) (*access.Service, error) {
	st, err := f.database(ctx)
	if err != nil {
		return nil, err
	}
	return access.New(st, f.cfg.Plan, f.cfg.PlanNames()), nil
}

// account is Access with the account that has email, which the command
// then addresses by ID.
func (f *Factory) account(ctx context.Context, email string) (*access.Service, account.Account, error) {
	svc, err := f.Access(ctx)
	if err != nil {
		return nil, account.Account{}, err
	}
	a, err := svc.Account(ctx, email)
	return svc, a, err
}

// flagAccount is account for the account --email names, refusing a missing
// --email before it opens the database.
func (f *Factory) flagAccount(ctx context.Context, email string) (*access.Service, account.Account, error) {
	if err := requireFlag("email", email); err != nil {
		return nil, account.Account{}, err
	}
	return f.account(ctx, email)
}

// token is Access with the token of that id, whichever account has it.
func (f *Factory) token(ctx context.Context, id string) (*access.Service, account.Token, error) {
	svc, err := f.Access(ctx)
	if err != nil {
		return nil, account.Token{}, err
	}
	t, err := svc.Token(ctx, id)
	return svc, t, err
}

// Lists returns the saved-lists service on the configured database.
func (f *Factory) Lists(ctx context.Context) (*lists.Service, error) {
	st, err := f.database(ctx)
	if err != nil {
		return nil, err
	}
	return lists.New(st), nil
}

// SignIn returns the dashboard sign-in service on the configured database.
func (f *Factory) SignIn(ctx context.Context) (*signin.Service, error) {
	acc, err := f.Access(ctx)
	if err != nil {
		return nil, err
	}
	return signin.New(f.st, acc), nil // Access opened f.st
}

// Vehicles loads the stored catalog into a vehicle service, to see saved
// items against it as the server does.
func (f *Factory) Vehicles(ctx context.Context) (*vehicle.Service, error) {
	st, err := f.database(ctx)
	if err != nil {
		return nil, err
	}
	return server.LoadVehicles(ctx, st)
}

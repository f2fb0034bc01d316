package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

type migrateOptions struct{}

func newMigrateCmd(f *Factory, runF func(*migrateOptions) error) *cobra.Command {
	return noArgsCmd(f, &migrateOptions{}, runF, migrateRun, &cobra.Command{
		Use:   "migrate",
		Short: "Apply pending database migrations",
		Long: `Apply the database migrations embedded in this binary that have not run yet.
Commands that use the database also migrate on start-up; run this on its own
to upgrade a database before starting new servers.`,
	})
}

func migrateRun(ctx context.Context, f *Factory, _ *migrateOptions) error {
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	v, err := st.CatalogVersion(ctx)
	return f.show(map[string]any{"backend": st.Backend(), "migrated": true, "catalog_version": v.Number}, err, func() error {
		_, err := fmt.Fprintf(f.IO.Out, "%s database is up to date (catalog version %d)\n", st.Backend(), v.Number)
		return err
	})
}

package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/buildinfo"
)

type versionOptions struct{}

func newVersionCmd(f *Factory, runF func(*versionOptions) error) *cobra.Command {
	return noArgsCmd(f, &versionOptions{}, runF, versionRun, &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and build date",
		// No config needed: version works even with a broken config file.
		PersistentPreRunE: func(*cobra.Command, []string) error { return f.prepareJSON() },
	})
}

func versionRun(_ context.Context, f *Factory, _ *versionOptions) error {
	info := buildinfo.Get()
	if f.JSON {
		return f.writeJSON(info)
	}
	_, err := fmt.Fprintln(f.IO.Out, info.String())
	return err
}

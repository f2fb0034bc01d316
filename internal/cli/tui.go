package cli

import (
	"context"
	"errors"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/tui"
)

type tuiOptions struct{}

func newTUICmd(f *Factory, runF func(*tuiOptions) error) *cobra.Command {
	return clientCmd(f, noArgsCmd(f, &tuiOptions{}, runF, tuiRun, &cobra.Command{
		Use:   "tui",
		Short: "Browse the catalog in a terminal UI",
		Long: `Browse the catalog full-screen: pick a record type, its makes (type / to
filter), a model, then records page by page (n and p) and one record in
full. From a car, t shows its tire fitments with geometry (a bar per
alternate size against the ±3% diameter window) and r its recalls and
crash ratings. v decodes a VIN and jumps to the records it links to; g
opens your garage.

Keys are shown at the bottom of the screen, ? shows them all. esc goes
back, q quits (ctrl+c while typing).

The TUI talks to the server like the other client commands: --url and
--token, VDS_URL and VDS_TOKEN, or what vds login stored. NO_COLOR turns
colour off.`,
	}, func([]string) error {
		// A full-screen program on a pipe would write escape codes into a
		// file; scripts want the vehicle commands instead.
		if !f.IO.OutTTY {
			return usageErrorf(errors.New("vds tui needs a terminal on stdout"))
		}
		return nil
	}))
}

func tuiRun(ctx context.Context, f *Factory, _ *tuiOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	return tui.Run(ctx, c, f.IO.In, f.IO.Out)
}

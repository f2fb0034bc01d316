package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
)

type garageOptions struct{}

func newGarageCmd(f *Factory, runF func(*garageOptions) error) *cobra.Command {
	return clientCmd(f, noArgsCmd(f, &garageOptions{}, runF, garageRun, &cobra.Command{
		Use:   "garage",
		Short: "Show your saved vehicle lists",
		Long: `Show the saved lists of the token's account ("My garage" and any others)
with each item's type, uuid, vehicle and note. An item whose record has
left the catalog is kept and marked "missing from catalog".`,
		Example: `  vds garage
  vds garage --jq '.[].items[] | [.type, .uuid] | @tsv'`,
	}))
}

func garageRun(ctx context.Context, f *Factory, _ *garageOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	lists, err := c.Lists(ctx)
	return f.show(lists, err, func() error { return printGarage(f.IO, lists) })
}

func printGarage(s *IOStreams, lists []client.List) error {
	t := s.newTable("LIST", "TYPE", "UUID", "MAKE", "MODEL", "YEAR", "NOTE", "STATUS")
	for _, l := range lists {
		if len(l.Items) == 0 {
			t.row(l.Name, "-", "(empty)", "-", "-", "-", "-", "-")
		}
		for _, it := range l.Items {
			mk, model, year, status, color := "-", "-", "-", "ok", colorGreen
			if it.Record != nil {
				mk, model, year = it.Record.Make, it.Record.Model, strconv.Itoa(it.Record.Year)
			}
			if it.Missing {
				status, color = "missing from catalog", colorYellow
			}
			t.row(l.Name, typeArg(it.Type), it.UUID, mk, model, year, dashIfEmpty(it.Note), status)
			t.colorLast(color)
		}
	}
	if len(lists) == 0 && s.OutTTY {
		_, err := fmt.Fprintln(s.Out, "No lists.")
		return err
	}
	return t.flush()
}

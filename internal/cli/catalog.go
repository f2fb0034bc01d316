package cli

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"
)

func newCatalogCmd(f *Factory) *cobra.Command {
	return groupCmd(&cobra.Command{Use: "catalog", Short: "Inspect the stored catalog"}, newCatalogStatsCmd(f, nil))
}

type catalogStatsOptions struct{}

func newCatalogStatsCmd(f *Factory, runF func(*catalogStatsOptions) error) *cobra.Command {
	return noArgsCmd(f, &catalogStatsOptions{}, runF, catalogStatsRun, &cobra.Command{
		Use:   "stats",
		Short: "Print the record count per type and the catalog version",
	})
}

func catalogStatsRun(ctx context.Context, f *Factory, _ *catalogStatsOptions) error {
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	v, err := st.CatalogVersion(ctx)
	return f.show(v, err, func() error {
		t := f.IO.newTable("TYPE", "RECORDS")
		t.row("car", strconv.Itoa(v.Counts.Cars))
		t.row("motorcycle", strconv.Itoa(v.Counts.Motorcycles))
		t.row("boat", strconv.Itoa(v.Counts.Boats))
		t.row("tire_size", strconv.Itoa(v.Counts.TireSizes))
		if err := t.flush(); err != nil {
			return err
		}
		if v.Number == 0 {
			_, err := fmt.Fprintln(f.IO.Out, "catalog version 0: nothing ingested yet (run vds ingest)")
			return err
		}
		_, err := fmt.Fprintf(f.IO.Out, "catalog version %d, published %s from %s\n", v.Number, v.PublishedAt.Format(time.RFC3339), v.Source)
		return err
	})
}

package cli

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/epa"
)

type enrichOptions struct {
	Source  string
	Verbose bool
}

func newEnrichCmd(f *Factory, runF func(*enrichOptions) error) *cobra.Command {
	opts := &enrichOptions{}
	cmd := &cobra.Command{
		Use:   "enrich [--epa-csv FILE|URL] [--verbose]",
		Short: "Fill the cars' EPA fuel-economy fields from vehicles.csv",
		Long: `Read EPA's vehicles.csv (zipped or plain, a file or an http(s) URL; by
default upstream.epa_url, the fueleconomy.gov download) and match every
catalog car to one EPA row: same year, make and model family, same fuel
class, then the best drive, displacement, cylinders, transmission and trim
words, ties to the lowest EPA id (the full rule is in internal/epa).

mpg_city, mpg_highway, mpg_combined, epa_range_miles, annual_fuel_cost and
co2_gpm are written for every car in one transaction (unmatched cars get
null) and a new catalog version is published when anything changed, which
running servers pick up without a restart. Re-ingesting the catalog keeps
the enrichment.`,
		Example: `  vds enrich
  vds enrich --epa-csv vehicles.csv.zip --verbose`,
		Args: noArgs,
		RunE: runCmd(f, opts, runF, enrichRun, func([]string) error {
			if opts.Source == "" {
				opts.Source = f.Config().Upstream.EPAURL
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&opts.Source, "epa-csv", "", "vehicles.csv or vehicles.csv.zip: a file or an http(s) URL (default upstream.epa_url)")
	cmd.Flags().BoolVarP(&opts.Verbose, "verbose", "v", false, "list the cars that matched no EPA row")
	return cmd
}

// enrichReport is the --json output of enrich.
type enrichReport struct {
	Source    string         `json:"source"`
	EPARows   int            `json:"epa_rows"`
	Cars      int            `json:"cars"`
	Matched   int            `json:"matched"`
	Unmatched []unmatchedCar `json:"unmatched"`
	Changed   int            `json:"changed"`
	Published bool           `json:"published"`
	Version   int64          `json:"version"`
	Seconds   float64        `json:"seconds"`
}

type unmatchedCar struct {
	UUID  string `json:"uuid"`
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
	Trim  string `json:"trim"`
	Fuel  string `json:"fuel_type"`
	Drive string `json:"drive_type"`
}

func enrichRun(ctx context.Context, f *Factory, opts *enrichOptions) error {
	start := time.Now()
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	var bar *progressbar.ProgressBar
	var progress func(done, total int64)
	if f.IO.ErrTTY && !f.JSON {
		progress = func(done, total int64) {
			if bar == nil {
				bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(f.IO.ErrOut),
					progressbar.OptionSetDescription("reading EPA data"), progressbar.OptionShowBytes(true),
					progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
			}
			_ = bar.Set64(done)
		}
	}
	table, err := epa.Load(ctx, opts.Source, &http.Client{Timeout: epa.DownloadTimeout}, progress)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return fmt.Errorf("read EPA data: %w", err)
	}
	c, _, err := st.LoadCatalog(ctx)
	if err != nil {
		return err
	}
	res := epa.Enrich(table, c.Cars)
	changed, v, err := st.EnrichCars(ctx, res.Matched, "enrich:"+opts.Source)
	if err != nil {
		return err
	}
	rep := enrichReport{Source: opts.Source, EPARows: table.Len(), Cars: len(c.Cars), Matched: len(res.Matched),
		Unmatched: []unmatchedCar{}, Changed: changed, Published: changed > 0, Version: v.Number, Seconds: time.Since(start).Seconds()}
	for _, car := range res.Unmatched {
		rep.Unmatched = append(rep.Unmatched, unmatchedCar{UUID: car.UUID.String(), Make: car.Make, Model: car.Model, Year: car.Year,
			Trim: car.Trim, Fuel: car.FuelType, Drive: car.DriveType})
	}
	if f.JSON {
		return f.IO.writeJSON(rep)
	}
	pct := 0.0
	if rep.Cars > 0 {
		pct = 100 * float64(rep.Matched) / float64(rep.Cars)
	}
	fmt.Fprintf(f.IO.Out, "matched %d of %d cars (%.1f%%) to %d EPA rows; %d unmatched\n", rep.Matched, rep.Cars, pct, rep.EPARows, len(rep.Unmatched))
	if opts.Verbose && len(rep.Unmatched) > 0 {
		t := f.IO.newTable("UUID", "MAKE", "MODEL", "YEAR", "TRIM", "FUEL", "DRIVE")
		for _, u := range rep.Unmatched {
			t.row(u.UUID, u.Make, u.Model, strconv.Itoa(u.Year), dash(u.Trim), u.Fuel, u.Drive)
		}
		if err := t.flush(); err != nil {
			return err
		}
	}
	if rep.Published {
		fmt.Fprintf(f.IO.ErrOut, "%d cars changed; published catalog version %d in %.2fs\n", changed, v.Number, rep.Seconds)
	} else {
		fmt.Fprintf(f.IO.ErrOut, "fuel economy unchanged; catalog stays at version %d\n", v.Number)
	}
	return nil
}

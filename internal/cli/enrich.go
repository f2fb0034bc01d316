package cli

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/epa"
)

type enrichOptions struct {
	Source  string
	Verbose bool
	Rematch bool
}

func newEnrichCmd(f *Factory, runF func(*enrichOptions) error) *cobra.Command {
	opts := &enrichOptions{}
	cmd := noArgsCmd(f, opts, runF, enrichRun, &cobra.Command{
		Use:   "enrich [--epa-csv FILE|URL] [--verbose]",
		Short: "Fill the cars' EPA fuel-economy fields from vehicles.csv",
		Long: `Read EPA's vehicles.csv (zipped or plain, a file or an http(s) URL; by
default upstream.epa_url, the fueleconomy.gov download) and give every
catalog car its EPA row: the one its epa_id names when the file has it (the
demo catalog pins every car; an earlier enrich sets it too, so a car keeps
its EPA identity; --rematch ignores them), else the best match: same year, make and
model family, same fuel class, then motor count, driven wheels (AWD and
4WD alike), displacement, cylinders, body, the drive label, transmission,
trim words, wheel size (from the car's tire fitment) and the fewest words of other variants, ties to the lowest EPA id
(docs/data.md, EPA matching).

epa_id, mpg_city, mpg_highway, mpg_combined, epa_range_miles,
annual_fuel_cost and co2_gpm are written for every car in one transaction
(unmatched cars get null) and a new catalog version is published when
anything changed, which running servers pick up without a restart.
Re-ingesting the catalog keeps the enrichment. --verbose lists the cars
that matched nothing and the matches that tied with rows of other figures.`,
		Example: `  vds enrich
  vds enrich --epa-csv vehicles.csv.zip --rematch --verbose`,
	}, func([]string) error {
		if opts.Source == "" {
			opts.Source = f.Config().Upstream.EPAURL
		}
		return nil
	})
	cmd.Flags().StringVar(&opts.Source, "epa-csv", "", "vehicles.csv or vehicles.csv.zip: a file or an http(s) URL (default upstream.epa_url)")
	cmd.Flags().BoolVar(&opts.Rematch, "rematch", false, "match every car afresh, ignoring the epa_id it has")
	cmd.Flags().BoolVarP(&opts.Verbose, "verbose", "v", false, "list the cars that matched no EPA row, and the ambiguous matches with their candidates")
	return cmd
}

type enrichReport struct {
	Source    string         `json:"source"`
	EPARows   int            `json:"epa_rows"`
	Cars      int            `json:"cars"`
	Matched   int            `json:"matched"`
	Unmatched []unmatchedCar `json:"unmatched"`
	// Pinned counts the cars whose epa_id chose their row.
	Pinned    int            `json:"pinned"`
	Ambiguous []ambiguousCar `json:"ambiguous"`
	Changed   int            `json:"changed"`
	Published bool           `json:"published"`
	Version   int64          `json:"version"`
	Seconds   float64        `json:"seconds"`
}

type ambiguousCar struct {
	unmatchedCar
	EPAID      int   `json:"epa_id"`
	Candidates []int `json:"candidates"`
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
	table, err := loadEPA(ctx, f, opts.Source)
	if err != nil {
		return err
	}
	c, _, err := st.LoadCatalog(ctx)
	if err != nil {
		return err
	}
	if opts.Rematch {
		for i := range c.Cars {
			c.Cars[i].EPAID = catalog.Opt[int]{}
		}
	}
	res := epa.Enrich(table, c.Cars, epa.WheelSizes(c.Cars, c.TireSizes))
	changed, v, err := st.EnrichCars(ctx, res.Matched, "enrich:"+opts.Source)
	if err != nil {
		return err
	}
	rep := enrichReport{Source: opts.Source, EPARows: table.Len(), Cars: len(c.Cars), Matched: len(res.Matched),
		Unmatched: []unmatchedCar{}, Pinned: res.Pinned, Ambiguous: []ambiguousCar{}, Changed: changed, Published: changed > 0, Version: v.Number, Seconds: time.Since(start).Seconds()}
	for _, car := range res.Unmatched {
		rep.Unmatched = append(rep.Unmatched, unmatchedOf(car))
	}
	for _, a := range res.Ambiguous {
		amb := ambiguousCar{unmatchedCar: unmatchedOf(a.Car), EPAID: a.Chosen.ID, Candidates: []int{}}
		for _, r := range a.Candidates {
			amb.Candidates = append(amb.Candidates, r.ID)
		}
		rep.Ambiguous = append(rep.Ambiguous, amb)
	}
	if f.JSON {
		return f.writeJSON(rep)
	}
	pct := 0.0
	if rep.Cars > 0 {
		pct = 100 * float64(rep.Matched) / float64(rep.Cars)
	}
	fmt.Fprintf(f.IO.Out, "matched %d of %d cars (%.1f%%, %d by their pinned epa_id) to %d EPA rows; %d unmatched, %d ambiguous\n",
		rep.Matched, rep.Cars, pct, rep.Pinned, rep.EPARows, len(rep.Unmatched), len(rep.Ambiguous))
	if opts.Verbose && len(rep.Unmatched) > 0 {
		t := f.IO.newTable("UUID", "MAKE", "MODEL", "YEAR", "TRIM", "FUEL", "DRIVE")
		for _, u := range rep.Unmatched {
			t.row(u.UUID, u.Make, u.Model, strconv.Itoa(u.Year), dash(u.Trim), u.Fuel, u.Drive)
		}
		if err := flushSection(f.IO, "Unmatched", t); err != nil {
			return err
		}
	}
	if opts.Verbose && len(rep.Ambiguous) > 0 {
		t := f.IO.newTable("UUID", "MAKE", "MODEL", "YEAR", "TRIM", "EPA ID", "TIED WITH")
		for _, a := range res.Ambiguous {
			var tied []string
			for _, r := range a.Candidates {
				tied = append(tied, epaRowLabel(r))
			}
			t.row(a.Car.UUID.String(), a.Car.Make, a.Car.Model, strconv.Itoa(a.Car.Year), dash(a.Car.Trim),
				epaRowLabel(a.Chosen), strings.Join(tied, "; "))
		}
		if err := flushSection(f.IO, "Ambiguous: tied on every scored fact, the lowest EPA id chosen", t); err != nil {
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

// epaRowLabel names an EPA row by id, model text and the figures that tell
// its variants apart: "36121 MDX 4WD (22 mpg, 0 mi)".
func epaRowLabel(r epa.Row) string {
	return fmt.Sprintf("%d %s (%g mpg, %d mi)", r.ID, r.Model, r.Comb08, r.Range)
}

func unmatchedOf(car catalog.Car) unmatchedCar {
	return unmatchedCar{UUID: car.UUID.String(), Make: car.Make, Model: car.Model, Year: car.Year,
		Trim: car.Trim, Fuel: car.FuelType, Drive: car.DriveType}
}

// loadEPA reads vehicles.csv from a file or URL, with a progress bar on a terminal.
func loadEPA(ctx context.Context, f *Factory, source string) (*epa.Table, error) {
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
	table, err := epa.Load(ctx, source, &http.Client{Timeout: epa.DownloadTimeout}, progress)
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return nil, fmt.Errorf("read EPA data: %w", err)
	}
	return table, nil
}

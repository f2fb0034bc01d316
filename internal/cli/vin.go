package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"golang.org/x/sync/errgroup"
)

// maxLinked bounds how many linked records of each kind vds vin fetches:
// each is a charged call, and the first few identify the vehicle well
// enough; the rest are listed by uuid in --json.
const maxLinked = 20

type vinOptions struct {
	VIN     string
	NoLinks bool
}

// vinOutput is the --json output: the API's decode plus the linked records.
type vinOutput struct {
	*client.VINReport
	LinkedCars      []client.Car         `json:"linked_cars"`
	LinkedTireSizes []client.TireFitment `json:"linked_tire_sizes"`
}

func newVINCmd(f *Factory, runF func(*vinOptions) error) *cobra.Command {
	opts := &vinOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "vin VIN",
		Short: "Decode a VIN and show the catalog cars and tire fitments it links to",
		Long: `Decode a 17-character VIN: the server's local checks (check digit, model
year candidates, manufacturer region and country), NHTSA vPIC's decode, and
the catalog cars and tire fitments of the same make, model and year, which
are fetched and listed (the first ` + strconv.Itoa(maxLinked) + ` of each; --no-links skips them,
each costs one call).

A malformed VIN is refused before it reaches NHTSA (exit 2); a well-formed
VIN whose manufacturer nobody knows exits 1.`,
		Example: `  vds vin 1FTMW1T88MFA00001
  vds vin 1FTMW1T88MFA00001 | awk -F'\t' '$1 == "car" {print $2}'`,
		Args:              exactArgs("VIN"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: runCmd(f, opts, runF, vinRun, func(args []string) error {
			opts.VIN = strings.TrimSpace(args[0])
			if opts.VIN == "" {
				return usageErrorf(fmt.Errorf("empty VIN"))
			}
			return nil
		}),
	})
	cmd.Flags().BoolVar(&opts.NoLinks, "no-links", false, "do not fetch the linked catalog records")
	return cmd
}

func vinRun(ctx context.Context, f *Factory, opts *vinOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	rep, err := c.DecodeVIN(ctx, opts.VIN)
	if err != nil {
		return err
	}
	out := vinOutput{VINReport: rep, LinkedCars: []client.Car{}, LinkedTireSizes: []client.TireFitment{}}
	if !opts.NoLinks {
		if out.LinkedCars, err = fetchLinked(ctx, rep.Links.Cars, c.GetCar); err != nil {
			return err
		}
		if out.LinkedTireSizes, err = fetchLinked(ctx, rep.Links.TireSizes, c.GetTireSize); err != nil {
			return err
		}
	}
	if rep.Stale {
		fmt.Fprintf(f.IO.ErrOut, "note: NHTSA did not answer; this decode is a cached copy from %s\n", formatTime(rep.FetchedAt))
	}
	if f.JSON {
		return f.IO.writeJSON(out)
	}
	return printVIN(f.IO, out)
}

// fetchLinked gets the first maxLinked records by uuid, a few at a time,
// in the order given. A record that left the catalog since the decode was
// cached is skipped rather than failing the whole command.
func fetchLinked[T any](ctx context.Context, ids []string, get func(context.Context, string, ...client.CallOption) (*T, error)) ([]T, error) {
	ids = ids[:min(len(ids), maxLinked)]
	got := make([]*T, len(ids))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for i, id := range ids {
		g.Go(func() error {
			r, err := get(gctx, id)
			if client.IsNotFound(err) {
				return nil
			}
			got[i] = r
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := make([]T, 0, len(got))
	for _, r := range got {
		if r != nil {
			out = append(out, *r)
		}
	}
	return out, nil
}

func printVIN(s *IOStreams, out vinOutput) error {
	r := out.VINReport
	year := optInt(r.Year)
	engine := []string{}
	if r.Engine.Cylinders != nil {
		engine = append(engine, strconv.Itoa(*r.Engine.Cylinders)+" cyl")
	}
	if r.Engine.DisplacementL != nil {
		engine = append(engine, formatFloat(*r.Engine.DisplacementL, 1)+" L")
	}
	if r.Engine.FuelType != nil {
		engine = append(engine, *r.Engine.FuelType)
	}
	if r.Engine.PowerHP != nil {
		engine = append(engine, formatFloat(*r.Engine.PowerHP, 0)+" hp")
	}
	plant := []string{}
	for _, p := range []*string{r.Plant.City, r.Plant.State, r.Plant.Country} {
		if p != nil && strings.TrimSpace(*p) != "" {
			plant = append(plant, *p)
		}
	}
	check := r.CheckDigit.Found + " (valid)"
	if !r.CheckDigit.Valid {
		check = fmt.Sprintf("%s, expected %s (invalid", r.CheckDigit.Found, r.CheckDigit.Expected)
		if r.CheckDigit.Advisory {
			check += "; advisory outside North America"
		}
		check += ")"
	}
	years := make([]string, 0, len(r.ModelYearCandidates))
	for _, y := range r.ModelYearCandidates {
		years = append(years, strconv.Itoa(y))
	}
	vpicErrors := strings.Join(r.ErrorCodes, ",")
	if r.ErrorText != nil && *r.ErrorText != "" {
		vpicErrors = *r.ErrorText
	}
	t := s.newTable()
	t.row("VIN", r.VIN)
	t.row("Make", optString(r.Make))
	t.row("Model", optString(r.Model))
	t.row("Year", year)
	t.row("Trim", optString(r.Trim))
	t.row("Series", optString(r.Series))
	t.row("Body", bodyText(r.Body, r.BodyClass, r.Doors))
	t.row("Vehicle type", optString(r.VehicleType))
	t.row("Manufacturer", optString(r.Manufacturer))
	t.row("Engine", dashIfEmpty(strings.Join(engine, ", ")))
	t.row("Plant", dashIfEmpty(strings.Join(plant, ", ")))
	t.row("Check digit", check)
	t.row("WMI", fmt.Sprintf("%s (%s, %s)", r.WMI.Code, dashIfEmpty(r.WMI.Region), dashIfEmpty(r.WMI.Country)))
	t.row("Model years", dashIfEmpty(strings.Join(years, ", ")))
	t.row("vPIC message", dashIfEmpty(truncateTTY(s, vpicErrors, 100)))
	t.row("Source", r.Source+", fetched "+formatTime(r.FetchedAt))
	if err := t.flush(); err != nil {
		return err
	}
	// Piped, every linked record is a row whose first field says its kind,
	// so `awk '$1 == "car"'` picks them out of the key-value rows above.
	cars := s.newTable("UUID", "YEAR", "MAKE", "MODEL", "TRIM")
	for _, car := range out.LinkedCars {
		cars.row(linkCells(s, "car", car.UUID, strconv.Itoa(car.Year), car.Make, car.Model, dashIfEmpty(car.Trim))...)
	}
	if err := flushSection(s, fmt.Sprintf("Catalog cars (%d)", len(r.Links.Cars)), cars); err != nil {
		return err
	}
	tires := s.newTable("UUID", "YEAR", "MAKE", "MODEL", "TRIM", "SIZE")
	for _, ts := range out.LinkedTireSizes {
		tires.row(linkCells(s, "tire", ts.UUID, strconv.Itoa(ts.Year), ts.Make, ts.Model, dashIfEmpty(ts.Trim), ts.TireSize)...)
	}
	return flushSection(s, fmt.Sprintf("Tire fitments (%d)", len(r.Links.TireSizes)), tires)
}

// linkCells prefixes a row with its kind when piped.
func linkCells(s *IOStreams, kind string, cells ...string) []string {
	if s.OutTTY {
		return cells
	}
	return append([]string{kind}, cells...)
}

// flushSection prints a titled table on a terminal (or "none"), and only
// the rows when piped.
func flushSection(s *IOStreams, title string, t *table) error {
	if s.OutTTY {
		if _, err := fmt.Fprintf(s.Out, "\n%s\n", s.colorize(colorBold, title)); err != nil {
			return err
		}
		if len(t.rows) == 0 {
			_, err := fmt.Fprintln(s.Out, "none")
			return err
		}
	}
	return t.flush()
}

// truncateTTY shortens prose on a terminal only.
func truncateTTY(s *IOStreams, text string, n int) string {
	if !s.OutTTY {
		return strings.Join(strings.Fields(text), " ")
	}
	return truncate(text, n)
}

// bodyText is the catalog's body type with vPIC's body class and the
// door count beside it: "SUV (Sport Utility Vehicle (SUV)/Multi-Purpose
// Vehicle (MPV), 4 doors)".
func bodyText(body, class *string, doors *int) string {
	var extra []string
	if class != nil && (body == nil || *class != *body) {
		extra = append(extra, *class)
	}
	if doors != nil {
		extra = append(extra, strconv.Itoa(*doors)+" doors")
	}
	out := optString(body)
	if len(extra) > 0 {
		out += " (" + strings.Join(extra, ", ") + ")"
	}
	return out
}

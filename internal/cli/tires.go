package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/textfmt"
	"github.com/vds-dev/vds/internal/vehicle"
)

type tiresOptions struct {
	// UUID is a tire fitment's or a car's; otherwise Make and Model (and
	// optionally Year) select the fitments.
	UUID        string
	Make, Model string
	Year        int
}

// tiresOutput is what vds tires found; --json prints Fitments. Car and
// Match are set for a car uuid.
type tiresOutput struct {
	Car      *client.CarRef
	Match    *string
	Fitments []client.FitmentGeometry
}

// bind takes a UUID or --make and --model (and --year), never both.
func (o *tiresOptions) bind(args []string) error {
	byVehicle := o.Make != "" || o.Model != "" || o.Year != 0
	switch {
	case len(args) == 1 && byVehicle:
		return usageErrorf(errors.New("give a UUID or --make/--model/--year, not both"))
	case len(args) == 1:
		if err := checkUUID(args[0]); err != nil {
			return err
		}
		o.UUID = args[0]
	case o.Make == "" || o.Model == "":
		return usageErrorf(errors.New("give a tire fitment or car UUID, or --make and --model (and --year)"))
	}
	return nil
}

func newTiresCmd(f *Factory, runF func(*tiresOptions) error) *cobra.Command {
	opts := &tiresOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "tires (UUID | --make MAKE --model MODEL [--year YEAR])",
		Short: "Show tire fitments with the geometry of the OEM and alternate sizes",
		Long: `Show tire fitments: for each, a table of the OEM size (and the rear size of
a staggered fitment) and every alternate size with its overall diameter,
width and sidewall in inches, revolutions per mile, and the diameter
difference against the OEM size (a rear alternate's against the rear size).
The OEM sizes show their load index and speed rating when known. VERDICT is
OK when an alternate is within the server's window (±3% of the OEM
diameter), else "outside ±3%"; rear alternates say "OK rear".

UUID is a tire fitment's (as vds search tire or vds vin list) or a car's
(its fitments of the same make and model, the car's year preferred).
--make and --model (and --year) select up to 10 fitments instead. Either
way it costs one call: the geometry of listed fitments is computed here,
by the server's code.`,
		Example: `  vds tires --make Ford --model F-150 --year 2021
  vds tires c43fb9e6-bb47-57ba-b444-5873c637607c --json
  vds tires a80b48b2-b909-5d42-9c53-0af15fe3ba82 --jq '.[].alternates[] | select(.within_window) | .size'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErrorf(fmt.Errorf("expected at most 1 argument: UUID; got %d", len(args)))
			}
			return nil
		},
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              runCmd(f, opts, runF, tiresRun, opts.bind),
	})
	cmd.Flags().StringVar(&opts.Make, "make", "", "make of the vehicle")
	cmd.Flags().StringVar(&opts.Model, "model", "", "model of the vehicle")
	cmd.Flags().IntVar(&opts.Year, "year", 0, "model year of the vehicle")
	_ = cmd.RegisterFlagCompletionFunc("make", completeMake(f, client.KindTireSize))
	_ = cmd.RegisterFlagCompletionFunc("model", cobra.NoFileCompletions)
	cmd.AddCommand(newTiresPlusCmd(f, nil), newTiresSizeCmd(f, nil))
	return cmd
}

func tiresRun(ctx context.Context, f *Factory, opts *tiresOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	out := tiresOutput{Fitments: []client.FitmentGeometry{}}
	switch {
	case opts.UUID != "":
		// A uuid does not say its kind: try the fitment, then the car. A
		// 404 is refunded, so the miss costs nothing.
		g, err := c.TireGeometry(ctx, opts.UUID)
		switch {
		case err == nil:
			out.Fitments = append(out.Fitments, *g)
		case client.IsNotFound(err):
			ct, err := c.CarTireSizes(ctx, opts.UUID)
			if client.IsNotFound(err) {
				return notFound("no tire fitment or car with uuid %s", opts.UUID)
			}
			if err != nil {
				return err
			}
			out.Car, out.Match, out.Fitments = &ct.Car, &ct.Match, ct.Fitments
		default:
			return err
		}
	default:
		p, err := c.ListTireSizes(ctx, client.TireSizeQuery{Make: opts.Make, Model: opts.Model, Year: opts.Year})
		if err != nil {
			return err
		}
		for _, r := range p.Data {
			g, err := localGeometry(r)
			if err != nil {
				return err
			}
			out.Fitments = append(out.Fitments, g)
		}
		if p.Meta.Total > len(p.Data) {
			fmt.Fprintf(f.IO.ErrOut, "note: showing %d of %d fitments; narrow with --year\n", len(p.Data), p.Meta.Total)
		}
	}
	printCarMatch(f.IO, out)
	return f.show(out.Fitments, nil, func() error { return printTires(f.IO, out) })
}

// localGeometry is what /v1/tire-sizes/{uuid}/geometry answers for a
// listed fitment, computed here by the server's code: one call lists ten
// fitments, where fetching their geometry would cost ten more.
func localGeometry(f client.TireFitment) (client.FitmentGeometry, error) {
	var rec catalog.TireFitment
	var g client.FitmentGeometry
	if err := convertJSON(f, &rec); err != nil {
		return g, err
	}
	return g, convertJSON(vehicle.GeometryOf(&rec), &g)
}

// convertJSON copies a wire value between the client's and the server's
// types, which share their JSON.
func convertJSON(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

// printCarMatch says on stderr which fitments a car uuid found, so that
// stdout holds only the fitments, in a table or as JSON.
func printCarMatch(s *IOStreams, out tiresOutput) {
	if out.Car != nil {
		what := "fitments of its make and model in its model year"
		switch *out.Match {
		case client.MatchNearestYear:
			what = "none of its model year: fitments of the nearest year"
		case client.MatchNone:
			what = "no fitment of its make and model in the catalog"
		}
		fmt.Fprintf(s.ErrOut, "car %s (%s): %s\n", textfmt.Printable(out.Car.UUID), textfmt.Printable(vehicleName(out.Car.Year, out.Car.Make, out.Car.Model, out.Car.Trim)), what)
	}
}

func printTires(s *IOStreams, out tiresOutput) error {
	if len(out.Fitments) == 0 {
		if out.Car == nil {
			fmt.Fprintln(s.ErrOut, "no tire fitments match")
		}
		return nil
	}
	for i, g := range out.Fitments {
		window := formatFloat(g.WindowPct, 1)
		if s.OutTTY {
			sep := ""
			if i > 0 {
				sep = "\n"
			}
			fm := g.Fitment
			if _, err := fmt.Fprintf(s.Out, "%s%s  %s\n", sep, s.colorize(colorBold, vehicleName(fm.Year, fm.Make, fm.Model, fm.Trim)), textfmt.Printable(fm.UUID)); err != nil {
				return err
			}
		}
		t := s.newTable("SIZE", "DIAMETER (in)", "WIDTH (in)", "SIDEWALL (in)", "REVS/MILE", "DIFF (in)", "DIFF %", "VERDICT")
		// Piped, each row leads with the fitment uuid so that rows of
		// several fitments stay apart.
		row := func(cells ...string) {
			if !s.OutTTY {
				cells = append([]string{g.Fitment.UUID}, cells...)
			}
			t.row(cells...)
		}
		fm := g.Fitment
		oem := g.OEM
		oem.Size = client.RatedSize(oem.Size, fm.LoadIndex, fm.SpeedRating)
		row(sizeCells(oem, "-", "-", "OEM")...)
		alternates := func(alts []client.AlternateGeometry, axle string) {
			for _, a := range alts {
				verdict, color := "OK"+axle, colorGreen
				if !a.WithinWindow {
					verdict, color = "outside ±"+window+"%"+axle, colorRed
				}
				row(sizeCells(a.SizeGeometry, signed(a.DiameterDiffIn, 2), signed(a.DiameterDiffPct, 1)+"%", verdict)...)
				t.colorLast(color)
			}
		}
		alternates(g.Alternates, "")
		if g.Rear != nil {
			rear := *g.Rear
			rear.Size = client.RatedSize(rear.Size, fm.RearLoadIndex, fm.RearSpeedRating)
			row(sizeCells(rear, "-", "-", "OEM rear")...)
			alternates(g.RearAlternates, " rear")
		}
		if err := t.flush(); err != nil {
			return err
		}
	}
	return nil
}

// sizeCells are a size's geometry columns followed by diff and verdict;
// the verdict stays last because only a last cell may carry colour.
func sizeCells(g client.SizeGeometry, diffIn, diffPct, verdict string) []string {
	return []string{
		g.Size,
		strconv.FormatFloat(g.DiameterIn, 'f', 2, 64),
		strconv.FormatFloat(g.WidthIn, 'f', 2, 64),
		strconv.FormatFloat(g.SidewallIn, 'f', 2, 64),
		strconv.FormatFloat(math.Round(g.RevsPerMile*10)/10, 'f', 1, 64),
		diffIn, diffPct, verdict,
	}
}

package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/vehicle"
)

type tiresPlusOptions struct {
	UUID   string
	Window int
}

func newTiresPlusCmd(f *Factory, runF func(*tiresPlusOptions) error) *cobra.Command {
	opts := &tiresPlusOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "plus UUID",
		Short: "Show the plus sizes of a tire fitment",
		Long: `Show the plus sizes of a tire fitment's OEM size (and its rear size when
staggered): every metric size from 20 mm narrower to 40 mm wider, aspect
ratio 25 to 85, on rims 2 inches below to 3 above the OEM rim, whose overall
diameter is within --window percent of the OEM's, by rim, closest first.

Each row has the diameter and its difference, the sidewall change, what the
speedometer reads at a true 60 mph and 100 km/h, the lowest load index and
speed rating to buy (the OEM tire's), and XL when that load needs a
reinforced tire. Piped, each row leads with the axle (front or rear).`,
		Example: `  vds tires plus c43fb9e6-bb47-57ba-b444-5873c637607c
  vds tires plus c43fb9e6-bb47-57ba-b444-5873c637607c --window 1 --json`,
		Args:              exactArgs("UUID"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: runCmd(f, opts, runF, tiresPlusRun, argsTo(&opts.UUID), func([]string) error {
			return checkUUID(opts.UUID)
		}),
	})
	cmd.Flags().IntVar(&opts.Window, "window", vehicle.DefaultPlusWindow,
		fmt.Sprintf("diameter window, %d to %d percent of the OEM diameter", vehicle.MinPlusWindow, vehicle.MaxPlusWindow))
	return cmd
}

func tiresPlusRun(ctx context.Context, f *Factory, opts *tiresPlusOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	p, err := c.TirePlusSizes(ctx, opts.UUID, opts.Window)
	if client.IsNotFound(err) {
		return notFound("no tire fitment with uuid %s", opts.UUID)
	}
	return f.show(p, err, func() error {
		fm := p.Fitment
		if f.IO.OutTTY {
			fmt.Fprintf(f.IO.Out, "%s  %s  ±%d%%\n", f.IO.colorize(colorBold, vehicleName(fm.Year, fm.Make, fm.Model, fm.Trim)), fm.UUID, p.WindowPct)
		}
		t := plusTable(f.IO)
		addPlusRows(t, "front", &p.Front)
		if p.Rear != nil {
			addPlusRows(t, "rear", p.Rear)
		}
		return t.flush()
	})
}

func plusTable(s *IOStreams) *table {
	return s.newTable("AXLE", "RIM", "SIZE", "DIAMETER (in)", "DIFF %", "SIDEWALL (mm)", "AT 60 MPH", "AT 100 KM/H", "LOAD", "SPEED")
}

// addPlusRows lists a set's sizes by rim; the OEM size is marked.
func addPlusRows(t *table, axle string, set *client.PlusSizeSet) {
	for _, g := range set.Rims {
		for _, s := range g.Sizes {
			size := s.Size
			if s.OEM {
				size += " (OEM)"
			}
			var load []string
			if s.MinLoadIndex != nil {
				load = append(load, strconv.Itoa(*s.MinLoadIndex))
			}
			if s.Reinforced {
				load = append(load, "XL")
			}
			speed := "-"
			if s.MinSpeedRating != nil {
				speed = *s.MinSpeedRating
			}
			t.row(axle, signed(float64(g.RimOffset), 0)+" ("+formatFloat(g.RimIn, 1)+")", size, formatFloat(s.DiameterIn, 2),
				signed(s.DiameterDiffPct, 2)+"%", signed(s.SidewallDiffMM, 1), formatFloat(s.Speedometer60, 1),
				formatFloat(s.Speedometer100, 1), dashIfEmpty(strings.Join(load, " ")), speed)
		}
	}
}

type tiresSizeOptions struct {
	Size       string
	Window     int
	Make       string
	Year, Page int
}

func newTiresSizeCmd(f *Factory, runF func(*tiresSizeOptions) error) *cobra.Command {
	opts := &tiresSizeOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "size SIZE",
		Short: "Look up a tire size: its geometry, plus sizes and the fitments carrying it",
		Long: `Look up a tire size in any spelling (225/45R17, P225/45R17 94W, LT285/70R17,
35x12.50R17LT): its geometry, its plus sizes within --window percent, and a
page of the fitments that carry it as OEM or alternate size, front or rear,
with how many fitments of each make and year carry it. --make and --year
narrow the fitments; --page pages through them (10 a page).`,
		Example: `  vds tires size 225/45R17
  vds tires size "35x12.50R17 LT" --make Jeep
  vds tires size LT285/70R17 --json --jq '.facets.makes'`,
		Args:              exactArgs("SIZE"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              runCmd(f, opts, runF, tiresSizeRun, argsTo(&opts.Size)),
	})
	cmd.Flags().IntVar(&opts.Window, "window", vehicle.DefaultPlusWindow,
		fmt.Sprintf("plus-size diameter window, %d to %d percent", vehicle.MinPlusWindow, vehicle.MaxPlusWindow))
	cmd.Flags().StringVar(&opts.Make, "make", "", "only fitments of this make")
	cmd.Flags().IntVar(&opts.Year, "year", 0, "only fitments of this model year")
	cmd.Flags().IntVar(&opts.Page, "page", 1, "page of fitments")
	_ = cmd.RegisterFlagCompletionFunc("make", completeMake(f, client.KindTireSize))
	return cmd
}

func tiresSizeRun(ctx context.Context, f *Factory, opts *tiresSizeOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	l, err := c.LookupTireSize(ctx, client.SizeLookupQuery{Size: opts.Size, Window: opts.Window, Make: opts.Make, Year: opts.Year, Page: opts.Page})
	return f.show(l, err, func() error {
		g := l.Size
		fmt.Fprintf(f.IO.ErrOut, "%s: diameter %s in (%s mm), width %s in, sidewall %s mm, %s revs/mile\n", g.Size,
			formatFloat(g.DiameterIn, 2), formatFloat(g.DiameterMM, 1), formatFloat(g.WidthIn, 2), formatFloat(g.SidewallMM, 1),
			formatFloat(g.RevsPerMile, 1))
		t := plusTable(f.IO)
		addPlusRows(t, "-", &l.PlusSizes)
		if err := t.flush(); err != nil {
			return err
		}
		ft := f.IO.newTable("UUID", "VEHICLE", "CARRIES IT AS")
		for _, m := range l.Fitments {
			fm := m.Fitment
			ft.row(fm.UUID, vehicleName(fm.Year, fm.Make, fm.Model, fm.Trim), strings.Join(m.Roles, ", "))
		}
		if f.IO.OutTTY {
			fmt.Fprintln(f.IO.Out)
		}
		if err := ft.flush(); err != nil {
			return err
		}
		facets := make([]string, len(l.Facets.Makes))
		for i, m := range l.Facets.Makes {
			facets[i] = fmt.Sprintf("%s %d", m.Name, m.Count)
		}
		fmt.Fprintf(f.IO.ErrOut, "%d fitments (page %d of %d); by make: %s\n", l.Meta.Total, l.Meta.Page, max(l.Meta.MaxPage, 1),
			dashIfEmpty(strings.Join(facets, ", ")))
		return nil
	})
}

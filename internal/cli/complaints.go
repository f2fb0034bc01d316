package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/textfmt"
)

type complaintsOptions struct {
	Kind          client.Kind
	UUID          string
	Page, PerPage int
}

func newComplaintsCmd(f *Factory, runF func(*complaintsOptions) error) *cobra.Command {
	opts := &complaintsOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "complaints TYPE UUID",
		Short: "Show owners' safety complaints to NHTSA about a catalog vehicle",
		Long: `Show a page of the owners' safety complaints to NHTSA about a car's or
motorcycle's make, model and year, newest received first, with totals of
crashes, fires, injuries and deaths and the complaints per component over
all pages. Coverage is the US (NHTSA); the complaints come from NHTSA's
imported complaint file or its API, as the server's recalls.source says.

Piped, complaint rows start with "complaint" and component rows with "component".`,
		Example: `  vds recalls complaints car a80b48b2-b909-5d42-9c53-0af15fe3ba82
  vds recalls complaints car a80b48b2-b909-5d42-9c53-0af15fe3ba82 --page 2 --json`,
		Args:              exactArgs("TYPE", "UUID"),
		ValidArgsFunction: completeCarOrMotorcycle,
		RunE:              runCmd(f, opts, runF, complaintsRun, kindArg(&opts.Kind), carOrMotorcycle("complaints", &opts.Kind), uuidArg(1, &opts.UUID)),
	})
	cmd.Flags().IntVar(&opts.Page, "page", 0, "page number, 1 to 40 (default 1)")
	cmd.Flags().IntVar(&opts.PerPage, "per-page", 0, "complaints per page, 1 to 10 (default 10)")
	return cmd
}

func complaintsRun(ctx context.Context, f *Factory, opts *complaintsOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	get := c.CarComplaints
	if opts.Kind == client.KindMotorcycle {
		get = c.MotorcycleComplaints
	}
	r, err := get(ctx, opts.UUID, opts.Page, opts.PerPage)
	if err == nil && r.Stale {
		fmt.Fprintf(f.IO.ErrOut, "note: NHTSA did not answer; this is a cached copy from %s\n", formatTime(r.FetchedAt))
	}
	return f.show(r, err, func() error {
		s := f.IO
		v, t := r.Vehicle, r.Totals
		if s.OutTTY {
			fmt.Fprintln(s.Out, s.colorize(colorBold, fmt.Sprintf("%s  %s %s, coverage %s", vehicleName(v.Year, v.Make, v.Model), opts.Kind, v.UUID, r.Coverage)))
		}
		fmt.Fprintf(s.ErrOut, "%d complaints: %d crashes, %d fires, %d injured, %d killed (from %s)\n",
			t.Complaints, t.Crashes, t.Fires, t.Injuries, t.Deaths, textfmt.Printable(r.Source))
		ct := s.newTable("COMPONENT", "COMPLAINTS")
		for _, bc := range r.ByComponent {
			ct.row(linkCells(s, "component", bc.Component, strconv.Itoa(bc.Complaints))...)
		}
		if err := flushSection(s, "By component", ct); err != nil {
			return err
		}
		rt := s.newTable("ODI", "RECEIVED", "INCIDENT", "COMPONENTS", "HARM", "SUMMARY")
		for _, cp := range r.Complaints {
			rt.row(linkCells(s, "complaint", strconv.FormatInt(cp.ODINumber, 10), optString(cp.ReceivedDate), optString(cp.IncidentDate),
				truncateTTY(s, strings.Join(cp.Components, ", "), 40), harm(cp), truncateTTY(s, optString(cp.Summary), 80))...)
		}
		return flushSection(s, fmt.Sprintf("Complaints (page %d of %d)", r.Meta.Page, max(r.Meta.MaxPage, 1)), rt)
	})
}

// harm sums up a complaint's crash, fire, injuries and deaths.
func harm(c client.Complaint) string {
	var h []string
	if c.Crash {
		h = append(h, "crash")
	}
	if c.Fire {
		h = append(h, "fire")
	}
	if c.Injuries > 0 {
		h = append(h, strconv.Itoa(c.Injuries)+" injured")
	}
	if c.Deaths > 0 {
		h = append(h, strconv.Itoa(c.Deaths)+" killed")
	}
	return dashIfEmpty(strings.Join(h, ", "))
}

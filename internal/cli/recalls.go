package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/textfmt"
)

type recallsOptions struct {
	Kind client.Kind
	UUID string
}

func newRecallsCmd(f *Factory, runF func(*recallsOptions) error) *cobra.Command {
	opts := &recallsOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "recalls TYPE UUID",
		Short: "Show NHTSA recalls (and, for cars, NCAP crash ratings) of a catalog vehicle",
		Long: `Show the NHTSA recall campaigns of a car or motorcycle of the catalog, and
for a car its NCAP crash ratings per variant (stars; "-" when not rated).
Coverage is the US (NHTSA). When NHTSA is unreachable and the server holds
an expired copy, that copy is shown with a note on stderr.

Piped, recall rows start with "recall" and rating rows with "rating".`,
		Example: `  vds recalls car a80b48b2-b909-5d42-9c53-0af15fe3ba82
  vds recalls motorcycle 32a94601-e14f-51e7-9af0-c28ce9684355 --json`,
		Args:              exactArgs("TYPE", "UUID"),
		ValidArgsFunction: completeCarOrMotorcycle,
		RunE:              runCmd(f, opts, runF, recallsRun, kindArg(&opts.Kind), carOrMotorcycle("recalls", &opts.Kind), uuidArg(1, &opts.UUID)),
	})
	cmd.AddCommand(newRecallsRefreshCmd(f, nil), newComplaintsCmd(f, nil))
	return cmd
}

func recallsRun(ctx context.Context, f *Factory, opts *recallsOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	var (
		out        any
		title      string
		recalls    []client.Recall
		ratings    []client.Rating
		note       string
		source     string
		stale      bool
		fetchedAt  time.Time
		hasRatings bool
	)
	if opts.Kind == client.KindCar {
		r, err := c.CarRecalls(ctx, opts.UUID)
		if err != nil {
			return err
		}
		out, recalls, ratings, source, stale, fetchedAt, hasRatings = r, r.Recalls, r.Ratings, r.Source, r.Stale, r.FetchedAt, true
		if r.RatingsUnavailable {
			fmt.Fprintln(f.IO.ErrOut, "note: NHTSA did not answer; no crash ratings (recalls are from the imported files)")
		}
		title = fmt.Sprintf("%s  car %s, coverage %s", vehicleName(r.Car.Year, r.Car.Make, r.Car.Model, r.Car.Trim), r.Car.UUID, r.Coverage)
	} else {
		r, err := c.MotorcycleRecalls(ctx, opts.UUID)
		if err != nil {
			return err
		}
		out, recalls, note, source, stale, fetchedAt = r, r.Recalls, r.Note, r.Source, r.Stale, r.FetchedAt
		title = fmt.Sprintf("%s  motorcycle %s, coverage %s", vehicleName(r.Motorcycle.Year, r.Motorcycle.Make, r.Motorcycle.Model), r.Motorcycle.UUID, r.Coverage)
	}
	if stale {
		fmt.Fprintf(f.IO.ErrOut, "note: NHTSA did not answer; this is a cached copy from %s\n", formatTime(fetchedAt))
	}
	if f.JSON {
		return f.writeJSON(out)
	}
	s := f.IO
	if s.OutTTY {
		if _, err := fmt.Fprintln(s.Out, s.colorize(colorBold, title)); err != nil {
			return err
		}
	}
	rt := s.newTable("CAMPAIGN", "DATE", "COMPONENT", "ADVICE", "SUMMARY")
	for _, r := range recalls {
		rt.row(linkCells(s, "recall", r.CampaignNumber, optString(r.ReportDate), truncateTTY(s, optString(r.Component), 40),
			recallAdvice(r.ParkIt, r.ParkOutside, r.OTAUpdate), truncateTTY(s, optString(r.Summary), 80))...)
	}
	if err := flushSection(s, fmt.Sprintf("Recalls (%d, from %s)", len(recalls), textfmt.Printable(source)), rt); err != nil {
		return err
	}
	if len(recalls) == 0 && note != "" {
		fmt.Fprintln(s.ErrOut, "note: "+textfmt.Printable(note))
	}
	if !hasRatings {
		return nil
	}
	nt := s.newTable("VARIANT", "OVERALL", "FRONT", "SIDE", "ROLLOVER")
	for _, r := range ratings {
		variant := optString(r.Description)
		if variant == "-" {
			variant = "vehicle " + strconv.Itoa(r.VehicleID)
		}
		nt.row(linkCells(s, "rating", variant, optInt(r.Overall), optInt(r.Front), optInt(r.Side), optInt(r.Rollover))...)
	}
	return flushSection(s, fmt.Sprintf("NCAP crash ratings, stars (%d variants)", len(ratings)), nt)
}

// recallAdvice sums up NHTSA's flags: what the owner should do now.
func recallAdvice(parkIt, parkOutside, ota bool) string {
	var a []string
	if parkIt {
		a = append(a, "park it")
	}
	if parkOutside {
		a = append(a, "park outside")
	}
	if ota {
		a = append(a, "over-the-air fix")
	}
	return dashIfEmpty(strings.Join(a, ", "))
}

// completeCarOrMotorcycle completes the TYPE of recalls and complaints.
func completeCarOrMotorcycle(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return []string{"car", "motorcycle"}, cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// carOrMotorcycle refuses a TYPE other than car or motorcycle, which alone have what.
func carOrMotorcycle(what string, kind *client.Kind) func([]string) error {
	return func([]string) error {
		if *kind != client.KindCar && *kind != client.KindMotorcycle {
			return usageErrorf(fmt.Errorf("%s are known for cars and motorcycles, not %s", what, kindNoun(*kind)))
		}
		return nil
	}
}

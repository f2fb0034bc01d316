package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
)

type garageOptions struct {
	Recalls bool
}

func newGarageCmd(f *Factory, runF func(*garageOptions) error) *cobra.Command {
	opts := &garageOptions{}
	cmd := clientCmd(f, noArgsCmd(f, opts, runF, garageRun, &cobra.Command{
		Use:   "garage [--recalls]",
		Short: "Show your saved vehicle lists",
		Long: `Show the saved lists of the token's account ("My garage" and any others)
with each item's type, uuid (or VIN), vehicle, note and recall status. An
item whose record has left the catalog is kept and marked "missing from
catalog". The server's recall watch checks each car, motorcycle and VIN
once a day; RECALLS says how many campaigns are open and how many are new.

--recalls lists the campaigns instead, one line per campaign and item, with
when the watch first saw it and your status (open or dealt with).`,
		Example: `  vds garage
  vds garage --recalls
  vds garage --jq '.[].items[] | [.type, .uuid] | @tsv'`,
	}))
	cmd.Flags().BoolVar(&opts.Recalls, "recalls", false, "list the recall campaigns of the saved vehicles")
	return cmd
}

func garageRun(ctx context.Context, f *Factory, opts *garageOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	if opts.Recalls {
		items, err := c.ListRecalls(ctx)
		return f.show(items, err, func() error { return printGarageRecalls(f.IO, items) })
	}
	lists, err := c.Lists(ctx)
	return f.show(lists, err, func() error { return printGarage(f.IO, lists) })
}

func printGarage(s *IOStreams, lists []client.List) error {
	t := s.newTable("LIST", "TYPE", "UUID/VIN", "MAKE", "MODEL", "YEAR", "NOTE", "RECALLS", "STATUS")
	for _, l := range lists {
		if len(l.Items) == 0 {
			t.row(l.Name, "-", "(empty)", "-", "-", "-", "-", "-", "-")
		}
		for _, it := range l.Items {
			mk, model, year, status, color := "-", "-", "-", "ok", colorGreen
			if it.Record != nil {
				mk, model, year = it.Record.Make, it.Record.Model, strconv.Itoa(it.Record.Year)
			}
			if it.Missing {
				status, color = "missing from catalog", colorYellow
			}
			id := it.UUID
			if it.VIN != nil {
				id = *it.VIN
			}
			t.row(l.Name, typeArg(it.Type), id, mk, model, year, dashIfEmpty(it.Note), recallSummary(it.Recalls), status)
			t.colorLast(color)
		}
	}
	if len(lists) == 0 && s.OutTTY {
		_, err := fmt.Fprintln(s.Out, "No lists.")
		return err
	}
	return t.flush()
}

// recallSummary is an item's recall status in a few words.
func recallSummary(r *client.RecallStatus) string {
	switch {
	case r == nil:
		return "-"
	case r.CheckedAt == nil:
		return "not checked yet"
	case len(r.Open) == 0:
		return "none open"
	}
	sum := fmt.Sprintf("%d open", len(r.Open))
	if len(r.New) > 0 {
		sum += fmt.Sprintf(" (%d new)", len(r.New))
	}
	if advice := recallAdvice(r.ParkIt, r.ParkOutside, r.OTA); advice != "-" {
		sum += ": " + advice
	}
	return sum
}

func printGarageRecalls(s *IOStreams, items []client.ItemRecalls) error {
	t := s.newTable("LIST", "ITEM", "VEHICLE", "CAMPAIGN", "FIRST SEEN", "STATUS", "ADVICE", "COMPONENT")
	for _, it := range items {
		id, vehicle := typeArg(it.Type)+" "+it.UUID, "-"
		if it.VIN != nil {
			id = "vin " + *it.VIN
		}
		if it.Record != nil {
			vehicle = vehicleName(it.Record.Year, it.Record.Make, it.Record.Model)
		}
		for _, c := range it.Campaigns {
			status := c.Status
			if c.New {
				status = "new"
			}
			t.row(it.ListName, id, vehicle, c.CampaignNumber, formatTime(c.FirstSeenAt), status,
				recallAdvice(c.ParkIt, c.ParkOutside, c.OTAUpdate), optString(c.Component))
		}
	}
	return t.flush()
}

package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/nhtsafile"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/watch"
)

type recallsRefreshOptions struct{}

func newRecallsRefreshCmd(f *Factory, runF func(*recallsRefreshOptions) error) *cobra.Command {
	return noArgsCmd(f, &recallsRefreshOptions{}, runF, recallsRefreshRun, &cobra.Command{
		Use:   "refresh",
		Short: "Ask NHTSA now for the recalls of every saved vehicle (operator, on the database)",
		Long: `Run one pass of the recall watch now, on the database: ask NHTSA for the
recalls of every make, model and year saved in any account's lists (cars,
motorcycles and VINs), however recently vds serve checked them, record
each campaign's first sighting and print the new ones. An item's first
check is its baseline: what is open then is not new. Each new campaign is
stored as a recall.new event for the account's webhooks, which vds serve
delivers. With recalls.source auto and NHTSA's recall files imported (vds
ingest --source nhtsa-recalls), or offline, the recalls come from the files.

Piped, each new campaign is a line starting with "new".`,
		Example: `  vds recalls refresh
  vds recalls refresh --json`,
	})
}

func recallsRefreshRun(ctx context.Context, f *Factory, _ *recallsRefreshOptions) error {
	cfg, log := f.Config(), newLogger(f.Config(), f)
	st, vehicles, up, err := f.upstream(ctx, log)
	if err != nil {
		return err
	}
	hooks, err := f.Webhooks(ctx)
	if err != nil {
		return err
	}
	lk, err := recallLookup(ctx, st, vehicles, up, cfg)
	if err != nil {
		return err
	}
	w := watch.New(st, vehicles, lk.WatchRecalls(), watch.Events(hooks), nil, watch.Config{Interval: cfg.Recalls.RefreshInterval}, log)
	res, err := w.Pass(ctx, watch.PassOptions{Force: true})
	if err != nil {
		return err
	}
	if res.Failed > 0 {
		fmt.Fprintf(f.IO.ErrOut, "note: NHTSA did not answer for %d vehicles; vds serve retries them\n", res.Failed)
	}
	return f.show(res, nil, func() error {
		t := f.IO.newTable("", "CAMPAIGN", "VEHICLE", "ITEM", "LIST", "ADVICE")
		for _, s := range res.New {
			it, item := s.Item, typeArg(client.Kind(s.Item.Type))+" "+s.Item.UUID.String()
			if it.VIN != nil {
				item = "vin " + *it.VIN
			}
			t.row("new", s.Campaign.CampaignNumber, vehicleName(it.Year, it.Make, it.Model), item, it.ListID, recallAdvice(s.Campaign.ParkIt, s.Campaign.ParkOutside, s.Campaign.OTAUpdate))
		}
		if err := t.flush(); err != nil {
			return err
		}
		if f.IO.OutTTY || len(res.New) == 0 {
			_, err := fmt.Fprintln(f.IO.Out, res.String())
			return err
		}
		return nil
	})
}

// recallLookup answers recalls by recalls.source: from the imported NHTSA
// recall files when it allows and they are there, else from NHTSA.
func recallLookup(ctx context.Context, st store.Store, vehicles *vehicle.Service, up *upstream.Client, cfg *config.Config) (*lookup.Service, error) {
	lk := lookup.New(vehicles, up, cfg.VIN.Decoder, cfg.Recalls.Source)
	if cfg.Recalls.Source == "online" {
		return lk, nil
	}
	ix, err := nhtsafile.Load(ctx, st)
	switch {
	case err == nil:
		lk.SetRecallIndex(ix)
	case !errors.Is(err, nhtsafile.ErrNoFiles) || cfg.Recalls.Source == "offline":
		return nil, err
	}
	cix, err := nhtsafile.LoadComplaints(ctx, st)
	switch {
	case err == nil:
		lk.SetComplaintIndex(cix)
	case !errors.Is(err, nhtsafile.ErrNoComplaintFiles):
		return nil, err
	}
	return lk, nil
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/views"
	"github.com/vds-dev/vds/internal/vpic"
)

func newListsCmd(f *Factory) *cobra.Command {
	return groupCmd(&cobra.Command{
		Use:   "lists",
		Short: "Curate an account's saved vehicles (operator, on the database)",
		Long: `Show and edit an account's lists. Items added here go to the account's
default list, "My garage". An item stays in the list when its record later
leaves the catalog; it is then reported as missing.`,
	}, newListsShowCmd(f, nil), newListsItemCmd(f, true, nil), newListsItemCmd(f, false, nil))
}

type listItemOptions struct {
	Email string
	Type  string
	UUID  string
	VIN   string
	Note  string
	// Add is false for remove.
	Add bool

	// Kind and ID are Type and UUID parsed.
	Kind catalog.Kind
	ID   uuid.UUID
}

func (o *listItemOptions) parse([]string) error {
	if o.VIN != "" {
		if o.Type != "" || o.UUID != "" {
			return usageErrorf(errors.New("--vin saves a VIN: leave out --type and --uuid"))
		}
		o.Kind, o.ID = account.KindVIN, account.VINItemID(strings.ToUpper(strings.TrimSpace(o.VIN)))
		return nil
	}
	if err := requireFlag("type", o.Type); err != nil {
		return err
	}
	if err := requireFlag("uuid", o.UUID); err != nil {
		return err
	}
	kind, err := catalog.ParseKind(o.Type)
	if err != nil {
		return usageErrorf(fmt.Errorf("--type %q: %s", o.Type, typeHelp))
	}
	id, err := uuid.Parse(o.UUID)
	if err != nil {
		return usageErrorf(fmt.Errorf("--uuid %q is not a UUID", o.UUID))
	}
	o.Kind, o.ID = kind, id
	return nil
}

func newListsItemCmd(f *Factory, add bool, runF func(*listItemOptions) error) *cobra.Command {
	opts := &listItemOptions{Add: add}
	use, short := "add --email EMAIL (--type TYPE --uuid UUID | --vin VIN) [--note TEXT]", "Add a catalog record or a VIN to the account's garage"
	if !add {
		use, short = "remove --email EMAIL (--type TYPE --uuid UUID | --vin VIN)", "Remove a record or a VIN from the account's garage"
	}
	cmd := noArgsCmd(f, opts, runF, listsItemRun, &cobra.Command{Use: use, Short: short},
		required("email", &opts.Email), opts.parse)
	cmd.Flags().StringVar(&opts.Email, "email", "", "account email (required)")
	cmd.Flags().StringVar(&opts.Type, "type", "", "record type: "+typeHelp+" (or --vin)")
	cmd.Flags().StringVar(&opts.UUID, "uuid", "", "record uuid (or --vin)")
	cmd.Flags().StringVar(&opts.VIN, "vin", "", "a VIN, decoded and saved with its make, model and year")
	if add {
		cmd.Flags().StringVar(&opts.Note, "note", "", "a note shown with the item")
	}
	return cmd
}

func listsItemRun(ctx context.Context, f *Factory, opts *listItemOptions) error {
	_, a, err := f.account(ctx, opts.Email)
	if err != nil {
		return err
	}
	svc, err := f.Lists(ctx)
	if err != nil {
		return err
	}
	garage, err := svc.Default(ctx, a.ID)
	if err != nil {
		return err
	}
	what := typeArg(client.Kind(opts.Kind)) + " " + opts.ID.String()
	if opts.VIN != "" {
		what = "VIN " + strings.ToUpper(strings.TrimSpace(opts.VIN))
	}
	if !opts.Add {
		if err := svc.Remove(ctx, a.ID, garage.ID, opts.Kind, opts.ID); err != nil {
			return err
		}
		_, err = fmt.Fprintf(f.IO.Out, "removed %s from %s\n", what, account.DefaultListName)
		return err
	}
	var item account.ListItem
	if opts.VIN != "" {
		if err := f.decodeVINs(ctx, svc); err != nil {
			return err
		}
		item, err = svc.AddVIN(ctx, a.ID, garage.ID, opts.VIN, opts.Note)
	} else {
		item, err = svc.Add(ctx, a.ID, garage.ID, opts.Kind, opts.ID, opts.Note)
	}
	if err != nil {
		return err
	}
	if f.JSON {
		return f.writeJSON(item)
	}
	if d := item.Decode; d != nil {
		what += " (" + vehicleName(deref(d.Year), deref(d.Make), deref(d.Model)) + ")"
	}
	_, err = fmt.Fprintf(f.IO.Out, "added %s to %s\n", what, account.DefaultListName)
	return err
}

// decodeVINs lets svc decode VINs as vds serve does: from the imported vPIC
// snapshot, else (unless vin.decoder is offline) NHTSA vPIC.
func (f *Factory) decodeVINs(ctx context.Context, svc *lists.Service) error {
	st, vehicles, up, err := f.upstream(ctx, nil)
	if err != nil {
		return err
	}
	cfg := f.Config()
	lk := lookup.New(vehicles, up, cfg.VIN.Decoder, cfg.Recalls.Source)
	if cfg.VIN.Decoder != "online" {
		snap, err := vpic.Load(ctx, st)
		if err != nil && (!errors.Is(err, vpic.ErrNoSnapshot) || cfg.VIN.Decoder == "offline") {
			return err
		}
		if snap != nil {
			lk.SetOffline(snap)
		}
	}
	svc.SetVINDecoder(lk.ListDecode)
	return nil
}

type listsShowOptions struct {
	Email string
}

func newListsShowCmd(f *Factory, runF func(*listsShowOptions) error) *cobra.Command {
	opts := &listsShowOptions{}
	cmd := noArgsCmd(f, opts, runF, listsShowRun, &cobra.Command{
		Use:   "show --email EMAIL",
		Short: "Show an account's lists and their items",
	})
	cmd.Flags().StringVar(&opts.Email, "email", "", "account email (required)")
	return cmd
}

func listsShowRun(ctx context.Context, f *Factory, opts *listsShowOptions) error {
	_, a, err := f.flagAccount(ctx, opts.Email)
	if err != nil {
		return err
	}
	saved, err := showLists(ctx, f, a.ID)
	return f.show(saved, err, func() error {
		t := f.IO.newTable("LIST", "TYPE", "UUID/VIN", "ADDED", "STATUS", "NOTE")
		for _, l := range saved {
			if len(l.Items) == 0 {
				t.row(l.Name, "-", "(empty)", "-", "-", "-")
			}
			for _, it := range l.Items {
				status := "ok"
				if it.Missing {
					status = "missing from catalog"
				}
				id := it.UUID.String()
				if it.VIN != nil {
					id = *it.VIN
				}
				t.row(l.Name, typeArg(client.Kind(it.Kind)), id, it.AddedAt.Format(time.RFC3339), status, dash(it.Note))
			}
		}
		return t.flush()
	})
}

// showLists returns the account's lists with the items whose records have
// left the stored catalog marked missing, as the server marks them.
func showLists(ctx context.Context, f *Factory, accountID string) ([]account.List, error) {
	svc, err := f.Lists(ctx)
	if err != nil {
		return nil, err
	}
	saved, err := svc.Lists(ctx, accountID)
	if err != nil {
		return nil, err
	}
	vehicles, err := f.Vehicles(ctx)
	if err != nil {
		return nil, err
	}
	for i, l := range views.NewLists(saved, vehicles, nil) {
		for j, it := range l.Items {
			saved[i].Items[j].Missing = it.Missing
		}
	}
	return saved, nil
}

// upstream returns the database, its catalog and an NHTSA client caching in
// the database, as vds serve has them.
func (f *Factory) upstream(ctx context.Context, log *slog.Logger) (store.Store, *vehicle.Service, *upstream.Client, error) {
	st, err := f.database(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	vehicles, err := f.Vehicles(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	cfg := f.Config()
	up := upstream.New(upstream.Config{VPICURL: cfg.Upstream.VPICURL, NHTSAURL: cfg.Upstream.NHTSAURL,
		Timeout: cfg.Upstream.Timeout, CacheTTL: cfg.Upstream.CacheTTL}, st, log)
	return st, vehicles, up, nil
}

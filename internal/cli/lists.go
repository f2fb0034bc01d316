package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/views"
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
	Note  string
	// Add is false for remove.
	Add bool

	// Kind and ID are Type and UUID parsed.
	Kind catalog.Kind
	ID   uuid.UUID
}

func (o *listItemOptions) parse([]string) error {
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
	use, short := "add --email EMAIL --type TYPE --uuid UUID [--note TEXT]", "Add a catalog record to the account's garage"
	if !add {
		use, short = "remove --email EMAIL --type TYPE --uuid UUID", "Remove a record from the account's garage"
	}
	cmd := noArgsCmd(f, opts, runF, listsItemRun, &cobra.Command{Use: use, Short: short},
		required("email", &opts.Email), required("type", &opts.Type), required("uuid", &opts.UUID), opts.parse)
	cmd.Flags().StringVar(&opts.Email, "email", "", "account email (required)")
	cmd.Flags().StringVar(&opts.Type, "type", "", "record type: "+typeHelp+" (required)")
	cmd.Flags().StringVar(&opts.UUID, "uuid", "", "record uuid (required)")
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
	if !opts.Add {
		if err := svc.Remove(ctx, a.ID, garage.ID, opts.Kind, opts.ID); err != nil {
			return err
		}
		_, err = fmt.Fprintf(f.IO.Out, "removed %s %s from %s\n", typeArg(client.Kind(opts.Kind)), opts.ID, account.DefaultListName)
		return err
	}
	item, err := svc.Add(ctx, a.ID, garage.ID, opts.Kind, opts.ID, opts.Note)
	if err != nil {
		return err
	}
	if f.JSON {
		return f.writeJSON(item)
	}
	_, err = fmt.Fprintf(f.IO.Out, "added %s %s to %s\n", typeArg(client.Kind(opts.Kind)), opts.ID, account.DefaultListName)
	return err
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
		t := f.IO.newTable("LIST", "TYPE", "UUID", "ADDED", "STATUS", "NOTE")
		for _, l := range saved {
			if len(l.Items) == 0 {
				t.row(l.Name, "-", "(empty)", "-", "-", "-")
			}
			for _, it := range l.Items {
				status := "ok"
				if it.Missing {
					status = "missing from catalog"
				}
				t.row(l.Name, typeArg(client.Kind(it.Kind)), it.UUID.String(), it.AddedAt.Format(time.RFC3339), status, dash(it.Note))
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
	for i, l := range views.NewLists(saved, vehicles) {
		for j, it := range l.Items {
			saved[i].Items[j].Missing = it.Missing
		}
	}
	return saved, nil
}

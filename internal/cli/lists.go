package cli

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
)

func newListsCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lists",
		Short: "Curate an account's saved vehicles (operator, on the database)",
		Long: `Show and edit an account's lists. Items added here go to the account's
default list, "My garage". An item stays in the list when its record later
leaves the catalog; it is then reported as missing.`,
		Args: noArgs,
	}
	cmd.AddCommand(newListsShowCmd(f), newListsItemCmd(f, true), newListsItemCmd(f, false))
	return cmd
}

type listItemOptions struct {
	Email string
	Type  string
	UUID  string
	Note  string
}

// parse checks the flags and returns the record kind and uuid.
func (o *listItemOptions) parse() (catalog.Kind, uuid.UUID, error) {
	for name, v := range map[string]string{"email": o.Email, "type": o.Type, "uuid": o.UUID} {
		if err := requireFlag(name, v); err != nil {
			return "", uuid.Nil, err
		}
	}
	kind, err := catalog.ParseKind(o.Type)
	if err != nil {
		return "", uuid.Nil, usageErrorf(err)
	}
	id, err := uuid.Parse(o.UUID)
	if err != nil {
		return "", uuid.Nil, usageErrorf(fmt.Errorf("--uuid %q is not a UUID", o.UUID))
	}
	return kind, id, nil
}

func newListsItemCmd(f *Factory, add bool) *cobra.Command {
	opts := &listItemOptions{}
	use, short := "add --email EMAIL --type TYPE --uuid UUID [--note TEXT]", "Add a catalog record to the account's garage"
	if !add {
		use, short = "remove --email EMAIL --type TYPE --uuid UUID", "Remove a record from the account's garage"
	}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kind, id, err := opts.parse()
			if err != nil {
				return err
			}
			svc, err := f.Access(cmd.Context())
			if err != nil {
				return err
			}
			if !add {
				if err := svc.RemoveFromGarage(cmd.Context(), opts.Email, kind, id); err != nil {
					return err
				}
				_, err = fmt.Fprintf(f.IO.Out, "removed %s %s from %s\n", kind, id, account.DefaultListName)
				return err
			}
			item, err := svc.AddToGarage(cmd.Context(), opts.Email, kind, id, opts.Note)
			if err != nil {
				return err
			}
			if f.JSON {
				return f.IO.writeJSON(item)
			}
			_, err = fmt.Fprintf(f.IO.Out, "added %s %s to %s\n", kind, id, account.DefaultListName)
			return err
		},
	}
	cmd.Flags().StringVar(&opts.Email, "email", "", "account email (required)")
	cmd.Flags().StringVar(&opts.Type, "type", "", "record type: car, motorcycle, boat or tire_size (required)")
	cmd.Flags().StringVar(&opts.UUID, "uuid", "", "record uuid (required)")
	if add {
		cmd.Flags().StringVar(&opts.Note, "note", "", "a note shown with the item")
	}
	return cmd
}

func newListsShowCmd(f *Factory) *cobra.Command {
	var email string
	cmd := &cobra.Command{
		Use:   "show --email EMAIL",
		Short: "Show an account's lists and their items",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := f.accountAccess(cmd.Context(), email)
			if err != nil {
				return err
			}
			lists, err := svc.Lists(cmd.Context(), email)
			return f.show(lists, err, func() error {
				t := f.IO.newTable("LIST", "TYPE", "UUID", "ADDED", "STATUS", "NOTE")
				for _, l := range lists {
					if len(l.Items) == 0 {
						t.row(l.Name, "-", "(empty)", "-", "-", "-")
					}
					for _, it := range l.Items {
						status := "ok"
						if it.Missing {
							status = "missing from catalog"
						}
						t.row(l.Name, string(it.Kind), it.UUID.String(), it.AddedAt.Format(time.RFC3339), status, dash(it.Note))
					}
				}
				return t.flush()
			})
		},
	}
	cmd.Flags().StringVar(&email, "email", "", "account email (required)")
	return cmd
}

package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/account"
)

func newTokensCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tokens",
		Short: "Manage API tokens (operator, on the database)",
		Long: `Create, list, rotate and revoke API tokens. A token's secret is printed once,
when it is created or rotated, and stored only as a SHA-256 hash.`,
		Args: noArgs,
	}
	cmd.AddCommand(newTokensCreateCmd(f), newTokensListCmd(f), newTokensRotateCmd(f), newTokensRevokeCmd(f))
	return cmd
}

// issuedToken is the --json output of create and rotate.
type issuedToken struct {
	ID    string `json:"id"`
	Token string `json:"token"`
}

// printSecret shows a new secret, the only time it is ever shown.
func printSecret(f *Factory, t account.Token, secret string) error {
	if f.JSON {
		return f.IO.writeJSON(issuedToken{ID: t.ID, Token: secret})
	}
	if !f.IO.OutTTY {
		_, err := fmt.Fprintln(f.IO.Out, secret)
		fmt.Fprintf(f.IO.ErrOut, "token id %s\n", t.ID)
		return err
	}
	_, err := fmt.Fprintf(f.IO.Out, "%s\n\nToken id %s. The secret above is shown only this once: store it now.\n", secret, t.ID)
	return err
}

type tokensCreateOptions struct {
	Email string
	Name  string
}

func newTokensCreateCmd(f *Factory) *cobra.Command {
	opts := &tokensCreateOptions{}
	cmd := &cobra.Command{
		Use:     "create --email EMAIL [--name NAME]",
		Short:   "Create a token and print its secret once",
		Example: "  vds tokens create --email ann@example.com --name laptop --json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := f.accountAccess(cmd.Context(), opts.Email)
			if err != nil {
				return err
			}
			t, secret, err := svc.CreateToken(cmd.Context(), opts.Email, opts.Name)
			if err != nil {
				return err
			}
			return printSecret(f, t, secret)
		},
	}
	cmd.Flags().StringVar(&opts.Email, "email", "", "account email (required)")
	cmd.Flags().StringVar(&opts.Name, "name", "", "a name to recognise the token by")
	return cmd
}

func newTokensListCmd(f *Factory) *cobra.Command {
	var email string
	cmd := &cobra.Command{
		Use:   "list --email EMAIL",
		Short: "List an account's tokens (never their secrets)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			svc, err := f.accountAccess(cmd.Context(), email)
			if err != nil {
				return err
			}
			tokens, err := svc.Tokens(cmd.Context(), email)
			if tokens == nil {
				tokens = []account.Token{} // JSON [], not null
			}
			return f.show(tokens, err, func() error {
				t := f.IO.newTable("ID", "NAME", "PREFIX", "SCOPES", "CREATED", "LAST USED", "STATUS")
				for _, tk := range tokens {
					status := "active"
					if tk.RevokedAt != nil {
						status = "revoked " + tk.RevokedAt.Format(time.RFC3339)
					}
					t.row(tk.ID, dash(tk.Name), tk.Prefix+"...", strings.Join(tk.Scopes, ","), tk.CreatedAt.Format(time.RFC3339), timeOrNever(tk.LastUsedAt), status)
				}
				return t.flush()
			})
		},
	}
	cmd.Flags().StringVar(&email, "email", "", "account email (required)")
	return cmd
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func timeOrNever(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return t.Format(time.RFC3339)
}

func newTokensRotateCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "rotate ID",
		Short: "Issue a new token in place of ID and revoke ID at once",
		Args:  exactArgs("ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := f.Access(cmd.Context())
			if err != nil {
				return err
			}
			t, secret, err := svc.RotateToken(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			return printSecret(f, t, secret)
		},
	}
}

func newTokensRevokeCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a token at once",
		Args:  exactArgs("ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			svc, err := f.Access(cmd.Context())
			if err != nil {
				return err
			}
			t, err := svc.RevokeToken(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if f.JSON {
				return f.IO.writeJSON(t)
			}
			_, err = fmt.Fprintf(f.IO.Out, "revoked token %s (%s...)\n", t.ID, t.Prefix)
			return err
		},
	}
}

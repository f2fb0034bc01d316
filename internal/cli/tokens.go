package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/requestlog"
)

func newTokensCmd(f *Factory) *cobra.Command {
	return groupCmd(&cobra.Command{
		Use:   "tokens",
		Short: "Manage API tokens (operator, on the database)",
		Long: `Create, list, rotate and revoke API tokens. A token's secret is printed once,
when it is created or rotated, and stored only as a SHA-256 hash.`,
	}, newTokensCreateCmd(f, nil), newTokensListCmd(f, nil), newTokensRotateCmd(f, nil), newTokensRevokeCmd(f, nil))
}

type issuedToken struct {
	ID    string `json:"id"`
	Token string `json:"token"`
	// OldTokenRevokedAt is when a rotated token stops working.
	OldTokenRevokedAt *time.Time `json:"old_token_revoked_at,omitempty"`
}

// printSecret shows a new secret, the only time it is ever shown.
func printSecret(f *Factory, it issuedToken) error {
	return printOnce(f, it, it.Token, "token id "+it.ID, "Token id "+it.ID+".")
}

// printOnce shows a secret that is never shown again: v with --json, else
// the secret alone on stdout and, on a terminal, about (what it is) and a
// warning; piped, id goes to stderr.
func printOnce(f *Factory, v any, secret, id, about string) error {
	if f.JSON {
		return f.writeJSON(v)
	}
	if !f.IO.OutTTY {
		_, err := fmt.Fprintln(f.IO.Out, secret)
		fmt.Fprintln(f.IO.ErrOut, id)
		return err
	}
	_, err := fmt.Fprintf(f.IO.Out, "%s\n\n%s The secret above is shown only this once: store it now.\n", secret, about)
	return err
}

type tokensCreateOptions struct {
	Email string
	Name  string
}

func newTokensCreateCmd(f *Factory, runF func(*tokensCreateOptions) error) *cobra.Command {
	opts := &tokensCreateOptions{}
	cmd := noArgsCmd(f, opts, runF, tokensCreateRun, &cobra.Command{
		Use:     "create --email EMAIL [--name NAME]",
		Short:   "Create a token and print its secret once",
		Example: "  vds tokens create --email ann@example.com --name laptop --json",
	})
	cmd.Flags().StringVar(&opts.Email, "email", "", "account email (required)")
	cmd.Flags().StringVar(&opts.Name, "name", "", "a name to recognise the token by")
	return cmd
}

func tokensCreateRun(ctx context.Context, f *Factory, opts *tokensCreateOptions) error {
	svc, a, err := f.flagAccount(ctx, opts.Email)
	if err != nil {
		return err
	}
	t, secret, err := svc.CreateToken(ctx, a.ID, opts.Name)
	if err != nil {
		return err
	}
	return printSecret(f, issuedToken{ID: t.ID, Token: secret})
}

type tokensListOptions struct {
	Email string
}

func newTokensListCmd(f *Factory, runF func(*tokensListOptions) error) *cobra.Command {
	opts := &tokensListOptions{}
	cmd := noArgsCmd(f, opts, runF, tokensListRun, &cobra.Command{
		Use:   "list --email EMAIL",
		Short: "List an account's tokens (never their secrets)",
	})
	cmd.Flags().StringVar(&opts.Email, "email", "", "account email (required)")
	return cmd
}

// listedToken is a token as tokens list shows it, with its calls this month.
type listedToken struct {
	account.Token
	CallsThisMonth int64 `json:"calls_this_month"`
}

func tokensListRun(ctx context.Context, f *Factory, opts *tokensListOptions) error {
	svc, a, err := f.flagAccount(ctx, opts.Email)
	if err != nil {
		return err
	}
	tokens, err := svc.Tokens(ctx, a.ID)
	if err != nil {
		return err
	}
	st, err := f.database(ctx)
	if err != nil {
		return err
	}
	calls, err := st.TokenCalls(ctx, a.ID, requestlog.Period(time.Now()))
	listed := make([]listedToken, len(tokens)) // JSON [], not null
	for i, tk := range tokens {
		listed[i] = listedToken{Token: tk, CallsThisMonth: calls[tk.ID]}
	}
	return f.show(listed, err, func() error {
		t := f.IO.newTable("ID", "NAME", "PREFIX", "SCOPES", "CREATED", "LAST USED", "REQUESTS THIS MONTH", "STATUS")
		now := time.Now()
		for _, tk := range listed {
			status := "active"
			switch {
			case tk.RevokedAt == nil:
			case tk.ValidAt(now):
				status = "valid until " + tk.RevokedAt.Format(time.RFC3339)
			default:
				status = "revoked " + tk.RevokedAt.Format(time.RFC3339)
			}
			t.row(tk.ID, dash(tk.Name), tk.Prefix+"...", strings.Join(tk.Scopes, ","), tk.CreatedAt.Format(time.RFC3339),
				timeOrNever(tk.LastUsedAt), strconv.FormatInt(tk.CallsThisMonth, 10), status)
		}
		return t.flush()
	})
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

type tokensRotateOptions struct {
	ID    string
	Grace string
}

func newTokensRotateCmd(f *Factory, runF func(*tokensRotateOptions) error) *cobra.Command {
	opts := &tokensRotateOptions{}
	cmd := &cobra.Command{
		Use:   "rotate ID [--grace none|1h|24h]",
		Short: "Issue a new token in place of ID; ID is refused at once or after a grace period",
		Long: `Issue a new token with ID's name and print its secret once. ID is refused
at once, or with --grace 1h or 24h keeps working that long, so the programs
using it can move to the new secret without a gap.`,
		Example: `  vds tokens rotate "$(vds tokens list --email demo@vds.local --jq '.[0].id')" --grace 1h`,
		Args:    exactArgs("ID"),
		RunE:    runCmd(f, opts, runF, tokensRotateRun, argsTo(&opts.ID)),
	}
	cmd.Flags().StringVar(&opts.Grace, "grace", "none", "how long the old token keeps working: none, 1h or 24h")
	return cmd
}

func tokensRotateRun(ctx context.Context, f *Factory, opts *tokensRotateOptions) error {
	grace, err := access.ParseGrace(opts.Grace)
	if err != nil {
		return fmt.Errorf("--grace: %w", err)
	}
	svc, old, err := f.token(ctx, opts.ID)
	if err != nil {
		return err
	}
	rot, err := svc.RotateToken(ctx, old.AccountID, old.ID, grace)
	if err != nil {
		return err
	}
	it := issuedToken{ID: rot.New.ID, Token: rot.Secret}
	if grace > 0 {
		it.OldTokenRevokedAt = rot.Old.RevokedAt
		fmt.Fprintf(f.IO.ErrOut, "the old token %s keeps working until %s\n", rot.Old.ID, rot.Old.RevokedAt.Format(time.RFC3339))
	}
	return printSecret(f, it)
}

type tokensRevokeOptions struct {
	ID string
}

func newTokensRevokeCmd(f *Factory, runF func(*tokensRevokeOptions) error) *cobra.Command {
	opts := &tokensRevokeOptions{}
	return &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a token at once",
		Args:  exactArgs("ID"),
		RunE:  runCmd(f, opts, runF, tokensRevokeRun, argsTo(&opts.ID)),
	}
}

func tokensRevokeRun(ctx context.Context, f *Factory, opts *tokensRevokeOptions) error {
	svc, t, err := f.token(ctx, opts.ID)
	if err != nil {
		return err
	}
	t, err = svc.RevokeToken(ctx, t.AccountID, t.ID)
	if err != nil {
		return err
	}
	if f.JSON {
		return f.writeJSON(t)
	}
	_, err = fmt.Fprintf(f.IO.Out, "revoked token %s (%s...)\n", t.ID, t.Prefix)
	return err
}

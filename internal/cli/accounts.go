package cli

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
)

func newAccountsCmd(f *Factory) *cobra.Command {
	return groupCmd(&cobra.Command{Use: "accounts", Short: "Manage accounts and their plans (operator, on the database)"},
		newAccountsCreateCmd(f, nil), newAccountsListCmd(f, nil), newAccountsSetPlanCmd(f, nil),
		newAccountsSuspendCmd(f, true, nil), newAccountsSuspendCmd(f, false, nil), newAccountsSetPasswordCmd(f, nil))
}

func printAccounts(f *Factory, accounts []account.Account) error {
	if accounts == nil {
		accounts = []account.Account{} // JSON [], not null
	}
	return f.show(accounts, nil, func() error {
		t := f.IO.newTable("ID", "EMAIL", "PLAN", "RATE/MIN", "QUOTA/MONTH", "STATUS", "CREATED")
		for _, a := range accounts {
			p, _ := f.Config().Plan(a.Plan)
			status := "active"
			if a.Suspended {
				status = "suspended"
			}
			t.row(a.ID, a.Email, a.Plan, limit(p.RatePerMinute), limit(p.MonthlyQuota), status, a.CreatedAt.Format(time.RFC3339))
		}
		return t.flush()
	})
}

func limit(n int) string {
	if n == 0 {
		return "unlimited"
	}
	return strconv.Itoa(n)
}

type accountsCreateOptions struct {
	Email string
	Plan  string
	// PasswordStdin reads a dashboard password from stdin.
	PasswordStdin bool
}

func newAccountsCreateCmd(f *Factory, runF func(*accountsCreateOptions) error) *cobra.Command {
	opts := &accountsCreateOptions{}
	cmd := noArgsCmd(f, opts, runF, accountsCreateRun, &cobra.Command{
		Use:   "create --email EMAIL [--plan PLAN] [--password-stdin]",
		Short: "Create an account with its default list",
		Long: `Create an account with its default list "My garage". With --password-stdin
it also gets a dashboard password: typed twice without echo on a terminal,
else the first line of stdin (at least 10 characters). Without it the
account has no password until vds accounts set-password gives it one.`,
		Example: `  vds accounts create --email ann@example.com --plan developer
  printf '%s\n' "$PASSWORD" | vds accounts create --email ann@example.com --password-stdin`,
	}, required("email", &opts.Email))
	cmd.Flags().StringVar(&opts.Email, "email", "", "email address (required)")
	cmd.Flags().StringVar(&opts.Plan, "plan", "free", "plan: "+planList())
	cmd.Flags().BoolVar(&opts.PasswordStdin, "password-stdin", false, "also set a dashboard password, read from stdin (prompted twice on a terminal)")
	return cmd
}

func accountsCreateRun(ctx context.Context, f *Factory, opts *accountsCreateOptions) error {
	// Read and check the password first, so a bad one leaves no account
	// behind.
	var pw string
	if opts.PasswordStdin {
		var err error
		if pw, err = readNewPassword(ctx, f.IO); err != nil {
			return err
		}
	}
	svc, err := f.Access(ctx)
	if err != nil {
		return err
	}
	a, err := svc.CreateAccount(ctx, opts.Email, opts.Plan)
	if err != nil {
		return err
	}
	if opts.PasswordStdin {
		si, err := f.SignIn(ctx)
		if err == nil {
			err = si.SetPassword(ctx, a.ID, pw)
		}
		if err != nil {
			return fmt.Errorf("account %s created, but setting its password failed (retry with vds accounts set-password): %w", a.Email, err)
		}
	}
	return printAccounts(f, []account.Account{a})
}

// planList names the built-in plans for flag help; config may add more.
func planList() string {
	var c config.Config
	c.Plans = config.DefaultPlans
	return fmt.Sprint(c.PlanNames()) + " or one from config"
}

type accountsListOptions struct{}

func newAccountsListCmd(f *Factory, runF func(*accountsListOptions) error) *cobra.Command {
	return noArgsCmd(f, &accountsListOptions{}, runF, accountsListRun, &cobra.Command{
		Use:   "list",
		Short: "List accounts with their plans",
	})
}

func accountsListRun(ctx context.Context, f *Factory, _ *accountsListOptions) error {
	svc, err := f.Access(ctx)
	if err != nil {
		return err
	}
	all, err := svc.Accounts(ctx)
	if err != nil {
		return err
	}
	return printAccounts(f, all)
}

type accountsSetPlanOptions struct {
	Email string
	Plan  string
}

func newAccountsSetPlanCmd(f *Factory, runF func(*accountsSetPlanOptions) error) *cobra.Command {
	opts := &accountsSetPlanOptions{}
	return &cobra.Command{
		Use:   "set-plan EMAIL PLAN",
		Short: "Move an account to another plan",
		Args:  exactArgs("EMAIL", "PLAN"),
		RunE:  runCmd(f, opts, runF, accountsSetPlanRun, argsTo(&opts.Email, &opts.Plan)),
	}
}

func accountsSetPlanRun(ctx context.Context, f *Factory, opts *accountsSetPlanOptions) error {
	svc, err := f.Access(ctx)
	if err != nil {
		return err
	}
	if err := svc.CheckPlan(opts.Plan); err != nil { // before the account, as ever
		return err
	}
	a, err := svc.Account(ctx, opts.Email)
	if err != nil {
		return err
	}
	if err := svc.SetPlan(ctx, a.ID, opts.Plan); err != nil {
		return err
	}
	a.Plan = opts.Plan
	return printAccounts(f, []account.Account{a})
}

type accountsSuspendOptions struct {
	Email string
	// Suspend is false for unsuspend.
	Suspend bool
}

func newAccountsSuspendCmd(f *Factory, suspend bool, runF func(*accountsSuspendOptions) error) *cobra.Command {
	opts := &accountsSuspendOptions{Suspend: suspend}
	use, short := "suspend EMAIL", "Suspend an account: its tokens are refused until unsuspended"
	if !suspend {
		use, short = "unsuspend EMAIL", "Reinstate a suspended account"
	}
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  exactArgs("EMAIL"),
		RunE:  runCmd(f, opts, runF, accountsSuspendRun, argsTo(&opts.Email)),
	}
}

func accountsSuspendRun(ctx context.Context, f *Factory, opts *accountsSuspendOptions) error {
	svc, a, err := f.account(ctx, opts.Email)
	if err != nil {
		return err
	}
	if err := svc.SetSuspended(ctx, a.ID, opts.Suspend); err != nil {
		return err
	}
	a.Suspended = opts.Suspend
	return printAccounts(f, []account.Account{a})
}

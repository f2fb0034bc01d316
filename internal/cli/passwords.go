package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/signin"
)

// readNewPassword prompts twice without echo on a terminal, else reads the
// first line of stdin (for scripts), keeping spaces, and checks the policy.
func readNewPassword(ctx context.Context, s *IOStreams) (string, error) {
	var pw string
	if file, ok := s.In.(*os.File); ok && s.InTTY {
		prompt := func(label string) (string, error) {
			fmt.Fprint(s.ErrOut, label)
			line, err := readPassword(ctx, int(file.Fd()))
			fmt.Fprintln(s.ErrOut)
			return line, err
		}
		first, err := prompt("Password: ")
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		second, err := prompt("Password again: ")
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		if first != second {
			return "", usageErrorf(errors.New("the two passwords differ"))
		}
		pw = first
	} else {
		line, err := bufio.NewReader(s.In).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("read password: %w", err)
		}
		pw = strings.TrimRight(line, "\r\n")
	}
	if pw == "" {
		return "", usageErrorf(errors.New("no password given: type it at the prompt or pipe it on stdin"))
	}
	if err := signin.CheckPassword(pw); err != nil {
		return "", usageErrorf(err)
	}
	return pw, nil
}

type accountsSetPasswordOptions struct {
	Email string
}

func newAccountsSetPasswordCmd(f *Factory, runF func(*accountsSetPasswordOptions) error) *cobra.Command {
	opts := &accountsSetPasswordOptions{}
	return &cobra.Command{
		Use:   "set-password EMAIL",
		Short: "Set an account's dashboard password (read from stdin) and end its sessions",
		Long: `Set the password the account signs in to the dashboard with. On a terminal
vds asks for it twice without echo; otherwise it reads the first line of
stdin. Passwords have at least 10 characters. Only an argon2id hash is stored.
Every dashboard session of the account ends, so whoever was signed in must
sign in again; API tokens are not affected.`,
		Example: `  vds accounts set-password ann@example.com
  printf '%s\n' "$NEW_PASSWORD" | vds accounts set-password ann@example.com`,
		Args: exactArgs("EMAIL"),
		RunE: runCmd(f, opts, runF, accountsSetPasswordRun, argsTo(&opts.Email)),
	}
}

func accountsSetPasswordRun(ctx context.Context, f *Factory, opts *accountsSetPasswordOptions) error {
	// Fail on an unknown account before asking for a password.
	_, a, err := f.account(ctx, opts.Email)
	if err != nil {
		return err
	}
	pw, err := readNewPassword(ctx, f.IO)
	if err != nil {
		return err
	}
	svc, err := f.SignIn(ctx)
	if err != nil {
		return err
	}
	if err := svc.SetPassword(ctx, a.ID, pw); err != nil {
		return err
	}
	return printAccounts(f, []account.Account{a})
}

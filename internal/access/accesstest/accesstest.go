// Package accesstest creates accounts with API tokens for tests of the
// transports and the CLI.
package accesstest

import (
	"context"
	"testing"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
)

// Account is a test account and the secret of its one API token.
type Account struct {
	account.Account
	Token string
}

// Create makes the account NAME@example.com on the plan plans[NAME], with one
// token named "test", for every name.
func Create(tb testing.TB, acc *access.Service, plans map[string]string) map[string]Account {
	tb.Helper()
	ctx := context.Background()
	out := make(map[string]Account, len(plans))
	for name, plan := range plans {
		a, err := acc.CreateAccount(ctx, name+"@example.com", plan)
		if err != nil {
			tb.Fatal(err)
		}
		_, secret, err := acc.CreateToken(ctx, a.ID, "test")
		if err != nil {
			tb.Fatal(err)
		}
		out[name] = Account{Account: a, Token: secret}
	}
	return out
}

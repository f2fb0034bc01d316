package requestlog

import (
	"context"
	"time"
)

// Entry is one line of an account's request log.
type Entry struct {
	AccountID string
	TokenID   string
	// TokenPrefix is the token's public prefix; filled in when read.
	TokenPrefix string
	At          time.Time
	Channel     string // REST or MCP
	// Operation is the route pattern of a REST request or the tool of an MCP call.
	Operation string
	Status    int
	Duration  time.Duration
	RequestID string
}

// TokenPeriod keys the per-token monthly call counters.
type TokenPeriod struct {
	TokenID string
	Period  string // YYYY-MM
}

// Filter selects lines of a request log: a status range (0 for none), a
// request id ("" for any), and a page of it.
type Filter struct {
	StatusMin, StatusMax int
	RequestID            string
	Offset, Limit        int
}

// Store keeps each account's newest requests and each token's monthly calls.
type Store interface {
	// AddRequests writes a batch in one transaction: the entries, keeping
	// the newest keep per account, and the token counts; those of deleted
	// accounts and tokens are dropped.
	AddRequests(ctx context.Context, entries []Entry, calls map[TokenPeriod]int64, keep int) error
	// Requests returns a page of the account's log, newest first, and how
	// many lines match the filter.
	Requests(ctx context.Context, accountID string, f Filter) ([]Entry, int, error)
	TokenCalls(ctx context.Context, accountID, period string) (map[string]int64, error)
}

package requestlog

import (
	"context"
	"fmt"
	"strings"
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

// MaxText bounds each text field of a line, in bytes: an operation is a
// route pattern, a JSON-RPC method or a tool name, a request id at most 64.
const MaxText = 128

// Unknown is the operation logged in place of one that is not Plain, and
// of a call to a tool that does not exist: the log never holds client text.
const Unknown = "unknown"

// Plain is nil when s may be stored in a line: at most MaxText bytes of
// printable ASCII that JSON and HTML write as they are (no quote,
// backslash, <, > or &), so no NUL, control character, escape sequence or
// bidi override reaches a store or a reader's terminal, and a line's size
// on the wire is bounded.
func Plain(s string) error {
	if len(s) > MaxText {
		return fmt.Errorf("%d bytes, more than %d", len(s), MaxText)
	}
	for i := range len(s) {
		if c := s[i]; c < ' ' || c > '~' || strings.IndexByte(`"'\<>&`, c) >= 0 {
			return fmt.Errorf("byte %#02x at %d is not plain ASCII", c, i)
		}
	}
	return nil
}

// Check is nil when every text field of e is Plain; a store refuses a
// batch holding a line that is not.
func (e Entry) Check() error {
	return checkFields(e.AccountID, e.TokenID, e.Channel, e.Operation, e.RequestID)
}

func checkFields(accountID, tokenID, channel, operation, requestID string) error {
	for _, f := range [...]struct{ name, v string }{{"account id", accountID}, {"token id", tokenID},
		{"channel", channel}, {"operation", operation}, {"request id", requestID}} {
		if err := Plain(f.v); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
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

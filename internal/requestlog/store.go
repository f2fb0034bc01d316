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
	// Query is the query string with secrets redacted; Code and Detail are
	// those of the problem a failed request answered. Each is Fit.
	Query, Code, Detail string
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
func Plain(s string) error { return plainBut(s, "") }

// QueryAllows is the byte a query field may hold beyond Plain.
const QueryAllows = "&"

func plainBut(s, allow string) error {
	if len(s) > MaxText {
		return fmt.Errorf("%d bytes, more than %d", len(s), MaxText)
	}
	for i := range len(s) {
		if !plain[s[i]] && !plainByte(s[i], allow) {
			return fmt.Errorf("byte %#02x at %d is not plain ASCII", s[i], i)
		}
	}
	return nil
}

func plainByte(c byte, allow string) bool {
	return plain[c] || c >= ' ' && c <= '~' && strings.IndexByte(allow, c) >= 0
}

// plain marks the bytes Plain keeps; every request's fields are checked,
// so a table lookup stands in for comparisons.
var plain = func() (t [256]bool) {
	for c := ' '; c <= '~'; c++ {
		t[c] = !strings.ContainsRune(`"'\<>&`, c)
	}
	return t
}()

// Fit makes s storable as a text field allowing the bytes of allow beyond
// Plain: a double quote becomes a backtick (details quote the values
// sent), any other byte Plain refuses '?', and s is cut to MaxText bytes
// ending in "...". A plain s is returned as it is.
func Fit(s, allow string) string {
	if plainBut(s, allow) == nil {
		return s
	}
	b := []byte(s[:min(len(s), MaxText)])
	for i, c := range b {
		switch {
		case c == '"':
			b[i] = '`'
		case !plainByte(c, allow):
			b[i] = '?'
		}
	}
	if len(s) > MaxText {
		copy(b[MaxText-3:], "...")
	}
	return string(b)
}

// Check is nil when every text field of e is Plain (Query may hold '&'); a
// store refuses a batch holding a line that is not.
func (e Entry) Check() error {
	if err := checkFields(e.AccountID, e.TokenID, e.Channel, e.Operation, e.RequestID, e.Code, e.Detail); err != nil {
		return err
	}
	if err := plainBut(e.Query, QueryAllows); err != nil {
		return fmt.Errorf("query: %w", err)
	}
	return nil
}

func checkFields(accountID, tokenID, channel, operation, requestID, code, detail string) error {
	for _, f := range [...]struct{ name, v string }{{"account id", accountID}, {"token id", tokenID},
		{"channel", channel}, {"operation", operation}, {"request id", requestID}, {"code", code}, {"detail", detail}} {
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

// Package views builds the JSON that the REST API and the MCP tools both
// answer with for account data: the /v1/me document, the saved lists of
// /v1/lists, the rate-limit and quota headers, and the error of a call the
// database failed. Keeping the builders in
// one package that imports no transport is what makes a tool's structured
// content equal to its REST twin's body by construction rather than by
// two copies kept in step.
package views

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/vehicle"
)

// CodeServiceUnavailable is the code of a call the database failed: a 503
// problem in REST, the start of an isError result in MCP.
const CodeServiceUnavailable = "service_unavailable"

// Unavailable is the answer to a call whose database read or write failed
// for a reason that is not the caller's (the database is down, its file
// unusable); what names the data the call needed ("account", "usage"). The
// cause is the server's to log: all the caller can do is retry later.
func Unavailable(what string) *vehicle.Error {
	return &vehicle.Error{Code: CodeServiceUnavailable, Message: "The " + what + " database is unavailable; retry shortly."}
}

// Me is the body of /v1/me (inside the data envelope) and of the
// account_usage tool. Limits of 0 (unlimited) are null.
type Me struct {
	Account   MeAccount    `json:"account"`
	Plan      account.Plan `json:"plan"`
	RateLimit RateWindow   `json:"rate_limit"`
	Quota     QuotaWindow  `json:"quota"`
	Token     MeToken      `json:"token"`
}

func (Me) SchemaDescription() string { return "The caller's account, plan, limits and usage." }

// MeAccount identifies the account.
type MeAccount struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
}

// MeToken identifies the token the request used.
type MeToken struct {
	ID     string   `json:"id"`
	Scopes []string `json:"scopes"`
}

// RateWindow is the per-minute window.
type RateWindow struct {
	Limit     *int      `json:"limit"`
	Remaining *int      `json:"remaining"`
	Reset     time.Time `json:"reset"`
}

// QuotaWindow is the calendar month (UTC).
type QuotaWindow struct {
	Period    string    `json:"period"`
	Limit     *int      `json:"limit"`
	Used      int64     `json:"used"`
	Remaining *int64    `json:"remaining"`
	Reset     time.Time `json:"reset"`
}

// NewMe describes the principal's account, plan and standing in both
// limit windows.
func NewMe(p access.Principal, st limits.State) Me {
	me := Me{
		Account:   MeAccount{ID: p.Account.ID, Email: p.Account.Email, CreatedAt: p.Account.CreatedAt},
		Plan:      p.Plan,
		RateLimit: RateWindow{Reset: st.RateReset},
		Quota:     QuotaWindow{Period: st.Period, Used: st.QuotaUsed, Reset: st.QuotaReset},
		Token:     MeToken{ID: p.TokenID, Scopes: p.Scopes},
	}
	if st.RateLimit > 0 {
		limit, rem := st.RateLimit, st.RateRemaining
		me.RateLimit.Limit, me.RateLimit.Remaining = &limit, &rem
	}
	if st.QuotaLimit > 0 {
		limit, rem := st.QuotaLimit, st.QuotaRemaining()
		me.Quota.Limit, me.Quota.Remaining = &limit, &rem
	}
	return me
}

// List is a saved list as the API shows it.
type List struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	IsDefault bool       `json:"is_default"`
	CreatedAt time.Time  `json:"created_at"`
	Items     []ListItem `json:"items"`
}

// ListItem is a saved record with a summary of it.
type ListItem struct {
	account.ListItem
	Record *RecordRef `json:"record" jsonschema:"A summary of the saved record; null when it is missing."`
}

// RecordRef summarises a catalog record.
type RecordRef struct {
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
}

// NewLists shows stored lists against the catalog the service answers
// from: each item gets a summary of its record, or is marked missing when
// the record has left the catalog. The result is never nil, so it encodes
// as [] for an account without lists.
func NewLists(stored []account.List, svc *vehicle.Service) []List {
	out := make([]List, 0, len(stored))
	for _, l := range stored {
		al := List{ID: l.ID, Name: l.Name, IsDefault: l.IsDefault, CreatedAt: l.CreatedAt, Items: make([]ListItem, 0, len(l.Items))}
		for _, it := range l.Items {
			item := ListItem{ListItem: it}
			if rec, err := svc.Get(it.Kind, it.UUID); err == nil {
				ref := recordRef(rec)
				item.Record = &ref
			} else {
				item.Missing = true
			}
			al.Items = append(al.Items, item)
		}
		out = append(out, al)
	}
	return out
}

// recordRef summarises any of the four record types.
func recordRef(rec any) RecordRef {
	switch v := rec.(type) {
	case catalog.Car:
		return RecordRef{Make: v.Make, Model: v.Model, Year: v.Year}
	case catalog.Motorcycle:
		return RecordRef{Make: v.Make, Model: v.Model, Year: v.Year}
	case catalog.Boat:
		return RecordRef{Make: v.Make, Model: v.Model, Year: v.Year}
	case catalog.TireFitment:
		return RecordRef{Make: v.Make, Model: v.Model, Year: v.Year}
	}
	return RecordRef{}
}

// SetLimitHeaders writes the rate-limit and quota headers (docs/api.md)
// for s. A window that is unlimited (0) is left out.
func SetLimitHeaders(hd http.Header, s limits.State, now time.Time) {
	var policy, state []string
	if s.RateLimit > 0 {
		hd.Set("X-RateLimit-Limit", strconv.Itoa(s.RateLimit))
		hd.Set("X-RateLimit-Remaining", strconv.Itoa(s.RateRemaining))
		// Rounded up: the sliding window frees units at any instant, and a
		// client that waits until the second given must not be early.
		hd.Set("X-RateLimit-Reset", strconv.FormatInt(now.Unix()+secondsUntil(s.RateReset, now), 10))
		policy = append(policy, fmt.Sprintf(`"minute";q=%d;w=60`, s.RateLimit))
		state = append(state, fmt.Sprintf(`"minute";r=%d;t=%d`, s.RateRemaining, secondsUntil(s.RateReset, now)))
	}
	if s.QuotaLimit > 0 {
		hd.Set("X-Quota-Limit", strconv.Itoa(s.QuotaLimit))
		hd.Set("X-Quota-Used", strconv.FormatInt(s.QuotaUsed, 10))
		hd.Set("X-Quota-Remaining", strconv.FormatInt(s.QuotaRemaining(), 10))
		hd.Set("X-Quota-Reset", strconv.FormatInt(s.QuotaReset.Unix(), 10))
		policy = append(policy, fmt.Sprintf(`"month";q=%d;w=%d`, s.QuotaLimit, monthSeconds(s.QuotaReset)))
		state = append(state, fmt.Sprintf(`"month";r=%d;t=%d`, s.QuotaRemaining(), secondsUntil(s.QuotaReset, now)))
	}
	if len(policy) > 0 {
		hd.Set("RateLimit-Policy", strings.Join(policy, ", "))
		hd.Set("RateLimit", strings.Join(state, ", "))
	}
}

func secondsUntil(t, now time.Time) int64 {
	return int64(max(0, limits.RetryAfterSeconds(t.Sub(now))))
}

// monthSeconds is the length of the month that ends at reset.
func monthSeconds(reset time.Time) int64 {
	start := reset.AddDate(0, -1, 0)
	return int64(reset.Sub(start).Seconds())
}

// Package views builds the /v1/me and /v1/lists bodies once, for REST and
// MCP alike, and the error of a call the database failed.
package views

import (
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/vehicle"
)

// CodeServiceUnavailable is the code of a call the database failed.
const CodeServiceUnavailable = "service_unavailable"

// Unavailable is the error of a call whose database failed; what names the data.
func Unavailable(what string) *vehicle.Error {
	return &vehicle.Error{Code: CodeServiceUnavailable, Message: "The " + what + " database is unavailable; retry shortly."}
}

// Me is the body of /v1/me (inside the data envelope) and of the
// account_usage tool. Limits of 0 (unlimited) are null.
type Me struct {
	Account   MeAccount    `json:"account" jsonschema:"The caller's account."`
	Plan      account.Plan `json:"plan" jsonschema:"The account's plan and its limits (0 is unlimited)."`
	RateLimit RateWindow   `json:"rate_limit" jsonschema:"The per-minute rate window."`
	Quota     QuotaWindow  `json:"quota" jsonschema:"The monthly quota window."`
	Token     MeToken      `json:"token" jsonschema:"The token this request used."`
}

func (Me) SchemaDescription() string { return "The caller's account, plan, limits and usage." }

// MeAccount identifies the account.
type MeAccount struct {
	ID        string    `json:"id" jsonschema:"The account's id."`
	Email     string    `json:"email" jsonschema:"The account's email address."`
	CreatedAt time.Time `json:"created_at" jsonschema:"When the account was created (UTC)."`
}

// MeToken identifies the token the request used.
type MeToken struct {
	ID     string   `json:"id" jsonschema:"The token's id."`
	Scopes []string `json:"scopes" jsonschema:"The token's abilities, e.g. api:read."`
}

// RateWindow is the per-minute window.
type RateWindow struct {
	Limit     *int      `json:"limit" jsonschema:"Requests allowed per minute; null when unlimited." unit:"requests/min"`
	Remaining *int      `json:"remaining" jsonschema:"Requests left in the current minute; null when unlimited." unit:"requests"`
	Reset     time.Time `json:"reset" jsonschema:"When the next request of the window frees up (UTC)."`
}

// QuotaWindow is the calendar month (UTC).
type QuotaWindow struct {
	Period    string    `json:"period" jsonschema:"The calendar month (UTC) counted, e.g. 2026-03."`
	Limit     *int      `json:"limit" jsonschema:"Charged calls allowed this month; null when unlimited." unit:"calls"`
	Used      int64     `json:"used" jsonschema:"Charged calls used this month, REST and MCP together." unit:"calls"`
	Remaining *int64    `json:"remaining" jsonschema:"Charged calls left this month; null when unlimited." unit:"calls"`
	Reset     time.Time `json:"reset" jsonschema:"When the month ends and the quota resets (UTC)."`
}

// NewMe describes the principal's account, plan and limit windows.
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
	ID        string     `json:"id" jsonschema:"The list's id."`
	Name      string     `json:"name" jsonschema:"The list's name."`
	IsDefault bool       `json:"is_default" jsonschema:"True for the default list, My garage."`
	CreatedAt time.Time  `json:"created_at" jsonschema:"When the list was created (UTC)."`
	Items     []ListItem `json:"items" jsonschema:"The saved records, oldest first."`
}

// ListItem is a saved record with a summary of it.
type ListItem struct {
	account.ListItem
	Record *RecordRef `json:"record" jsonschema:"A summary of the saved record; null when it is missing."`
}

// RecordRef summarises a catalog record.
type RecordRef struct {
	Make  string `json:"make" jsonschema:"The record's make."`
	Model string `json:"model" jsonschema:"The record's model."`
	Year  int    `json:"year" jsonschema:"The record's model year."`
}

// NewLists summarises each item's record from the catalog, or marks it
// missing; never nil, so no lists encode as [].
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

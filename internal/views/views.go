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

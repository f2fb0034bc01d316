package httpapi

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
)

// Me is the body of /v1/me. Limits of 0 (unlimited) are null.
type Me struct {
	Account   MeAccount    `json:"account"`
	Plan      account.Plan `json:"plan"`
	RateLimit RateWindow   `json:"rate_limit"`
	Quota     QuotaWindow  `json:"quota"`
	Token     MeToken      `json:"token"`
}

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

func (h *Handler) me(w http.ResponseWriter, r *http.Request) {
	if !noParams(w, r) {
		return
	}
	p, _ := PrincipalFrom(r.Context())
	st, err := h.limiter.State(r.Context(), p.Account.ID, p.Plan)
	if err != nil {
		writeError(w, r, err)
		return
	}
	me := Me{
		Account:   MeAccount{ID: p.Account.ID, Email: p.Account.Email, CreatedAt: p.Account.CreatedAt},
		Plan:      p.Plan,
		RateLimit: RateWindow{Reset: st.RateReset},
		Quota:     QuotaWindow{Period: st.Period, Used: st.QuotaUsed, Reset: st.QuotaReset},
		Token:     MeToken{ID: p.TokenID, Scopes: p.Scopes},
	}
	if st.RateLimit > 0 {
		me.RateLimit.Limit, me.RateLimit.Remaining = &st.RateLimit, &st.RateRemaining
	}
	if st.QuotaLimit > 0 {
		rem := st.QuotaRemaining()
		me.Quota.Limit, me.Quota.Remaining = &st.QuotaLimit, &rem
	}
	ok(w, me)
}

// List is a saved list as the API shows it.
type List struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	IsDefault bool       `json:"is_default"`
	CreatedAt time.Time  `json:"created_at"`
	Items     []ListItem `json:"items"`
}

// ListItem is a saved record with a summary of it; Record is null when the
// record has left the catalog (Missing is then true).
type ListItem struct {
	account.ListItem
	Record *RecordRef `json:"record"`
}

// RecordRef summarises a catalog record.
type RecordRef struct {
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
}

func (h *Handler) lists(w http.ResponseWriter, r *http.Request) {
	if !noParams(w, r) {
		return
	}
	p, _ := PrincipalFrom(r.Context())
	stored, err := h.access.ListsOf(r.Context(), p.Account.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]List, 0, len(stored))
	for _, l := range stored {
		al := List{ID: l.ID, Name: l.Name, IsDefault: l.IsDefault, CreatedAt: l.CreatedAt, Items: make([]ListItem, 0, len(l.Items))}
		for _, it := range l.Items {
			item := ListItem{ListItem: it}
			if rec, err := h.svc.Get(it.Kind, it.UUID); err == nil {
				ref := recordRef(rec)
				item.Record = &ref
			} else {
				item.Missing = true
			}
			al.Items = append(al.Items, item)
		}
		out = append(out, al)
	}
	ok(w, out)
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

//go:embed static/changelog.json
var changelogJSON []byte

// ChangelogEntry is one release of the API.
type ChangelogEntry struct {
	Version string   `json:"version"`
	Date    string   `json:"date"`
	Changes []string `json:"changes"`
}

var changelog = func() []ChangelogEntry {
	var c []ChangelogEntry
	if err := json.Unmarshal(changelogJSON, &c); err != nil {
		panic("embedded changelog.json: " + err.Error())
	}
	return c
}()

func (h *Handler) changelog(w http.ResponseWriter, r *http.Request) {
	if noParams(w, r) {
		ok(w, changelog)
	}
}

func (h *Handler) openAPI(w http.ResponseWriter, r *http.Request) {
	if !noParams(w, r) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(h.openapi)
}

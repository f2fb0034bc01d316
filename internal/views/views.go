// Package views builds the /v1/me and /v1/lists bodies once, for REST and
// MCP alike, and the error of a call the database failed.
package views

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/upstream"
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

// ListItem is a saved record or VIN with a summary of it.
type ListItem struct {
	account.ListItem
	Record  *RecordRef    `json:"record" jsonschema:"A summary of the saved record, or of a VIN's decode; null when it is missing or the VIN decoded to no vehicle."`
	Links   *ItemLinks    `json:"links" jsonschema:"For a VIN, the catalog records of its make, model and year; null for a catalog record."`
	Recalls *RecallStatus `json:"recalls" jsonschema:"The recall status of a car, motorcycle or VIN, kept by the recall watch; null for boats, tire sizes and records that left the catalog."`
}

// SchemaEnums: an item's type is a catalog kind or vin.
func (ListItem) SchemaEnums() map[string][]string {
	kinds := []string{}
	for _, k := range append(catalog.Kinds[:len(catalog.Kinds):len(catalog.Kinds)], account.KindVIN) {
		kinds = append(kinds, string(k))
	}
	return map[string][]string{"type": kinds}
}

// RecordRef summarises a catalog record.
type RecordRef struct {
	Make  string `json:"make" jsonschema:"The record's make."`
	Model string `json:"model" jsonschema:"The record's model."`
	Year  int    `json:"year" jsonschema:"The record's model year."`
}

// ItemLinks are a saved VIN's catalog records.
type ItemLinks struct {
	Cars        []uuid.UUID `json:"cars" jsonschema:"The catalog cars of the VIN's make, model and year, the closest match first."`
	Motorcycles []uuid.UUID `json:"motorcycles" jsonschema:"The catalog motorcycles (and other powersports records) of the VIN's make, model and year."`
}

// RecallStatus sums up the recall campaigns of an item.
type RecallStatus struct {
	Open []string `json:"open" jsonschema:"Campaign numbers that apply to the item and that the user has not marked dealt with."`
	New  []string `json:"new" jsonschema:"Those of open first seen after the item's first check and since the user last looked at the garage."`
	// Flags over the open campaigns.
	ParkIt      bool       `json:"park_it" jsonschema:"True when an open campaign advises not to drive the vehicle until repaired."`
	ParkOutside bool       `json:"park_outside" jsonschema:"True when an open campaign advises parking outside, away from buildings."`
	OTA         bool       `json:"ota" jsonschema:"True when an open campaign's remedy is an over-the-air software update."`
	CheckedAt   *time.Time `json:"checked_at" jsonschema:"When the recall watch last checked the item (UTC); null before its first check."`
}

// Saved reads an account's lists and the recall sightings on their items;
// lists.Service is one.
type Saved interface {
	Lists(ctx context.Context, accountID string) ([]account.List, error)
	Recalls(ctx context.Context, accountID string) ([]store.ItemRecall, error)
}

// ReadLists reads the account's lists as the API shows them, and the
// sightings they were built from.
func ReadLists(ctx context.Context, saved Saved, svc *vehicle.Service, accountID string) ([]List, []store.ItemRecall, error) {
	stored, err := saved.Lists(ctx, accountID)
	if err != nil {
		return nil, nil, err
	}
	sightings, err := saved.Recalls(ctx, accountID)
	if err != nil {
		return nil, nil, err
	}
	return NewLists(stored, svc, sightings), sightings, nil
}

// NewLists summarises each item's record from the catalog, or marks it
// missing, with the recall status of the sightings; never nil, so no lists
// encode as [].
func NewLists(stored []account.List, svc *vehicle.Service, sightings []store.ItemRecall) []List {
	byItem := GroupRecalls(sightings)
	out := make([]List, 0, len(stored))
	for _, l := range stored {
		al := List{ID: l.ID, Name: l.Name, IsDefault: l.IsDefault, CreatedAt: l.CreatedAt, Items: make([]ListItem, 0, len(l.Items))}
		for _, it := range l.Items {
			item := ListItem{ListItem: it}
			if it.Kind == account.KindVIN {
				item.Record, item.Links = vinRef(it.Decode)
			} else if rec, err := svc.Get(it.Kind, it.UUID); err == nil {
				ref := recordRef(rec)
				item.Record = &ref
			} else {
				item.Missing = true
			}
			if Watched(it.Kind) && !item.Missing {
				item.Recalls = recallStatus(it, byItem[store.ItemRef{ListID: l.ID, Kind: it.Kind, UUID: it.UUID}])
			}
			al.Items = append(al.Items, item)
		}
		out = append(out, al)
	}
	return out
}

// Watched reports whether the recall watch checks items of kind.
func Watched(kind catalog.Kind) bool {
	return kind == catalog.KindCar || kind == catalog.KindMotorcycle || kind == account.KindVIN
}

// GroupRecalls groups sightings by item, keeping their order.
func GroupRecalls(sightings []store.ItemRecall) map[store.ItemRef][]store.ItemRecall {
	out := map[store.ItemRef][]store.ItemRecall{}
	for _, r := range sightings {
		out[r.ItemRef] = append(out[r.ItemRef], r)
	}
	return out
}

func vinRef(d *account.VINDecode) (*RecordRef, *ItemLinks) {
	links := &ItemLinks{Cars: []uuid.UUID{}, Motorcycles: []uuid.UUID{}}
	if d == nil {
		return nil, links
	}
	links.Cars = append(links.Cars, d.Cars...)
	links.Motorcycles = append(links.Motorcycles, d.Motorcycles...)
	if d.Make == nil || d.Model == nil || d.Year == nil {
		return nil, links
	}
	return &RecordRef{Make: *d.Make, Model: *d.Model, Year: *d.Year}, links
}

// IsNew reports whether a sighting counts as new: after the baseline,
// not dealt with and not yet seen by the user.
func IsNew(r store.ItemRecall) bool { return !r.Baseline && !r.Seen && r.DealtWithAt == nil }

func recallStatus(it account.ListItem, sightings []store.ItemRecall) *RecallStatus {
	st := &RecallStatus{Open: []string{}, New: []string{}, CheckedAt: it.RecallsCheckedAt}
	for _, r := range sightings {
		if r.DealtWithAt != nil {
			continue
		}
		st.Open = append(st.Open, r.Campaign)
		if IsNew(r) {
			st.New = append(st.New, r.Campaign)
		}
		var flags upstream.Recall
		if json.Unmarshal(r.Recall, &flags) == nil {
			st.ParkIt, st.ParkOutside, st.OTA = st.ParkIt || flags.ParkIt, st.ParkOutside || flags.ParkOutside, st.OTA || flags.OTAUpdate
		}
	}
	return st
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

// ItemRecalls is one item's recall campaigns, the body of /v1/lists/recalls.
type ItemRecalls struct {
	ListID    string         `json:"list_id" jsonschema:"The id of the list holding the item."`
	ListName  string         `json:"list_name" jsonschema:"The list's name."`
	Type      catalog.Kind   `json:"type" jsonschema:"The item's kind: car, motorcycle or vin."`
	UUID      uuid.UUID      `json:"uuid" jsonschema:"The record's uuid, or for a VIN the id derived from it."`
	VIN       *string        `json:"vin" jsonschema:"The saved VIN; null for a catalog record."`
	Note      string         `json:"note" jsonschema:"The user's note; may be empty."`
	Record    *RecordRef     `json:"record" jsonschema:"The vehicle's make, model and year; null when unknown."`
	CheckedAt *time.Time     `json:"checked_at" jsonschema:"When the recall watch last checked the item (UTC); null before its first check."`
	Campaigns []CampaignView `json:"campaigns" jsonschema:"The campaigns that affect the item, oldest sighting first."`
}

// SchemaEnums: the recall watch checks cars, motorcycles and VINs.
func (ItemRecalls) SchemaEnums() map[string][]string {
	return map[string][]string{"type": {string(catalog.KindCar), string(catalog.KindMotorcycle), string(account.KindVIN)}}
}

// CampaignView is a campaign on an item with its sighting and the user's status.
type CampaignView struct {
	upstream.Recall
	FirstSeenAt time.Time  `json:"first_seen_at" jsonschema:"When the recall watch first saw the campaign on the item (UTC)."`
	Baseline    bool       `json:"baseline" jsonschema:"True when the campaign was already open at the item's first check; it never counts as new."`
	New         bool       `json:"new" jsonschema:"True when first seen after the baseline, not dealt with and not yet seen by the user in the dashboard."`
	Status      string     `json:"status" jsonschema:"The user's status: open, or dealt_with."`
	DealtWithAt *time.Time `json:"dealt_with_at" jsonschema:"When the user marked the campaign dealt with (UTC); null when open."`
	StatusNote  string     `json:"status_note" jsonschema:"The user's note on the status; may be empty."`
}

// SchemaEnums: a campaign is open or dealt with.
func (CampaignView) SchemaEnums() map[string][]string {
	return map[string][]string{"status": {StatusOpen, StatusDealtWith}}
}

// Campaign statuses.
const (
	StatusOpen      = "open"
	StatusDealtWith = "dealt_with"
)

// NewItemRecalls groups the sightings by item, every watched item of the
// lists in order, with no campaigns before its first check.
func NewItemRecalls(lists []List, sightings []store.ItemRecall) []ItemRecalls {
	byItem := GroupRecalls(sightings)
	out := []ItemRecalls{}
	for _, l := range lists {
		for _, it := range l.Items {
			if it.Recalls == nil {
				continue
			}
			ir := ItemRecalls{ListID: l.ID, ListName: l.Name, Type: it.Kind, UUID: it.UUID, VIN: it.VIN, Note: it.Note,
				Record: it.Record, CheckedAt: it.Recalls.CheckedAt, Campaigns: []CampaignView{}}
			for _, r := range byItem[store.ItemRef{ListID: l.ID, Kind: it.Kind, UUID: it.UUID}] {
				c := CampaignView{FirstSeenAt: r.FirstSeenAt, Baseline: r.Baseline, New: IsNew(r), Status: StatusOpen,
					DealtWithAt: r.DealtWithAt, StatusNote: r.DealtWithNote}
				if r.DealtWithAt != nil {
					c.Status = StatusDealtWith
				}
				if json.Unmarshal(r.Recall, &c.Recall) != nil {
					c.CampaignNumber = r.Campaign
				}
				ir.Campaigns = append(ir.Campaigns, c)
			}
			out = append(out, ir)
		}
	}
	return out
}

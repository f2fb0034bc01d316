package httpapi

import (
	_ "embed"
	"encoding/json"
	"net/http"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/views"
)

// The bodies of /v1/me and /v1/lists are built in package views, which the
// MCP tools account_usage and my_garage share, so both answer the same JSON.
type (
	// Me is the body of /v1/me. Limits of 0 (unlimited) are null.
	Me = views.Me
	// MeAccount identifies the account.
	MeAccount = views.MeAccount
	// MeToken identifies the token the request used.
	MeToken = views.MeToken
	// RateWindow is the per-minute window.
	RateWindow = views.RateWindow
	// QuotaWindow is the calendar month (UTC).
	QuotaWindow = views.QuotaWindow
	// List is a saved list as the API shows it.
	List = views.List
	// ListItem is a saved record with a summary of it.
	ListItem = views.ListItem
	// RecordRef summarises a catalog record.
	RecordRef = views.RecordRef
	// RecallStatus sums up the recall campaigns of an item.
	RecallStatus = views.RecallStatus
	// ItemLinks are a saved VIN's catalog records.
	ItemLinks = views.ItemLinks
	// ItemRecalls is one item's recall campaigns.
	ItemRecalls = views.ItemRecalls
	// CampaignView is a campaign on an item with its sighting and the user's status.
	CampaignView = views.CampaignView
)

func (h *Handler) me(w http.ResponseWriter, r *http.Request) {
	p, _ := edge.PrincipalFrom(r.Context())
	st, err := h.limiter.State(r.Context(), p.Account.ID, p.Plan)
	if err != nil {
		edge.WriteError(w, r, err)
		return
	}
	ok(w, views.NewMe(p, st))
}

func (h *Handler) lists(w http.ResponseWriter, r *http.Request) {
	p, _ := edge.PrincipalFrom(r.Context())
	saved, _, err := views.ReadLists(r.Context(), h.saved, h.svc, p.Account.ID)
	if err != nil {
		edge.Unavailable(w, r, "account", err)
		return
	}
	ok(w, saved)
}

func (h *Handler) listsRecalls(w http.ResponseWriter, r *http.Request) {
	p, _ := edge.PrincipalFrom(r.Context())
	saved, sightings, err := views.ReadLists(r.Context(), h.saved, h.svc, p.Account.ID)
	if err != nil {
		edge.Unavailable(w, r, "account", err)
		return
	}
	ok(w, views.NewItemRecalls(saved, sightings))
}

//go:embed static/changelog.json
var changelogJSON []byte

// ChangelogEntry is one release of the API.
type ChangelogEntry struct {
	Version string   `json:"version" jsonschema:"The API version, semver."`
	Date    string   `json:"date" jsonschema:"The release date, YYYY-MM-DD."`
	Changes []string `json:"changes" jsonschema:"What changed, one sentence each."`
}

var changelog = func() []ChangelogEntry {
	var c []ChangelogEntry
	if err := json.Unmarshal(changelogJSON, &c); err != nil {
		panic("embedded changelog.json: " + err.Error())
	}
	return c
}()

func (h *Handler) changelog(w http.ResponseWriter, r *http.Request) {
	ok(w, changelog)
}

// openAPI serves the document with the client's origin as its server, so
// generated clients build absolute URLs.
func (h *Handler) openAPI(w http.ResponseWriter, r *http.Request) {
	origin := edge.DocumentOrigin(w, r, h.publicURL)
	if origin == "" {
		origin = "/" // the Host was no host name
	}
	server, _ := json.Marshal(origin)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(h.openapi[0])
	_, _ = w.Write(server)
	_, _ = w.Write(h.openapi[1])
}

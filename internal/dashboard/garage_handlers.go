package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/views"
)

// garageData is the garage page: the lists exactly as /v1/lists and the
// my_garage tool show them (views.NewLists builds all three).
type garageData struct {
	Lists       []views.List
	MaxListName int
	NewName     string
	// Campaigns are each watched item's recall campaigns, by itemKey.
	Campaigns map[string][]views.CampaignView
	// VIN and VINList keep a refused VIN in its form.
	VIN, VINList string
}

// itemKey names a list item in garageData.Campaigns.
func itemKey(listID string, kind catalog.Kind, id uuid.UUID) string {
	return listID + "/" + string(kind) + "/" + id.String()
}

func (h *Handler) garageView(w http.ResponseWriter, r *http.Request, s *session, status int, d garageData, errMsg string) {
	saved, sightings, err := views.ReadLists(r.Context(), h.lists, h.vehicles, s.account.ID)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	d.Lists = saved
	d.MaxListName = lists.MaxListName
	d.Campaigns = map[string][]views.CampaignView{}
	for _, it := range views.NewItemRecalls(saved, sightings) {
		d.Campaigns[itemKey(it.ListID, it.Type, it.UUID)] = it.Campaigns
	}
	v := signedIn(s, "garage", "Garage")
	v.Notice, v.Error, v.Data = notice(r), errMsg, d
	h.render(w, r, status, "garage", v)
	// The user has seen the new campaigns, shown as new this once.
	if err := h.lists.MarkRecallsSeen(r.Context(), s.account.ID); err != nil {
		h.log.Warn("mark recalls seen", "err", err)
	}
}

func (h *Handler) garage(w http.ResponseWriter, r *http.Request, s *session) {
	h.garageView(w, r, s, http.StatusOK, garageData{}, "")
}

func (h *Handler) createList(w http.ResponseWriter, r *http.Request, s *session) {
	name := r.PostForm.Get("name")
	l, err := h.lists.Create(r.Context(), s.account.ID, name)
	switch {
	case errors.Is(err, lists.ErrConflict):
		h.garageView(w, r, s, http.StatusConflict, garageData{NewName: name}, "You have a list with that name already.")
		return
	case errors.Is(err, lists.ErrListName), errors.Is(err, lists.ErrTooManyLists):
		h.garageView(w, r, s, http.StatusBadRequest, garageData{NewName: name}, sentence(err.Error()))
		return
	case isBadText(err):
		h.garageView(w, r, s, http.StatusBadRequest, garageData{}, sentence(err.Error()))
		return
	case err != nil:
		h.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, "/dashboard/garage?n=list-created#list-"+l.ID, http.StatusSeeOther)
}

func (h *Handler) confirmDeleteList(w http.ResponseWriter, r *http.Request, s *session) {
	l, err := h.lists.List(r.Context(), s.account.ID, r.PathValue("id"))
	if h.badText(w, r, err) {
		return
	}
	if errors.Is(err, lists.ErrNotFound) || err == nil && l.IsDefault {
		h.notFound(w, r)
		return
	}
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	v := signedIn(s, "garage", "Delete list")
	v.Data = l
	h.render(w, r, http.StatusOK, "deletelist", v)
}

func (h *Handler) deleteList(w http.ResponseWriter, r *http.Request, s *session) {
	err := h.lists.Delete(r.Context(), s.account.ID, r.PathValue("id"))
	if h.badText(w, r, err) {
		return
	}
	switch {
	case errors.Is(err, lists.ErrNotFound), errors.Is(err, lists.ErrDefaultList):
		h.notFound(w, r)
		return
	case err != nil:
		h.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, "/dashboard/garage?n=list-deleted", http.StatusSeeOther)
}

func itemForm(r *http.Request) (listID string, kind catalog.Kind, id uuid.UUID, ok bool) {
	kind, err := catalog.ParseKind(r.PostForm.Get("type"))
	if r.PostForm.Get("type") == string(account.KindVIN) {
		kind, err = account.KindVIN, nil
	}
	if err != nil {
		return "", "", uuid.Nil, false
	}
	id, err = vehicle.ParseUUID(r.PostForm.Get("uuid"))
	if err != nil {
		return "", "", uuid.Nil, false
	}
	return r.PostForm.Get("list"), kind, id, true
}

func (h *Handler) addItem(w http.ResponseWriter, r *http.Request, s *session) {
	listID, kind, id, ok := itemForm(r)
	if !ok {
		h.errorPage(w, r, http.StatusBadRequest, "Choose a vehicle", "Choose one of the vehicles listed, then add it.")
		return
	}
	_, err := h.lists.Add(r.Context(), s.account.ID, listID, kind, id, r.PostForm.Get("note"))
	if h.itemRefused(w, r, err) {
		return
	}
	n := "added"
	switch {
	case errors.Is(err, lists.ErrConflict):
		n = "already"
	case errors.Is(err, lists.ErrUnknownRecord):
		h.errorPage(w, r, http.StatusBadRequest, "Not in the catalog", "That vehicle is not in the catalog (any more).")
		return
	case err != nil:
		h.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, "/dashboard/garage?n="+n+"#list-"+url.PathEscape(listID), http.StatusSeeOther)
}

// itemRefused answers the refusals the item forms share; true when it did.
func (h *Handler) itemRefused(w http.ResponseWriter, r *http.Request, err error) bool {
	switch {
	case h.badText(w, r, err):
	case errors.Is(err, lists.ErrNotFound):
		h.notFound(w, r)
	case errors.Is(err, lists.ErrNoteTooLong):
		h.errorPage(w, r, http.StatusBadRequest, "Note too long", fmt.Sprintf("A note has at most %d characters.", account.MaxNoteLen))
	default:
		return false
	}
	return true
}

// addVIN saves a VIN, decoded; one that cannot be decoded is shown again
// in its form with the reason.
func (h *Handler) addVIN(w http.ResponseWriter, r *http.Request, s *session) {
	listID, raw := r.PostForm.Get("list"), r.PostForm.Get("vin")
	_, err := h.lists.AddVIN(r.Context(), s.account.ID, listID, raw, r.PostForm.Get("note"))
	if h.itemRefused(w, r, err) {
		return
	}
	var ve *vehicle.Error
	n := "added"
	switch {
	case errors.Is(err, lists.ErrConflict):
		n = "already"
	case errors.As(err, &ve):
		status := http.StatusBadRequest
		if ve.Code != lookup.CodeInvalidVIN && ve.Code != lookup.CodeVINNotDecodable {
			status = http.StatusServiceUnavailable
		}
		h.garageView(w, r, s, status, garageData{VIN: raw, VINList: listID}, sentence(ve.Message))
		return
	case err != nil:
		h.serverError(w, r, err)
		return
	}
	http.Redirect(w, r, "/dashboard/garage?n="+n+"#list-"+url.PathEscape(listID), http.StatusSeeOther)
}

// setRecallStatus marks a campaign on an item dealt with (with a note) or open again.
func (h *Handler) setRecallStatus(w http.ResponseWriter, r *http.Request, s *session) {
	listID, kind, id, ok := itemForm(r)
	if !ok {
		h.badRequest(w, r)
		return
	}
	dealt := r.PostForm.Get("status") == views.StatusDealtWith
	err := h.lists.SetDealtWith(r.Context(), s.account.ID, store.ItemRef{ListID: listID, Kind: kind, UUID: id},
		r.PostForm.Get("campaign"), dealt, r.PostForm.Get("note"))
	if h.itemRefused(w, r, err) {
		return
	}
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	n := "reopened"
	if dealt {
		n = "dealt-with"
	}
	http.Redirect(w, r, "/dashboard/garage?n="+n+"#list-"+url.PathEscape(listID), http.StatusSeeOther)
}

func (h *Handler) removeItem(w http.ResponseWriter, r *http.Request, s *session) {
	listID, kind, id, ok := itemForm(r)
	if !ok {
		h.badRequest(w, r)
		return
	}
	err := h.lists.Remove(r.Context(), s.account.ID, listID, kind, id)
	if h.badText(w, r, err) {
		return
	}
	if err != nil && !errors.Is(err, lists.ErrNotFound) {
		h.serverError(w, r, err)
		return
	}
	// Removing what is not there (a second click, another tab) leaves the
	// list as the user wanted it: say removed either way, unless the list
	// itself is not theirs.
	if errors.Is(err, lists.ErrNotFound) {
		if _, lerr := h.lists.List(r.Context(), s.account.ID, listID); lerr != nil {
			h.notFound(w, r)
			return
		}
	}
	http.Redirect(w, r, "/dashboard/garage?n=removed#list-"+url.PathEscape(listID), http.StatusSeeOther)
}

// sentence capitalises an error message for a page, unless it starts with
// a parameter (year=1800 ...), which keeps its spelling.
func sentence(s string) string {
	if s == "" {
		return s
	}
	if first, _, _ := strings.Cut(s, " "); !strings.Contains(first, "=") {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// Drill-down: add a vehicle by choosing its type, make, model, year and
// then the record, each step a GET form, so it works without JavaScript and
// every step has a URL. The choices go through vehicle.Service's Makes,
// Models, ModelYears and Search, the calls behind /v1/{type}/makes, /models
// and the list endpoints, so the same rules apply.

type kindOption struct {
	Kind  catalog.Kind
	Label string
}

type recordOption struct {
	UUID    string
	Title   string
	Details string
}

// choice is an earlier step's answer, with the URL that changes it.
type choice struct {
	Label     string
	Value     string
	ChangeURL string
}

type addData struct {
	Step    string // type, make, model, year, record
	Lists   []account.List
	List    account.List
	Kind    catalog.Kind
	Make    string
	Model   string
	Year    string
	Kinds   []kindOption
	Makes   []vehicle.MakeCount
	Models  []vehicle.ModelRange
	Years   []int
	Records []recordOption
	// Truncated is true when more records match than paging reaches.
	Truncated bool
	Choices   []choice
	MaxNote   int
}

// maxPagesScanned bounds the pages read to collect records; it is
// the API's own page limit, so the dashboard sees what a client can.
const maxPagesScanned = vehicle.MaxPage

func (h *Handler) addVehicle(w http.ResponseWriter, r *http.Request, s *session) {
	q := r.URL.Query()
	d := addData{MaxNote: account.MaxNoteLen}
	ctx := r.Context()
	stored, err := h.lists.Lists(ctx, s.account.ID)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	d.Lists = stored
	listID := q.Get("list")
	idx := slices.IndexFunc(stored, func(l account.List) bool { return l.ID == listID })
	if listID == "" {
		idx = slices.IndexFunc(stored, func(l account.List) bool { return l.IsDefault })
	}
	if idx < 0 {
		h.notFound(w, r)
		return
	}
	d.List = stored[idx]
	for _, k := range catalog.Kinds {
		d.Kinds = append(d.Kinds, kindOption{Kind: k, Label: kindLabel(k)})
	}
	fail := func(msg string) {
		v := signedIn(s, "garage", "Add a vehicle")
		v.Error, v.Data = msg, d
		h.render(w, r, http.StatusBadRequest, "add", v)
	}
	base := url.Values{"list": {d.List.ID}}
	link := func(v url.Values) string { return "/dashboard/garage/add?" + v.Encode() }

	d.Step = "type"
	if q.Get("type") != "" {
		kind, err := catalog.ParseKind(q.Get("type"))
		if err != nil {
			fail("Choose one of the vehicle types listed.")
			return
		}
		d.Kind = kind
		d.Choices = append(d.Choices, choice{"Type", kindLabel(kind), link(base)})
		base.Set("type", string(kind))
		d.Step = "make"
		d.Makes = h.vehicles.Makes(kind)
	}
	if d.Step == "make" && q.Get("make") != "" {
		d.Make = q.Get("make")
		models, err := h.vehicles.Models(d.Kind, d.Make)
		if err != nil {
			fail(sentence(err.Error()))
			return
		}
		if len(models) == 0 {
			fail("The catalog has no " + strings.ToLower(kindLabel(d.Kind)) + " of that make. Choose one from the list.")
			return
		}
		d.Choices = append(d.Choices, choice{"Make", d.Make, link(base)})
		base.Set("make", d.Make)
		d.Step, d.Models = "model", models
	}
	if d.Step == "model" && q.Get("model") != "" {
		d.Model = q.Get("model")
		years := h.vehicles.ModelYears(d.Kind, d.Make, d.Model)
		if len(years) == 0 {
			fail("The catalog has no " + d.Make + " of that model. Choose one from the list.")
			return
		}
		d.Choices = append(d.Choices, choice{"Model", d.Model, link(base)})
		base.Set("model", d.Model)
		d.Step = "year"
		for _, y := range years {
			d.Years = append(d.Years, y.Year)
		}
	}
	if d.Step == "year" && q.Get("year") != "" {
		d.Year = q.Get("year")
		recs, err := h.scan(vehicle.Query{Kind: d.Kind, Make: d.Make, Model: d.Model}, d.Year)
		if err != nil {
			fail(sentence(err.Error()))
			return
		}
		if len(recs.options) == 0 {
			fail("The catalog has no " + d.Make + " " + d.Model + " of that year. Choose one from the list.")
			return
		}
		d.Choices = append(d.Choices, choice{"Year", d.Year, link(base)})
		d.Step, d.Records, d.Truncated = "record", recs.options, recs.truncated
	}
	v := signedIn(s, "garage", "Add a vehicle")
	v.Data = d
	h.render(w, r, http.StatusOK, "add", v)
}

type scanned struct {
	options   []recordOption
	truncated bool
}

// scan pages through a search of the form's year (as a client would, up
// to the API's page limit) and returns the records found.
func (h *Handler) scan(q vehicle.Query, year string) (scanned, error) {
	var out scanned
	if err := q.Set("year", year); err != nil {
		return out, err
	}
	perPage := vehicle.MaxPerPage
	q.PerPage = &perPage
	for page := 1; page <= maxPagesScanned; page++ {
		q.Page = &page
		p, err := h.vehicles.Search(q)
		if err != nil {
			return out, err
		}
		out.options = append(out.options, records(p.Records())...)
		out.truncated = p.Meta.Truncated
		if page >= p.Meta.MaxPage {
			break
		}
	}
	return out, nil
}

// records describes a page's records for people.
func records(data any) []recordOption {
	var out []recordOption
	add := func(id uuid.UUID, title string, details ...string) {
		var parts []string
		for _, d := range details {
			if strings.TrimSpace(d) != "" {
				parts = append(parts, d)
			}
		}
		out = append(out, recordOption{UUID: id.String(), Title: strings.TrimSpace(title),
			Details: strings.Join(parts, " · ")})
	}
	switch recs := data.(type) {
	case []catalog.Car:
		for _, c := range recs {
			add(c.UUID, fmt.Sprintf("%d %s %s %s", c.Year, c.Make, c.Model, c.Trim), c.Body, c.DriveType, c.Engine, c.Transmission)
		}
	case []catalog.Motorcycle:
		for _, m := range recs {
			cc := ""
			if m.DisplacementCC != nil {
				cc = strconv.Itoa(*m.DisplacementCC) + " cc"
			}
			add(m.UUID, fmt.Sprintf("%d %s %s", m.Year, m.Make, m.Model), m.MotorcycleType, m.EngineType, cc)
		}
	case []catalog.Boat:
		for _, b := range recs {
			add(b.UUID, fmt.Sprintf("%d %s %s", b.Year, b.Make, b.Model), b.ModelType,
				strconv.FormatFloat(b.LengthFt, 'f', -1, 64)+" ft", strconv.Itoa(b.HP)+" hp", b.HullType)
		}
	case []catalog.TireFitment:
		for _, t := range recs {
			size := t.TireSize
			if t.RearTireSize != nil {
				size += " front, " + *t.RearTireSize + " rear"
			}
			add(t.UUID, fmt.Sprintf("%d %s %s %s", t.Year, t.Make, t.Model, t.Trim), size)
		}
	}
	return out
}

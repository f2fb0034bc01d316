package dashboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
)

// recordData is a record's page: its fields in the order the API sends
// them, labelled for people, and where the API serves it.
type recordData struct {
	Kind    catalog.Kind
	UUID    string
	Heading string
	Fields  []field
	APIURL  string
	Lists   []account.List
	MaxNote int
	// Complaints is the first page of owners' complaints, from the
	// imported files; nil when they are not (see lookup.FileComplaints).
	Complaints *lookup.Complaints
	// TopComponents are the components most complained of.
	TopComponents []lookup.ComponentCount
}

// complaintsShown is how many complaints and components a record's page lists.
const complaintsShown = 5

// field is one field of a record: Name is its JSON name, Label how the
// page shows it (with its unit).
type field struct {
	Name  string
	Label string
	Value string
}

var apiPaths = map[catalog.Kind]string{
	catalog.KindCar: "cars", catalog.KindMotorcycle: "motorcycles", catalog.KindBoat: "boats", catalog.KindTireSize: "tire-sizes",
}

func (h *Handler) record(w http.ResponseWriter, r *http.Request, s *session) {
	kind, err := catalog.ParseKind(r.PathValue("type"))
	if err != nil || string(kind) != r.PathValue("type") {
		h.notFound(w, r)
		return
	}
	id, err := vehicle.ParseUUID(r.PathValue("uuid"))
	if err != nil {
		h.notFound(w, r)
		return
	}
	raw, err := h.vehicles.GetJSON(kind, id)
	if errors.Is(err, vehicle.ErrNotFound) {
		h.errorPage(w, r, http.StatusNotFound, "Not in the catalog",
			"This record is not in the catalog (any more). Saved items that point at it stay in your lists, marked missing.")
		return
	}
	if err != nil {
		h.internalError(w, r, err)
		return
	}
	fields, err := orderedFields(raw)
	if err != nil {
		h.internalError(w, r, err)
		return
	}
	lists, err := h.lists.Lists(r.Context(), s.account.ID)
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	d := recordData{Kind: kind, UUID: id.String(), Fields: fields, Lists: lists, MaxNote: account.MaxNoteLen,
		APIURL: h.baseURL(r) + "/v1/" + apiPaths[kind] + "/" + id.String()}
	vals := map[string]string{}
	for _, f := range fields {
		vals[f.Name] = f.Value
	}
	d.Heading = strings.Join(strings.Fields(vals["year"]+" "+vals["make"]+" "+vals["model"]+" "+vals["trim"]), " ")
	if c, ok, err := h.lookup.FileComplaints(r.Context(), kind, id, lookup.ComplaintPage{Page: 1, PerPage: complaintsShown}); err != nil {
		h.log.Warn("complaints for a record page", "uuid", id, "err", err)
	} else if ok {
		d.Complaints, d.TopComponents = &c, c.ByComponent[:min(len(c.ByComponent), complaintsShown)]
	}
	v := signedIn(s, "garage", d.Heading)
	v.Data = d
	h.render(w, r, http.StatusOK, "record", v)
}

// orderedFields reads a record's JSON object keeping its key order (the
// struct order of package catalog), which a map would lose.
func orderedFields(raw json.RawMessage) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("record JSON is not an object: %v", err)
	}
	var out []field
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := t.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, field{Name: name, Value: display(v)})
	}
	fuel := ""
	for _, f := range out {
		if f.Name == "fuel_type" {
			fuel = f.Value
		}
	}
	for i := range out {
		out[i].Label = catalog.CarFieldLabel(out[i].Name, fuel)
	}
	return out, nil
}

// display renders a JSON value for a page: null as a dash, lists joined.
func display(v any) string {
	switch x := v.(type) {
	case nil:
		return "—"
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case json.Number:
		return x.String()
	case string:
		return x
	case []any:
		parts := make([]string, 0, len(x))
		for _, e := range x {
			parts = append(parts, display(e))
		}
		if len(parts) == 0 {
			return "—"
		}
		return strings.Join(parts, ", ")
	}
	b, _ := json.Marshal(v)
	return strconv.Quote(string(b))
}

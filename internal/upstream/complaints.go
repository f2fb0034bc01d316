package upstream

import (
	"cmp"
	"context"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Complaint is one owner's safety complaint to NHTSA about a vehicle.
type Complaint struct {
	ODINumber    int64    `json:"odi_number" jsonschema:"NHTSA's complaint number (ODI number)."`
	Components   []string `json:"components" jsonschema:"The components complained of, in NHTSA's words, sorted."`
	Crash        bool     `json:"crash" jsonschema:"True when the vehicle was in a crash."`
	Fire         bool     `json:"fire" jsonschema:"True when the vehicle was in a fire."`
	Injuries     int      `json:"injuries" jsonschema:"Persons injured."`
	Deaths       int      `json:"deaths" jsonschema:"Persons killed."`
	IncidentDate *string  `json:"incident_date" jsonschema:"When the failure happened, YYYY-MM-DD; null when unknown."`
	ReceivedDate *string  `json:"received_date" jsonschema:"When NHTSA received the complaint, YYYY-MM-DD; null when unknown."`
	Summary      *string  `json:"summary" jsonschema:"The complainant's account."`
}

// Complaints lists NHTSA's complaints about a make, model and year, newest
// received first; never nil.
func (c *Client) Complaints(ctx context.Context, vehicleMake, model string, year int) ([]Complaint, Meta, error) {
	vehicleMake, model = clean(vehicleMake), clean(model)
	if vehicleMake == "" || model == "" || year <= 0 {
		return nil, Meta{}, errors.New("upstream: Complaints needs make, model and year")
	}
	key := normKey("nhtsa:complaints:", vehicleMake, model, strconv.Itoa(year))
	return load(ctx, c, UpstreamNHTSA, ServiceRecalls, key, func(ctx context.Context) ([]Complaint, error) {
		return fetch(ctx, c, UpstreamNHTSA, c.cfg.NHTSAURL+"/complaints/complaintsByVehicle", url.Values{
			"make":      {vehicleMake},
			"model":     {model},
			"modelYear": {strconv.Itoa(year)},
		}, parseComplaints)
	})
}

// componentSep splits the API's "SERVICE BRAKES, HYDRAULIC,STEERING": its
// names are joined by a bare comma and may hold ", " themselves.
var componentSep = regexp.MustCompile(`,([^ ]|$)`)

func parseComplaints(body []byte) ([]Complaint, error) {
	env, err := decodeEnvelope(body)
	if err != nil {
		return nil, err
	}
	out := make([]Complaint, 0, len(env.results))
	for _, r := range env.results {
		odi, err := strconv.ParseInt(r.str("odiNumber"), 10, 64)
		if err != nil || odi <= 0 {
			continue // a complaint without its number cannot be told apart
		}
		c := Complaint{ODINumber: odi, Components: splitComponents(r.str("components")), Crash: r.boolean("crash"),
			Fire: r.boolean("fire"), Summary: oneLine(r.str("summary")),
			IncidentDate: usDate(r.str("dateOfIncident")), ReceivedDate: usDate(r.str("dateComplaintFiled"))}
		if n := r.optInt("numberOfInjuries"); n != nil && *n > 0 {
			c.Injuries = *n
		}
		if n := r.optInt("numberOfDeaths"); n != nil && *n > 0 {
			c.Deaths = *n
		}
		out = append(out, c)
	}
	SortComplaints(out)
	return out, nil
}

// oneLine is a summary with its runs of white space as one space, as a
// flat file's line holds it: both sources give the same text. "" is nil.
func oneLine(s string) *string {
	if s = strings.Join(strings.Fields(s), " "); s == "" {
		return nil
	}
	return &s
}

func splitComponents(s string) []string {
	out := []string{}
	s = componentSep.ReplaceAllString(s, "\x00$1")
	for _, p := range strings.Split(s, "\x00") {
		if p = strings.TrimSpace(p); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// usDate reads the complaints API's MM/DD/YYYY; its placeholder 01/01/1901
// (and anything before 1902) is unknown, as in the flat files.
func usDate(s string) *string {
	m := slashRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return nil
	}
	mo, _ := strconv.Atoi(m[1])
	d, _ := strconv.Atoi(m[2])
	y, _ := strconv.Atoi(m[3])
	iso, ok := validDate(y, mo, d)
	if !ok || iso < "1902" {
		return nil
	}
	return &iso
}

// SortComplaints orders complaints newest received first, then by ODI number, descending.
func SortComplaints(l []Complaint) {
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	slices.SortStableFunc(l, func(a, b Complaint) int {
		return cmp.Or(strings.Compare(deref(b.ReceivedDate), deref(a.ReceivedDate)), cmp.Compare(b.ODINumber, a.ODINumber))
	})
}

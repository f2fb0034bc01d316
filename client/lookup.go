package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// ErrInvalidVIN refuses, without a request, a VIN that is not ASCII letters
// and digits, so "../me" cannot address another endpoint.
var ErrInvalidVIN = errors.New("vds: a VIN is 17 letters and digits")

// WMI is the world manufacturer identifier and where it was assigned.
type WMI struct {
	Code    string `json:"code"`
	Region  string `json:"region"`
	Country string `json:"country"`
}

// VINEngine is the engine vPIC reports; nil fields are unknown.
type VINEngine struct {
	Cylinders     *int     `json:"cylinders"`
	DisplacementL *float64 `json:"displacement_l"`
	FuelType      *string  `json:"fuel_type"`
	PowerHP       *float64 `json:"power_hp"`
}

// VINPlant is where the vehicle was assembled.
type VINPlant struct {
	City    *string `json:"city"`
	State   *string `json:"state"`
	Country *string `json:"country"`
}

// CheckDigit is the server's verdict on position 9; Advisory outside North America.
type CheckDigit struct {
	Expected string `json:"expected"`
	Found    string `json:"found"`
	Valid    bool   `json:"valid"`
	Advisory bool   `json:"advisory"`
}

// VINLinks are the catalog records of the decoded make, model and year.
type VINLinks struct {
	Cars       []string   `json:"cars"`
	CarMatches []CarMatch `json:"car_matches"`
	TireSizes  []string   `json:"tire_sizes"`
	// Motorcycles are motorcycle records (ATVs, LSVs ... too), for a powersports VIN.
	Motorcycles []string `json:"motorcycles"`
}

// CarMatch is how a linked car agrees with the decode: Level is full,
// partial or family; Matched and Differs name the fields.
type CarMatch struct {
	ID      string   `json:"id"`
	Level   string   `json:"level"`
	Matched []string `json:"matched"`
	Differs []string `json:"differs"`
}

// VINReport is the answer of GET /v1/vin/{vin}: local checks, vPIC's decode
// and links into the catalog. Stale: an expired cached copy after vPIC failed.
type VINReport struct {
	VIN                 string     `json:"vin"`
	Make                *string    `json:"make"`
	Model               *string    `json:"model"`
	Year                *int       `json:"year"`
	Trim                *string    `json:"trim"`
	Series              *string    `json:"series"`
	Body                *string    `json:"body"`
	BodyClass           *string    `json:"body_class"`
	Doors               *int       `json:"doors"`
	VehicleType         *string    `json:"vehicle_type"`
	Manufacturer        *string    `json:"manufacturer"`
	Engine              VINEngine  `json:"engine"`
	Plant               VINPlant   `json:"plant"`
	CheckDigit          CheckDigit `json:"check_digit"`
	ModelYearCandidates []int      `json:"model_year_candidates"`
	WMI                 WMI        `json:"wmi"`
	ErrorCodes          []string   `json:"error_codes"`
	ErrorText           *string    `json:"error_text"`
	Links               VINLinks   `json:"links"`
	Source              string     `json:"source"`
	Stale               bool       `json:"stale"`
	FetchedAt           time.Time  `json:"fetched_at"`
}

// VINEntry is one VIN of a batch decode: Report, or Error saying why not.
type VINEntry struct {
	VIN    string
	Report *VINReport
	Error  *EntryError
}

// EntryError says why a batch entry has no report.
type EntryError struct {
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

// UnmarshalJSON reads a report, or {"vin", "error"}.
func (e *VINEntry) UnmarshalJSON(b []byte) error {
	id, r, ee, err := readEntry[VINReport, EntryError](b, "vin", func(r *VINReport) string { return r.VIN })
	*e = VINEntry{VIN: id, Report: r, Error: ee}
	return err
}

// MarshalJSON writes the entry as the server sent it.
func (e VINEntry) MarshalJSON() ([]byte, error) { return writeEntry("vin", e.VIN, e.Report, e.Error) }

// readEntry reads a batch entry: {key, "error"}, or a report whose id idOf reads.
func readEntry[R, E any](b []byte, key string, idOf func(*R) string) (string, *R, *E, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return "", nil, nil, err
	}
	if raw, ok := probe["error"]; ok && string(raw) != "null" {
		var id string
		var e E
		if err := json.Unmarshal(probe[key], &id); err != nil {
			return "", nil, nil, err
		}
		return id, nil, &e, json.Unmarshal(raw, &e)
	}
	var r R
	if err := json.Unmarshal(b, &r); err != nil {
		return "", nil, nil, err
	}
	return idOf(&r), &r, nil, nil
}

// writeEntry writes a batch entry: the report, else {key, "error"}.
func writeEntry[R, E any](key, id string, r *R, e *E) ([]byte, error) {
	if r != nil {
		return json.Marshal(r)
	}
	idJSON, err := json.Marshal(id)
	if err != nil {
		return nil, err
	}
	errJSON, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	return []byte(`{"` + key + `":` + string(idJSON) + `,"error":` + string(errJSON) + `}`), nil
}

// MaxBatch is how many VINs one DecodeVINs call takes.
const MaxBatch = 50

// Recall is one NHTSA recall campaign; text fields are nil when NHTSA leaves them empty.
type Recall struct {
	CampaignNumber string  `json:"campaign_number"`
	Manufacturer   *string `json:"manufacturer"`
	Component      *string `json:"component"`
	Summary        *string `json:"summary"`
	Consequence    *string `json:"consequence"`
	Remedy         *string `json:"remedy"`
	Notes          *string `json:"notes"`
	ReportDate     *string `json:"report_date"`
	ParkIt         bool    `json:"park_it"`
	ParkOutside    bool    `json:"park_outside"`
	OTAUpdate      bool    `json:"ota_update"`
}

// Rating is the NCAP crash rating of one variant, in stars; nil: not tested.
type Rating struct {
	VehicleID   int     `json:"vehicle_id"`
	Description *string `json:"description"`
	Overall     *int    `json:"overall"`
	Front       *int    `json:"front"`
	Side        *int    `json:"side"`
	Rollover    *int    `json:"rollover"`
}

// CarRecalls is the answer of GET /v1/cars/{uuid}/recalls.
type CarRecalls struct {
	Car      CarRef   `json:"car"`
	Coverage string   `json:"coverage"`
	Recalls  []Recall `json:"recalls"`
	// Source is where the recalls come from: the imported NHTSA recall files or NHTSA's API.
	Source   string   `json:"source"`
	DataDate string   `json:"data_date"`
	Ratings  []Rating `json:"ratings"`
	// RatingsUnavailable: the recalls came from the files and NHTSA failed to give ratings.
	RatingsUnavailable bool      `json:"ratings_unavailable"`
	Stale              bool      `json:"stale"`
	FetchedAt          time.Time `json:"fetched_at"`
}

// MotorcycleRef identifies the record a motorcycle recall lookup was made for.
type MotorcycleRef struct {
	UUID  string `json:"uuid"`
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
}

// MotorcycleRecalls is the answer of GET /v1/motorcycles/{uuid}/recalls.
type MotorcycleRecalls struct {
	Motorcycle MotorcycleRef `json:"motorcycle"`
	Coverage   string        `json:"coverage"`
	// Note qualifies an empty list: NHTSA matches by name.
	Note      string    `json:"note"`
	Recalls   []Recall  `json:"recalls"`
	Source    string    `json:"source"`
	DataDate  string    `json:"data_date"`
	Stale     bool      `json:"stale"`
	FetchedAt time.Time `json:"fetched_at"`
}

// DecodeVIN decodes a VIN and links it to catalog records (GET /v1/vin/{vin}).
func (c *Client) DecodeVIN(ctx context.Context, vin string, opts ...CallOption) (*VINReport, error) {
	vin = strings.TrimSpace(vin)
	if !vinPathSafe(vin) {
		return nil, fmt.Errorf("%w: %q", ErrInvalidVIN, vin)
	}
	return getPtr[VINReport](ctx, c, apiPrefix+"/vin/"+vin, nil, opts)
}

// DecodeVINs decodes up to MaxBatch VINs in one call (GET /v1/vins), one
// entry per VIN in order; only decoded VINs are charged.
func (c *Client) DecodeVINs(ctx context.Context, vins []string, opts ...CallOption) ([]VINEntry, error) {
	if len(vins) == 0 || len(vins) > MaxBatch {
		return nil, fmt.Errorf("vds: DecodeVINs takes 1 to %d VINs, not %d", MaxBatch, len(vins))
	}
	return getSlice[VINEntry](ctx, c, apiPrefix+"/vins", url.Values{"vin": vins}, opts)
}

func vinPathSafe(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// CarRecalls returns a car's recalls and NCAP ratings (GET /v1/cars/{uuid}/recalls).
func (c *Client) CarRecalls(ctx context.Context, uuid string, opts ...CallOption) (*CarRecalls, error) {
	return getRecord[CarRecalls](ctx, c, carsPath, uuid, "/recalls", opts)
}

// MotorcycleRecalls returns a motorcycle's recalls (GET /v1/motorcycles/{uuid}/recalls).
func (c *Client) MotorcycleRecalls(ctx context.Context, uuid string, opts ...CallOption) (*MotorcycleRecalls, error) {
	return getRecord[MotorcycleRecalls](ctx, c, motorcyclesPath, uuid, "/recalls", opts)
}

// Complaint is one owner's safety complaint to NHTSA.
type Complaint struct {
	ODINumber  int64    `json:"odi_number"`
	Components []string `json:"components"`
	Crash      bool     `json:"crash"`
	Fire       bool     `json:"fire"`
	Injuries   int      `json:"injuries"`
	Deaths     int      `json:"deaths"`
	// IncidentDate and ReceivedDate are YYYY-MM-DD; nil when unknown.
	IncidentDate *string `json:"incident_date"`
	ReceivedDate *string `json:"received_date"`
	Summary      *string `json:"summary"`
}

// ComponentCount is how many complaints name a component.
type ComponentCount struct {
	Component  string `json:"component"`
	Complaints int    `json:"complaints"`
}

// ComplaintTotals sum a vehicle's complaints over all pages.
type ComplaintTotals struct {
	Complaints int `json:"complaints"`
	Crashes    int `json:"crashes"`
	Fires      int `json:"fires"`
	Injuries   int `json:"injuries"`
	Deaths     int `json:"deaths"`
}

// Complaints is a page of a car's or motorcycle's complaints, with totals
// and counts by component over all of them.
type Complaints struct {
	Vehicle     MotorcycleRef    `json:"vehicle"`
	Coverage    string           `json:"coverage"`
	Complaints  []Complaint      `json:"complaints"`
	Meta        Meta             `json:"meta"`
	Totals      ComplaintTotals  `json:"totals"`
	ByComponent []ComponentCount `json:"by_component"`
	Source      string           `json:"source"`
	DataDate    string           `json:"data_date"`
	Stale       bool             `json:"stale"`
	FetchedAt   time.Time        `json:"fetched_at"`
}

// CarComplaints returns a page of a car's complaints; page and perPage 0
// take the server's defaults (GET /v1/cars/{uuid}/complaints).
func (c *Client) CarComplaints(ctx context.Context, uuid string, page, perPage int, opts ...CallOption) (*Complaints, error) {
	return complaints(ctx, c, carsPath, uuid, page, perPage, opts)
}

// MotorcycleComplaints returns a page of a motorcycle's complaints (GET /v1/motorcycles/{uuid}/complaints).
func (c *Client) MotorcycleComplaints(ctx context.Context, uuid string, page, perPage int, opts ...CallOption) (*Complaints, error) {
	return complaints(ctx, c, motorcyclesPath, uuid, page, perPage, opts)
}

func complaints(ctx context.Context, c *Client, collection, uuid string, page, perPage int, opts []CallOption) (*Complaints, error) {
	path, err := recordPath(collection, uuid, "/complaints")
	if err != nil {
		return nil, err
	}
	v := url.Values{}
	setInt(v, "page", page)
	setInt(v, "per_page", perPage)
	return getPtr[Complaints](ctx, c, path, v, opts)
}

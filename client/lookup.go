package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// This file covers the endpoints that reach NHTSA through the server: VIN
// decoding and recalls. Their answers can be served from the server's cache
// after NHTSA failed; Stale then says so and FetchedAt how old they are.

// ErrInvalidVIN is returned, without a request being made, when a VIN is
// empty or holds anything but ASCII letters and digits. The server checks
// the rest (length, the letters I, O and Q) and answers invalid_vin; this
// check only keeps a value such as "../me" from addressing another
// endpoint.
var ErrInvalidVIN = errors.New("vds: a VIN is 17 letters and digits")

// WMI is what the first three characters of a VIN say: the world
// manufacturer identifier and where it was assigned.
type WMI struct {
	Code    string `json:"code"`
	Region  string `json:"region"`
	Country string `json:"country"`
}

// VINEngine is the engine vPIC reports for a VIN; each field is nil when
// vPIC does not know it.
type VINEngine struct {
	Cylinders     *int     `json:"cylinders"`
	DisplacementL *float64 `json:"displacement_l"`
	FuelType      *string  `json:"fuel_type"`
	PowerHP       *float64 `json:"power_hp"`
}

// VINPlant is where the vehicle was assembled, as vPIC reports it.
type VINPlant struct {
	City    *string `json:"city"`
	State   *string `json:"state"`
	Country *string `json:"country"`
}

// CheckDigit is the server's verdict on the check digit in position 9.
type CheckDigit struct {
	// Expected is the digit computed from the other 16 characters, "0"-"9"
	// or "X".
	Expected string `json:"expected"`
	// Found is the character in position 9.
	Found string `json:"found"`
	// Valid is true when Found equals Expected.
	Valid bool `json:"valid"`
	// Advisory is true outside North America, where position 9 is free for
	// the maker's use: a mismatch there is not an error.
	Advisory bool `json:"advisory"`
}

// VINLinks are the catalog records of the decoded make, model and year,
// to follow with GetCar, CarTireSizes, CarRecalls or GetTireSize.
type VINLinks struct {
	Cars      []string `json:"cars"`
	TireSizes []string `json:"tire_sizes"`
}

// VINReport is the answer of GET /v1/vin/{vin}: the local checks of the
// VIN, NHTSA vPIC's decoding, and links into the catalog.
type VINReport struct {
	// VIN is the normalised (upper-case) VIN.
	VIN string `json:"vin"`
	// Make is vPIC's make in the catalog's spelling when the catalog has it.
	Make         *string   `json:"make"`
	Model        *string   `json:"model"`
	ModelYear    *int      `json:"model_year"`
	Trim         *string   `json:"trim"`
	BodyClass    *string   `json:"body_class"`
	VehicleType  *string   `json:"vehicle_type"`
	Manufacturer *string   `json:"manufacturer"`
	Engine       VINEngine `json:"engine"`
	Plant        VINPlant  `json:"plant"`
	// CheckDigit, ModelYearCandidates and WMI are computed by the server
	// from the VIN alone, whatever vPIC says.
	CheckDigit          CheckDigit `json:"check_digit"`
	ModelYearCandidates []int      `json:"model_year_candidates"`
	WMI                 WMI        `json:"wmi"`
	// ErrorCodes and ErrorText are vPIC's own, passed through.
	ErrorCodes []string `json:"error_codes"`
	ErrorText  *string  `json:"error_text"`
	Links      VINLinks `json:"links"`
	// Source names the upstream, "NHTSA vPIC".
	Source string `json:"source"`
	// Stale is true when vPIC failed and an expired cached answer was used.
	Stale     bool      `json:"stale"`
	FetchedAt time.Time `json:"fetched_at"`
}

// Recall is one NHTSA recall campaign. The text fields are nil when NHTSA
// leaves them empty.
type Recall struct {
	CampaignNumber string  `json:"campaign_number"`
	Manufacturer   *string `json:"manufacturer"`
	Component      *string `json:"component"`
	Summary        *string `json:"summary"`
	Consequence    *string `json:"consequence"`
	Remedy         *string `json:"remedy"`
	Notes          *string `json:"notes"`
	// ReportDate is when NHTSA received the report, "YYYY-MM-DD".
	ReportDate *string `json:"report_date"`
	// ParkIt: NHTSA advises not to drive the vehicle until repaired.
	ParkIt bool `json:"park_it"`
	// ParkOutside: NHTSA advises parking outside (fire risk).
	ParkOutside bool `json:"park_outside"`
	// OTAUpdate: the remedy is an over-the-air software update.
	OTAUpdate bool `json:"ota_update"`
}

// Rating is the NCAP crash rating of one vehicle variant, in stars (1-5);
// a nil rating was not tested.
type Rating struct {
	VehicleID   int     `json:"vehicle_id"`
	Description *string `json:"description"`
	Overall     *int    `json:"overall"`
	Front       *int    `json:"front"`
	Side        *int    `json:"side"`
	Rollover    *int    `json:"rollover"`
}

// CarRecalls is the answer of GET /v1/cars/{uuid}/recalls: the car's
// recall campaigns and NCAP ratings.
type CarRecalls struct {
	Car CarRef `json:"car"`
	// Coverage says where the data comes from, e.g. "US (NHTSA)".
	Coverage  string    `json:"coverage"`
	Recalls   []Recall  `json:"recalls"`
	Ratings   []Rating  `json:"ratings"`
	Stale     bool      `json:"stale"`
	FetchedAt time.Time `json:"fetched_at"`
}

// MotorcycleRef identifies the record a motorcycle recall lookup was made
// for.
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
	// Note qualifies an empty list: NHTSA matching is by name, so no
	// match is not a guarantee of no recall.
	Note      string    `json:"note"`
	Recalls   []Recall  `json:"recalls"`
	Stale     bool      `json:"stale"`
	FetchedAt time.Time `json:"fetched_at"`
}

// DecodeVIN decodes a VIN with NHTSA vPIC through the server and links it
// to catalog records (GET /v1/vin/{vin}). A malformed VIN is an
// invalid_vin *APIError (not charged); one whose manufacturer nobody knows
// is a 422 vin_not_decodable.
func (c *Client) DecodeVIN(ctx context.Context, vin string, opts ...CallOption) (*VINReport, error) {
	vin = strings.TrimSpace(vin)
	if !vinPathSafe(vin) {
		return nil, fmt.Errorf("%w: %q", ErrInvalidVIN, vin)
	}
	return getPtr[VINReport](ctx, c, apiPrefix+"/vin/"+vin, nil, opts)
}

// vinPathSafe accepts non-empty ASCII letters and digits: nothing that
// could leave the path segment.
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

// CarRecalls returns a car's NHTSA recall campaigns and NCAP ratings
// (GET /v1/cars/{uuid}/recalls).
func (c *Client) CarRecalls(ctx context.Context, uuid string, opts ...CallOption) (*CarRecalls, error) {
	return getRecord[CarRecalls](ctx, c, carsPath, uuid, "/recalls", opts)
}

// MotorcycleRecalls returns a motorcycle-dataset record's NHTSA recall
// campaigns (GET /v1/motorcycles/{uuid}/recalls).
func (c *Client) MotorcycleRecalls(ctx context.Context, uuid string, opts ...CallOption) (*MotorcycleRecalls, error) {
	return getRecord[MotorcycleRecalls](ctx, c, motorcyclesPath, uuid, "/recalls", opts)
}

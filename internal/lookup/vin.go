package lookup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/vin"
	"golang.org/x/sync/errgroup"
)

// WMI is what the VIN's first three characters say.
type WMI struct {
	Code    string  `json:"code" jsonschema:"The world manufacturer identifier: the VIN's first three characters."`
	Region  *string `json:"region" jsonschema:"The region of the WMI's first character; null when no region is assigned it."`
	Country *string `json:"country" jsonschema:"The country the WMI's first two characters are assigned; null when none is."`
}

// Checks is what vds computes from a VIN without asking anyone; a report
// and the problem of a VIN nobody could decode both carry it.
type Checks struct {
	CheckDigit          vin.CheckDigit
	WMI                 WMI
	ModelYearCandidates []int
}

func checksOf(local vin.Decoded) Checks {
	return Checks{CheckDigit: local.CheckDigit, ModelYearCandidates: local.ModelYears,
		WMI: WMI{Code: local.WMI, Region: known(local.Region), Country: known(local.Country)}}
}

// vehicleType spells vPIC's vehicle type as its live decode does ("TRUCK"),
// whether it came from there, from the snapshot ("Truck") or with vPIC's
// trailing spaces.
func vehicleType(s *string) *string {
	if s == nil {
		return nil
	}
	return known(strings.ToUpper(strings.TrimSpace(*s)))
}

// known is s, or nil for "" (unknown).
func known(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// VINError is a well-formed VIN that could not be decoded: Err says why
// (vin_not_decodable or an upstream code), Checks what is known anyway.
type VINError struct {
	Err    *vehicle.Error
	Checks Checks
}

func (e *VINError) Error() string { return e.Err.Error() }
func (e *VINError) Unwrap() error { return e.Err }

// VINReport is the answer of a VIN decode; body_class is vPIC's wording.
type VINReport struct {
	VIN string `json:"vin" jsonschema:"The VIN as decoded, upper-cased."`
	// Make is vPIC's make in the catalog's spelling when the catalog has it.
	Make  *string `json:"make" jsonschema:"vPIC's make, in the catalog's spelling when the catalog has it; null when not decoded."`
	Model *string `json:"model" jsonschema:"vPIC's model; null when not decoded."`
	Year  *int    `json:"year" jsonschema:"The model year vPIC decodes (position 10, disambiguated by position 7 and the manufacturer's schemas)."`
	Trim  *string `json:"trim" jsonschema:"vPIC's trim; null when vPIC gives none."`
	// Series is vPIC's series (F-150's "XLT" may be a trim or a series, by maker).
	Series    *string `json:"series" jsonschema:"vPIC's series (a maker may put XLT in the series rather than the trim); null when none."`
	Body      *string `json:"body" jsonschema:"Body type in the catalog's vocabulary (Sedan, Coupe, Hatchback, Wagon, Convertible, SUV, Pickup, Minivan, Van); null when vPIC's body class has no counterpart."`
	BodyClass *string `json:"body_class" jsonschema:"vPIC's body class, as vPIC words it."`
	Doors     *int    `json:"doors" jsonschema:"Number of doors; null when vPIC gives none."`
	// VehicleType is vPIC's, as its VIN decode spells it whatever the
	// source: upper case, trimmed (PASSENGER CAR, TRUCK, MOTORCYCLE ...).
	VehicleType  *string         `json:"vehicle_type" jsonschema:"vPIC's vehicle type, e.g. PASSENGER CAR, TRUCK, MULTIPURPOSE PASSENGER VEHICLE (MPV) or MOTORCYCLE; null when unknown."`
	Manufacturer *string         `json:"manufacturer" jsonschema:"vPIC's manufacturer name, e.g. FORD MOTOR COMPANY, USA; null when unknown."`
	Engine       upstream.Engine `json:"engine" jsonschema:"The engine as vPIC decodes it."`
	Plant        upstream.Plant  `json:"plant" jsonschema:"The assembly plant as vPIC decodes it."`
	// Computed locally, before and whatever the decoder says.
	CheckDigit          vin.CheckDigit `json:"check_digit" jsonschema:"The check digit (position 9) verdict, computed locally."`
	ModelYearCandidates []int          `json:"model_year_candidates" jsonschema:"The model years position 10 can mean, computed locally."`
	WMI                 WMI            `json:"wmi" jsonschema:"The manufacturer code with its region and country, computed locally."`
	// vPIC's own error codes and text, passed through.
	ErrorCodes []string `json:"error_codes" jsonschema:"vPIC's error codes, passed through: 0 is a clean decode, 1 a check-digit error; never empty."`
	ErrorText  *string  `json:"error_text" jsonschema:"vPIC's error text, passed through; null when none."`
	// Links are the catalog cars and tire fitments of the same make, model
	// and year, for follow-up spec, recall and geometry calls.
	Links vehicle.Links `json:"links" jsonschema:"Catalog records of the decoded make, model and year, for follow-up spec, recall and geometry calls."`
	// Source names the decoder: "vPIC snapshot 2026-02-17" or "NHTSA vPIC".
	Source    string    `json:"source" jsonschema:"Where the answer came from: the imported vPIC snapshot (named by the date of its NHTSA data) or live NHTSA vPIC."`
	Stale     bool      `json:"stale" jsonschema:"True when the live decoder failed and an expired cached answer is served (with a Warning header)."`
	FetchedAt time.Time `json:"fetched_at" jsonschema:"When the decode was made or fetched (UTC)."`
}

// bodies maps vPIC's body classes onto the catalog's body types.
var bodies = map[string]string{
	"Convertible/Cabriolet":        "Convertible",
	"Roadster":                     "Convertible",
	"Minivan":                      "Minivan",
	"Coupe":                        "Coupe",
	"Hatchback/Liftback/Notchback": "Hatchback",
	"Sport Utility Vehicle (SUV)/Multi-Purpose Vehicle (MPV)": "SUV",
	"Crossover Utility Vehicle (CUV)":                         "SUV",
	"Van":                                                     "Van",
	"Cargo Van":                                               "Van",
	"Pickup":                                                  "Pickup",
	"Sport Utility Truck (SUT)":                               "Pickup",
	"Sedan/Saloon":                                            "Sedan",
	"Wagon":                                                   "Wagon",
}

func bodyOf(bodyClass *string) *string {
	if bodyClass == nil {
		return nil
	}
	if b, ok := bodies[*bodyClass]; ok {
		return &b
	}
	return nil
}

// fuels maps vPIC's primary fuel types onto the catalog's.
var fuels = map[string]string{
	"Gasoline":                     catalog.FuelGasoline,
	"Diesel":                       catalog.FuelDiesel,
	"Electric":                     catalog.FuelBEV,
	"Flexible Fuel Vehicle (FFV)":  catalog.FuelFlex,
	"Fuel Cell":                    catalog.FuelFCEV,
	"Hydrogen":                     catalog.FuelFCEV,
	"Compressed Natural Gas (CNG)": catalog.FuelCNG,
	"Liquefied Petroleum Gas (propane or LPG)": catalog.FuelLPG,
}

// decoded is what r says to rank its linked cars by.
func decoded(r VINReport) vehicle.Decoded {
	d := vehicle.Decoded{DisplacementL: catalog.OptOf(r.Engine.DisplacementL), Cylinders: catalog.OptOf(r.Engine.Cylinders)}
	if r.VehicleType != nil {
		d.VehicleType = *r.VehicleType
	}
	if r.Body != nil {
		d.Body = *r.Body
	}
	if r.Engine.FuelType != nil {
		d.FuelType = fuels[*r.Engine.FuelType]
	}
	for _, t := range []*string{r.Trim, r.Series} {
		if t != nil {
			d.Trims = append(d.Trims, *t)
		}
	}
	return d
}

// DecodeVIN validates and decodes a VIN; one nobody can decode is a
// *VINError that carries the local checks.
func (s *Service) DecodeVIN(ctx context.Context, raw string) (VINReport, upstream.Meta, error) {
	local, err := vin.Decode(raw)
	if err != nil {
		return VINReport{}, upstream.Meta{}, invalidVIN(err)
	}
	return s.decodeValid(ctx, local)
}

func invalidVIN(err error) *vehicle.Error {
	return &vehicle.Error{Code: CodeInvalidVIN, Param: "vin", Message: err.Error() + "."}
}

func (s *Service) decodeValid(ctx context.Context, local vin.Decoded) (VINReport, upstream.Meta, error) {
	res, meta, source, err := s.decode(ctx, local.VIN)
	var ve *vehicle.Error
	switch {
	case errors.As(err, &ve):
	case err != nil:
		ve = upstreamError("NHTSA vPIC", err)
	case !res.Identified():
		ve = &vehicle.Error{Code: CodeVINNotDecodable, Param: "vin",
			Message: source + " does not know the manufacturer of " + local.VIN + "; check the VIN for typos."}
	}
	checks := checksOf(local)
	if ve != nil {
		return VINReport{}, meta, &VINError{Err: ve, Checks: checks}
	}
	r := VINReport{
		VIN: local.VIN, Make: res.Make, Model: res.Model, Year: res.ModelYear, Trim: res.Trim, Series: res.Series,
		Body: bodyOf(res.BodyClass), BodyClass: res.BodyClass, Doors: res.Doors,
		VehicleType: vehicleType(res.VehicleType), Manufacturer: res.Manufacturer, Engine: res.Engine, Plant: res.Plant,
		CheckDigit: checks.CheckDigit, ModelYearCandidates: checks.ModelYearCandidates, WMI: checks.WMI,
		ErrorCodes: res.ErrorCodes, ErrorText: res.ErrorText,
		Links:  vehicle.NoLinks(),
		Source: source, Stale: meta.Stale, FetchedAt: meta.FetchedAt,
	}
	if r.Make != nil {
		name, ok := s.vehicles.CanonicalMake(*r.Make)
		if !ok && source == "NHTSA vPIC" {
			name = titleCase(*r.Make)
		} else if !ok {
			name = *r.Make // the snapshot's names are already cased
		}
		r.Make = &name
	}
	year := 0
	if r.Year != nil {
		year = *r.Year
	} else if len(r.ModelYearCandidates) > 0 {
		year = r.ModelYearCandidates[0]
	}
	if r.Make != nil && r.Model != nil && year > 0 {
		r.Links = s.vehicles.Links(*r.Make, *r.Model, year, decoded(r))
	}
	return r, meta, nil
}

// MaxBatch is how many VINs one batch call decodes.
const MaxBatch = 50

// Meter charges the caller's quota. Charge reserves one unit, or fails
// with a *limits.Refusal when none is left; settle(true) charges it,
// settle(false) gives it back, and only the first settle counts. Ready
// fails as Charge would, taking no unit.
type Meter struct {
	Ready  func(ctx context.Context) error
	Charge func(ctx context.Context) (settle func(charged bool), err error)
}

// VINEntry is one VIN of a batch: its report, or why it has none.
type VINEntry struct {
	VIN    string
	Report *VINReport
	// Err is set when Report is nil.
	Err *vehicle.Error
}

// VINFailure is the JSON of a batch entry without a report.
type VINFailure struct {
	VIN   string     `json:"vin" jsonschema:"The VIN as sent, trimmed and upper-cased."`
	Error EntryError `json:"error" jsonschema:"Why the VIN has no report."`
}

// SchemaDescription describes VINFailure in the API's schemas.
func (VINFailure) SchemaDescription() string {
	return "A VIN of a batch that was not decoded, and why: invalid_vin, vin_not_decodable, an upstream code, or " +
		"quota_exceeded / rate_limited for the VINs past the point the quota ran out (not charged)."
}

// EntryError says why a batch entry has no report.
type EntryError struct {
	Code   string `json:"code" jsonschema:"The problem code the single-VIN endpoint would answer with."`
	Detail string `json:"detail" jsonschema:"A human-readable explanation."`
}

func (EntryError) SchemaEnums() map[string][]string {
	return map[string][]string{"code": {CodeInvalidVIN, CodeVINNotDecodable, CodeUpstreamError, CodeUpstreamUnavailable,
		limits.CodeQuotaExceeded, limits.CodeRateLimited}}
}

// MarshalJSON writes the report, or the VINFailure.
func (e VINEntry) MarshalJSON() ([]byte, error) {
	if e.Report != nil {
		return json.Marshal(e.Report)
	}
	return json.Marshal(VINFailure{VIN: e.VIN, Error: EntryError{Code: e.Err.Code, Detail: e.Err.Message}})
}

// DecodeEntry decodes one VIN as a batch entry, for callers that stream
// many; the error is for failures that are not the VIN's (a broken store).
func (s *Service) DecodeEntry(ctx context.Context, raw string) (VINEntry, error) {
	r, _, err := s.DecodeVIN(ctx, raw)
	var ve *vehicle.Error
	switch {
	case err == nil:
		return VINEntry{VIN: r.VIN, Report: &r}, nil
	case errors.As(err, &ve):
		return VINEntry{VIN: vin.Normalize(raw), Err: ve}, nil
	}
	return VINEntry{}, err
}

// chargeEach charges n items in order through meter (nil: free) and
// returns how many it charged, and the refusal that stopped the rest. A
// refusal of the first item, or any other failure, is the error, and then
// nothing is charged.
func chargeEach(ctx context.Context, meter *Meter, n int) (int, *limits.Refusal, error) {
	if meter == nil {
		return n, nil, nil
	}
	var settles []func(bool)
	settleAll := func(charged bool) {
		for _, settle := range settles {
			settle(charged)
		}
	}
	for range n {
		settle, err := meter.Charge(ctx)
		var refused *limits.Refusal
		if errors.As(err, &refused) && len(settles) > 0 {
			settleAll(true)
			return len(settles), refused, nil
		}
		if err != nil {
			settleAll(false)
			return 0, nil, err
		}
		settles = append(settles, settle)
	}
	settleAll(true)
	return n, nil, nil
}

// decodeParallelism bounds the decodes a batch runs at once: live vPIC
// answers in tens of milliseconds, the snapshot in microseconds.
const decodeParallelism = 8

// DecodeVINs decodes up to MaxBatch VINs, one entry per VIN in order.
// Each distinct well-formed VIN is decoded once, then meter (nil: free)
// charges the decoded ones in order: a VIN that costs nothing (invalid,
// undecodable) never holds a unit another needs. A quota spent before the
// decoding, or when the first decoded VIN is charged, is the error; past
// the first, the VINs the meter refused carry its code. The meta is stale
// when any answer was.
func (s *Service) DecodeVINs(ctx context.Context, raws []string, meter *Meter) ([]VINEntry, upstream.Meta, error) {
	if len(raws) > MaxBatch {
		return nil, upstream.Meta{}, &vehicle.Error{Code: vehicle.CodeInvalidParameter, Param: "vin",
			Message: fmt.Sprintf("%d VINs given; a batch decodes at most %d, so split the list.", len(raws), MaxBatch)}
	}
	entries := make([]VINEntry, len(raws))
	type job struct {
		local   vin.Decoded
		rep     VINReport
		meta    upstream.Meta
		err     error
		charged bool
	}
	var jobs []*job
	byVIN := map[string]*job{}
	for i, raw := range raws {
		local, err := vin.Decode(raw)
		if err != nil {
			entries[i] = VINEntry{VIN: vin.Normalize(raw), Err: invalidVIN(err)}
			continue
		}
		entries[i].VIN = local.VIN
		if _, ok := byVIN[local.VIN]; !ok {
			j := &job{local: local}
			byVIN[local.VIN] = j
			jobs = append(jobs, j)
		}
	}
	if meter != nil && len(jobs) > 0 {
		if err := meter.Ready(ctx); err != nil {
			return nil, upstream.Meta{}, err
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(decodeParallelism)
	for _, j := range jobs {
		g.Go(func() error {
			j.rep, j.meta, j.err = s.decodeValid(gctx, j.local)
			var ve *VINError
			if j.err != nil && !errors.As(j.err, &ve) {
				return j.err
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, upstream.Meta{}, err
	}

	var decoded []*job
	for _, j := range jobs {
		if j.err == nil {
			decoded = append(decoded, j)
		}
	}
	n, refused, err := chargeEach(ctx, meter, len(decoded))
	if err != nil {
		return nil, upstream.Meta{}, err
	}
	for _, j := range decoded[:n] {
		j.charged = true
	}

	var meta upstream.Meta
	for i := range entries {
		if entries[i].Err != nil {
			continue
		}
		j := byVIN[entries[i].VIN]
		var ve *VINError
		switch {
		case errors.As(j.err, &ve):
			entries[i].Err = ve.Err
		case !j.charged:
			entries[i].Err = &vehicle.Error{Code: refused.Reason, Message: "Not decoded and not charged: the " + refused.Error() + "."}
		default:
			entries[i].Report = &j.rep
			meta.Stale = meta.Stale || j.meta.Stale
			meta.FetchedAt = oldest(meta.FetchedAt, j.meta.FetchedAt)
		}
	}
	return entries, meta, nil
}

// ListDecode decodes a VIN to save in a list: its make, model, year and
// catalog cars. An invalid VIN's error is the local check's reason.
func (s *Service) ListDecode(ctx context.Context, raw string) (string, account.VINDecode, error) {
	r, _, err := s.DecodeVIN(ctx, raw)
	if err != nil {
		return "", account.VINDecode{}, err
	}
	d := account.VINDecode{Make: r.Make, Model: r.Model, Year: r.Year, Cars: r.Links.Cars, Motorcycles: r.Links.Motorcycles}
	if d.Year == nil && len(r.ModelYearCandidates) > 0 {
		d.Year = &r.ModelYearCandidates[0]
	}
	return r.VIN, d, nil
}

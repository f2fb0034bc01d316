package client

import "time"

// This file holds the wire types: the JSON the server encodes, field for
// field. Nullable values are pointers so that "not known" (null) stays
// distinct from zero; record uuids are plain strings because the SDK has no
// reason to force a UUID dependency on its users.

// FuelEconomy holds the EPA enrichment of a car. Every field is null until
// the operator runs the enrich job, and stays null for cars EPA does not list.
type FuelEconomy struct {
	MPGCity        *float64 `json:"mpg_city"`
	MPGHighway     *float64 `json:"mpg_highway"`
	MPGCombined    *float64 `json:"mpg_combined"`
	EPARangeMiles  *int     `json:"epa_range_miles"`
	AnnualFuelCost *int     `json:"annual_fuel_cost"`
	CO2GPM         *float64 `json:"co2_gpm"`
}

// Car is a passenger car or light truck. The fuel-economy fields are
// embedded so they encode flat, as the server sends them.
type Car struct {
	UUID          string   `json:"uuid"`
	Make          string   `json:"make"`
	Model         string   `json:"model"`
	Year          int      `json:"year"`
	Trim          string   `json:"trim"`
	Body          string   `json:"body"`
	FuelType      string   `json:"fuel_type"`
	DriveType     string   `json:"drive_type"`
	Transmission  string   `json:"transmission"`
	DisplacementL *float64 `json:"displacement_l"`
	Cylinders     *int     `json:"cylinders"`
	// Engine is a display label derived from fuel type, displacement and
	// cylinders, e.g. "2.5L 4-cyl hybrid".
	Engine string `json:"engine"`
	FuelEconomy
	// Electrified is true for BEV, PHEV and HEV: the set ev_only selects.
	Electrified bool `json:"electrified"`
}

// Motorcycle is a record of the motorcycle dataset, which also holds ATVs,
// UTVs, snowmobiles, scooters, personal watercraft and golf carts.
type Motorcycle struct {
	UUID  string `json:"uuid"`
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
	// MotorcycleType is the riding type, e.g. "Street Motorcycle", "UTV / SXS".
	MotorcycleType string `json:"motorcycle_type"`
	// VehicleType is the broad class: "Motorcycle" or "ATV/UTV".
	VehicleType    string   `json:"vehicle_type"`
	DisplacementCC *int     `json:"displacement_cc"`
	EngineType     string   `json:"engine_type"`
	PowerHP        *float64 `json:"power_hp"`
}

// Boat is a power boat.
type Boat struct {
	UUID  string `json:"uuid"`
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
	// ModelType is the vessel category, e.g. "Center Console".
	ModelType    string  `json:"model_type"`
	LengthFt     float64 `json:"length_ft"`
	BeamFt       float64 `json:"beam_ft"`
	DryWeightLbs int     `json:"dry_weight_lbs"`
	EngineCount  int     `json:"engine_count"`
	HP           int     `json:"hp"`
	// HullType is the hull material, e.g. "Fiberglass".
	HullType string `json:"hull_type"`
	FuelType string `json:"fuel_type"`
}

// TireFitment maps a vehicle to its OEM tire size and alternate sizes.
type TireFitment struct {
	UUID     string `json:"uuid"`
	Make     string `json:"make"`
	Model    string `json:"model"`
	Year     int    `json:"year"`
	Trim     string `json:"trim"`
	TireSize string `json:"tire_size"`
	// RearTireSize is set for staggered fitments only.
	RearTireSize   *string  `json:"rear_tire_size"`
	AlternateSizes []string `json:"alternate_sizes"`
}

// Meta is the pagination metadata of a list response.
type Meta struct {
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	// Total counts all matches, including those paging cannot reach.
	Total int `json:"total"`
	// TotalPages is ceil(Total/PerPage).
	TotalPages int `json:"total_pages"`
	// MaxPage is the last page that can be requested: at most 40.
	MaxPage int `json:"max_page"`
	// Truncated is true when more records match than paging can reach
	// (400): narrow the query to see the rest.
	Truncated bool `json:"truncated"`
}

// MakeCount is one make with its record count (the /{type}/makes entries).
type MakeCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// ModelRange is one model of a make with its record count and model-year
// range (the /{type}/models entries).
type ModelRange struct {
	Name    string `json:"name"`
	Count   int    `json:"count"`
	YearMin int    `json:"year_min"`
	YearMax int    `json:"year_max"`
}

// NameCount is a car body type or boat hull type with its record count.
// Known types are listed even when their count is 0.
type NameCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// TypeCount is a motorcycle riding type with its vehicle class and count.
type TypeCount struct {
	Name        string `json:"name"`
	VehicleType string `json:"vehicle_type"`
	Count       int    `json:"count"`
}

// SizeGeometry is the geometry of one tire size: millimetres to one
// decimal, inches to two, revolutions per mile to one.
type SizeGeometry struct {
	Size            string  `json:"size"`
	WidthMM         float64 `json:"width_mm"`
	WidthIn         float64 `json:"width_in"`
	SidewallMM      float64 `json:"sidewall_mm"`
	SidewallIn      float64 `json:"sidewall_in"`
	DiameterIn      float64 `json:"diameter_in"`
	DiameterMM      float64 `json:"diameter_mm"`
	CircumferenceIn float64 `json:"circumference_in"`
	CircumferenceMM float64 `json:"circumference_mm"`
	RevsPerMile     float64 `json:"revs_per_mile"`
}

// AlternateGeometry is an alternate size's geometry and how its overall
// diameter differs from the OEM size's.
type AlternateGeometry struct {
	SizeGeometry
	// DiameterDiffIn is the alternate's diameter minus the OEM's, in inches.
	DiameterDiffIn float64 `json:"diameter_diff_in"`
	// DiameterDiffPct is that difference in percent of the OEM diameter.
	DiameterDiffPct float64 `json:"diameter_diff_pct"`
	// WithinWindow reports |DiameterDiffPct| <= WindowPct, judged by the
	// server on the unrounded difference (so trust it over recomputing).
	WithinWindow bool `json:"within_window"`
}

// FitmentGeometry is the geometry of a fitment's OEM size, its rear size
// when staggered, and each alternate compared with the OEM size.
type FitmentGeometry struct {
	Fitment TireFitment  `json:"fitment"`
	OEM     SizeGeometry `json:"oem"`
	// Rear is nil unless the fitment is staggered.
	Rear       *SizeGeometry       `json:"rear"`
	Alternates []AlternateGeometry `json:"alternates"`
	// WindowPct is the accepted fitment window, ± percent of OEM diameter.
	WindowPct float64 `json:"window_pct"`
}

// Tire match kinds: which fitments a tire lookup returned.
const (
	// MatchExactYear means the fitments are of the vehicle's own model year.
	MatchExactYear = "exact_year"
	// MatchNearestYear means none were of its year, so those of the closest
	// year(s) are returned.
	MatchNearestYear = "nearest_year"
	// MatchNone means the catalog has no fitment of the make and model.
	MatchNone = "none"
)

// CarRef identifies the car a tire lookup was made for.
type CarRef struct {
	UUID  string `json:"uuid"`
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
	Trim  string `json:"trim"`
}

// CarTires is the answer of /cars/{uuid}/tire-sizes.
type CarTires struct {
	Car CarRef `json:"car"`
	// Match is MatchExactYear, MatchNearestYear or MatchNone.
	Match    string            `json:"match"`
	Fitments []FitmentGeometry `json:"fitments"`
}

// VehicleTires is the answer of a make/model/year tire lookup (the
// tire_sizes_for_vehicle agent tool): CarTires without the car.
type VehicleTires struct {
	Match    string            `json:"match"`
	Fitments []FitmentGeometry `json:"fitments"`
}

// Me is the body of /me: who the token belongs to, its plan and usage.
type Me struct {
	Account   MeAccount   `json:"account"`
	Plan      Plan        `json:"plan"`
	RateLimit RateWindow  `json:"rate_limit"`
	Quota     QuotaWindow `json:"quota"`
	Token     MeToken     `json:"token"`
}

// MeAccount identifies the account.
type MeAccount struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
}

// Plan is the account's plan. A limit of 0 means unlimited.
type Plan struct {
	Name          string `json:"name"`
	RatePerMinute int    `json:"rate_per_minute"`
	MonthlyQuota  int    `json:"monthly_quota"`
	APIAccess     bool   `json:"api_access"`
}

// MeToken identifies the token the request used.
type MeToken struct {
	ID     string   `json:"id"`
	Scopes []string `json:"scopes"`
}

// RateWindow is the per-minute rate window. Limit and Remaining are nil
// when the plan has no rate limit.
type RateWindow struct {
	Limit     *int      `json:"limit"`
	Remaining *int      `json:"remaining"`
	Reset     time.Time `json:"reset"`
}

// QuotaWindow is the monthly quota (calendar month, UTC). Limit and
// Remaining are nil when the plan's quota is unlimited.
type QuotaWindow struct {
	// Period names the month, e.g. "2026-11".
	Period    string    `json:"period"`
	Limit     *int      `json:"limit"`
	Used      int64     `json:"used"`
	Remaining *int64    `json:"remaining"`
	Reset     time.Time `json:"reset"`
}

// List is one of the user's saved vehicle lists.
type List struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	IsDefault bool       `json:"is_default"`
	CreatedAt time.Time  `json:"created_at"`
	Items     []ListItem `json:"items"`
}

// ListItem is a saved record with a summary of it. Record is nil and
// Missing true when the record has left the catalog: the server keeps the
// item rather than dropping what the user saved.
type ListItem struct {
	// Type is the record kind: "car", "motorcycle", "boat" or "tire_size".
	Type    Kind       `json:"type"`
	UUID    string     `json:"uuid"`
	Note    string     `json:"note"`
	AddedAt time.Time  `json:"added_at"`
	Missing bool       `json:"missing"`
	Record  *RecordRef `json:"record"`
}

// RecordRef summarises a catalog record.
type RecordRef struct {
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
}

// ChangelogEntry is one release of the API.
type ChangelogEntry struct {
	Version string `json:"version"`
	// Date is the release date, YYYY-MM-DD.
	Date    string   `json:"date"`
	Changes []string `json:"changes"`
}

// Problem is an RFC 9457 problem document with vds's extensions, as the
// server sends it on every error. The SDK turns it into an *APIError.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Instance  string `json:"instance"`
	Code      string `json:"code"`
	RequestID string `json:"request_id"`
	// Param names the offending query parameter, for 400s about one.
	Param string `json:"param,omitempty"`
	// Accepted lists the accepted parameters, for unknown_parameter.
	Accepted []string `json:"accepted,omitempty"`
	// AcceptedValues lists the values a filter (param) accepts, and
	// Suggestion the one closest to the value sent, for a value outside them.
	AcceptedValues []string `json:"accepted_values,omitempty"`
	Suggestion     string   `json:"suggestion,omitempty"`
	// Limit names the exhausted limit of a 429: "rate_per_minute" or
	// "monthly_quota".
	Limit string `json:"limit,omitempty"`
	// Reset is when that limit resets, RFC 3339.
	Reset string `json:"reset,omitempty"`
	// RetryAfter repeats the Retry-After header of a 429, in seconds.
	RetryAfter int `json:"retry_after,omitempty"`
}

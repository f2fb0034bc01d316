package client

import (
	"strconv"
	"time"
)

// Wire types: the server's JSON field for field. Nullable values are pointers
// (null stays apart from zero); uuids are strings, to spare users a dependency.

// FuelEconomy is a car's EPA enrichment; null until enriched, or when EPA lacks the car.
type FuelEconomy struct {
	// EPAID is the fueleconomy.gov vehicle id the figures come from.
	EPAID         *int     `json:"epa_id"`
	MPGCity       *float64 `json:"mpg_city"`
	MPGHighway    *float64 `json:"mpg_highway"`
	MPGCombined   *float64 `json:"mpg_combined"`
	EPARangeMiles *int     `json:"epa_range_miles"`
	// EPAElectricRangeMiles is a plug-in hybrid's range on electricity alone.
	EPAElectricRangeMiles *int     `json:"epa_electric_range_miles"`
	AnnualFuelCost        *int     `json:"annual_fuel_cost"`
	CO2GPM                *float64 `json:"co2_gpm"`
}

// Car is a passenger car or light truck; fuel economy is embedded to encode flat.
type Car struct {
	UUID          string   `json:"uuid"`
	Make          string   `json:"make"`
	Model         string   `json:"model"`
	SourceModel   string   `json:"source_model"`
	Year          int      `json:"year"`
	Trim          string   `json:"trim"`
	Body          string   `json:"body"`
	FuelType      string   `json:"fuel_type"`
	DriveType     string   `json:"drive_type"`
	Transmission  string   `json:"transmission"`
	DisplacementL *float64 `json:"displacement_l"`
	Cylinders     *int     `json:"cylinders"`
	// Engine is a display label such as "2.5L 4-cyl hybrid".
	Engine string `json:"engine"`
	FuelEconomy
	// Electrified (BEV, PHEV, HEV, FCEV) is the set ev_only selects.
	Electrified bool `json:"electrified"`
}

// Motorcycle is a record of the motorcycle dataset, ATVs, UTVs, scooters and the like included.
type Motorcycle struct {
	UUID           string `json:"uuid"`
	Make           string `json:"make"`
	Model          string `json:"model"`
	Year           int    `json:"year"`
	MotorcycleType string `json:"motorcycle_type"`
	// VehicleType is "Motorcycle", "ATV/UTV", "Snowmobile" or "Golf Cart / LSV".
	VehicleType    string   `json:"vehicle_type"`
	DisplacementCC *int     `json:"displacement_cc"`
	EngineType     string   `json:"engine_type"`
	PowerHP        *float64 `json:"power_hp"`
	BodyClass      string   `json:"body_class"`
	FuelType       string   `json:"fuel_type"`
	// Source is e.g. "vPIC snapshot 2026-02-17"; empty for the demo's records.
	Source string `json:"source"`
}

// Boat is a power boat.
type Boat struct {
	UUID         string  `json:"uuid"`
	Make         string  `json:"make"`
	Model        string  `json:"model"`
	Year         int     `json:"year"`
	ModelType    string  `json:"model_type"`
	LengthFt     float64 `json:"length_ft"`
	BeamFt       float64 `json:"beam_ft"`
	DryWeightLbs int     `json:"dry_weight_lbs"`
	EngineCount  int     `json:"engine_count"`
	HP           int     `json:"hp"`
	HullType     string  `json:"hull_type"`
	FuelType     string  `json:"fuel_type"`
}

// TireFitment maps a vehicle to its OEM tire sizes, in canonical form
// (225/45R17, LT285/70R17), and the alternate sizes that fit.
type TireFitment struct {
	UUID     string `json:"uuid"`
	Make     string `json:"make"`
	Model    string `json:"model"`
	Year     int    `json:"year"`
	Trim     string `json:"trim"`
	TireSize string `json:"tire_size"`
	// LoadIndex and SpeedRating describe the OEM tire (front when staggered).
	LoadIndex   *int    `json:"load_index"`
	SpeedRating *string `json:"speed_rating"`
	// RearTireSize, RearLoadIndex and RearSpeedRating: staggered fitments only.
	RearTireSize    *string `json:"rear_tire_size"`
	RearLoadIndex   *int    `json:"rear_load_index"`
	RearSpeedRating *string `json:"rear_speed_rating"`
	// AlternateSizes fit within ±3% of TireSize's diameter, and
	// RearAlternateSizes of RearTireSize's.
	AlternateSizes     []string `json:"alternate_sizes"`
	RearAlternateSizes []string `json:"rear_alternate_sizes"`
	WheelSpecs
}

// WheelSpecs are a fitment's wheel figures; each is nil when the catalog
// does not give it.
type WheelSpecs struct {
	BoltPattern   *string  `json:"bolt_pattern"`   // 5x114.3: lugs x pitch circle in mm
	CenterBoreMM  *float64 `json:"center_bore_mm"` // mm
	OffsetMinMM   *int     `json:"offset_min_mm"`  // ET, mm
	OffsetMaxMM   *int     `json:"offset_max_mm"`
	RimWidthMinIn *float64 `json:"rim_width_min_in"` // in
	RimWidthMaxIn *float64 `json:"rim_width_max_in"`
	LugThread     *string  `json:"lug_thread"`    // M12x1.5 or 1/2-20
	LugTorqueNM   *int     `json:"lug_torque_nm"` // N·m
	TPMS          *bool    `json:"tpms"`
}

// Known returns the specs that are set, as JSON field name and text, in
// field order; none for a fitment without them.
func (w WheelSpecs) Known() [][2]string {
	var out [][2]string
	add := func(name string, ok bool, text func() string) {
		if ok {
			out = append(out, [2]string{name, text()})
		}
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	add("bolt_pattern", w.BoltPattern != nil, func() string { return *w.BoltPattern })
	add("center_bore_mm", w.CenterBoreMM != nil, func() string { return num(*w.CenterBoreMM) })
	add("offset_min_mm", w.OffsetMinMM != nil, func() string { return strconv.Itoa(*w.OffsetMinMM) })
	add("offset_max_mm", w.OffsetMaxMM != nil, func() string { return strconv.Itoa(*w.OffsetMaxMM) })
	add("rim_width_min_in", w.RimWidthMinIn != nil, func() string { return num(*w.RimWidthMinIn) })
	add("rim_width_max_in", w.RimWidthMaxIn != nil, func() string { return num(*w.RimWidthMaxIn) })
	add("lug_thread", w.LugThread != nil, func() string { return *w.LugThread })
	add("lug_torque_nm", w.LugTorqueNM != nil, func() string { return strconv.Itoa(*w.LugTorqueNM) })
	add("tpms", w.TPMS != nil, func() string {
		if *w.TPMS {
			return "yes"
		}
		return "no"
	})
	return out
}

// RatedSize is a size with its load index and speed rating as a sidewall
// prints them ("265/70R17 115T"), or the size alone when both are unknown.
func RatedSize(size string, loadIndex *int, speedRating *string) string {
	r := ""
	if loadIndex != nil {
		r = strconv.Itoa(*loadIndex)
	}
	if speedRating != nil {
		r += *speedRating
	}
	if r == "" {
		return size
	}
	return size + " " + r
}

// Meta is the pagination metadata of a list response.
type Meta struct {
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	// Total counts all matches; Truncated says paging (at most MaxPage, 40) cannot reach them all.
	Total      int  `json:"total"`
	TotalPages int  `json:"total_pages"`
	MaxPage    int  `json:"max_page"`
	Truncated  bool `json:"truncated"`
	// Suggestions is set on an empty page whose make or model no record has.
	Suggestions []Suggestion `json:"suggestions,omitempty"`
}

// Suggestion is a make or model no record has, with the closest known names.
type Suggestion struct {
	Param string   `json:"param"`
	Value string   `json:"value"`
	Names []string `json:"names"`
}

// MakeCount is one make with its record count.
type MakeCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// ModelRange is one model of a make with its record count and model years.
type ModelRange struct {
	Name    string `json:"name"`
	Count   int    `json:"count"`
	YearMin int    `json:"year_min"`
	YearMax int    `json:"year_max"`
}

// NameCount is a car body or boat hull type with its record count (0 included).
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

// SizeGeometry is one size's geometry: mm to one decimal, inches to two.
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

// AlternateGeometry is an alternate size's geometry and its diameter difference from the OEM size.
type AlternateGeometry struct {
	SizeGeometry
	DiameterDiffIn  float64 `json:"diameter_diff_in"`
	DiameterDiffPct float64 `json:"diameter_diff_pct"`
	// WithinWindow is judged on the unrounded difference: trust it over recomputing.
	WithinWindow bool `json:"within_window"`
}

// FitmentGeometry is the geometry of a fitment's OEM, rear (nil unless
// staggered) and alternate sizes, each compared against ±WindowPct.
type FitmentGeometry struct {
	Fitment        TireFitment         `json:"fitment"`
	OEM            SizeGeometry        `json:"oem"`
	Rear           *SizeGeometry       `json:"rear"`
	Alternates     []AlternateGeometry `json:"alternates"`
	RearAlternates []AlternateGeometry `json:"rear_alternates"`
	WindowPct      float64             `json:"window_pct"`
}

// Tire match kinds: the vehicle's own model year, the nearest year, or none.
const (
	MatchExactYear   = "exact_year"
	MatchNearestYear = "nearest_year"
	MatchNone        = "none"
)

// CarRef identifies the car a tire lookup was made for.
type CarRef struct {
	UUID  string `json:"uuid"`
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
	Trim  string `json:"trim"`
}

// CarTires is the answer of /cars/{uuid}/tire-sizes; Match is a Match* constant.
type CarTires struct {
	Car      CarRef            `json:"car"`
	Match    string            `json:"match"`
	Fitments []FitmentGeometry `json:"fitments"`
}

// VehicleTires is CarTires without the car: a make/model/year tire lookup.
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

// Plan is the account's plan; a limit of 0 means unlimited.
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

// RateWindow is the per-minute window; nil Limit and Remaining: unlimited.
type RateWindow struct {
	Limit     *int      `json:"limit"`
	Remaining *int      `json:"remaining"`
	Reset     time.Time `json:"reset"`
}

// QuotaWindow is the monthly quota (UTC calendar month, Period "2026-11"); nil Limit: unlimited.
type QuotaWindow struct {
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

// ListItem is a saved record or VIN (Type KindVIN, VIN set, Record its
// decode, Links its catalog cars); Record is nil and Missing true once the
// record has left the catalog. Recalls is nil for boats and tire sizes.
type ListItem struct {
	Type    Kind          `json:"type"`
	UUID    string        `json:"uuid"`
	Note    string        `json:"note"`
	AddedAt time.Time     `json:"added_at"`
	Missing bool          `json:"missing"`
	VIN     *string       `json:"vin"`
	Record  *RecordRef    `json:"record"`
	Links   *ItemLinks    `json:"links"`
	Recalls *RecallStatus `json:"recalls"`
}

// ItemLinks are a saved VIN's catalog cars and motorcycles.
type ItemLinks struct {
	Cars        []string `json:"cars"`
	Motorcycles []string `json:"motorcycles"`
}

// RecallStatus sums up an item's recall campaigns: Open and New are
// campaign numbers; CheckedAt is nil before the watch's first check.
type RecallStatus struct {
	Open        []string   `json:"open"`
	New         []string   `json:"new"`
	ParkIt      bool       `json:"park_it"`
	ParkOutside bool       `json:"park_outside"`
	OTA         bool       `json:"ota"`
	CheckedAt   *time.Time `json:"checked_at"`
}

// ItemRecalls is one saved item's recall campaigns (GET /v1/lists/recalls).
type ItemRecalls struct {
	ListID    string         `json:"list_id"`
	ListName  string         `json:"list_name"`
	Type      Kind           `json:"type"`
	UUID      string         `json:"uuid"`
	VIN       *string        `json:"vin"`
	Note      string         `json:"note"`
	Record    *RecordRef     `json:"record"`
	CheckedAt *time.Time     `json:"checked_at"`
	Campaigns []ItemCampaign `json:"campaigns"`
}

// ItemCampaign is a campaign on an item: Status is "open" or "dealt_with".
type ItemCampaign struct {
	Recall
	FirstSeenAt time.Time  `json:"first_seen_at"`
	Baseline    bool       `json:"baseline"`
	New         bool       `json:"new"`
	Status      string     `json:"status"`
	DealtWithAt *time.Time `json:"dealt_with_at"`
	StatusNote  string     `json:"status_note"`
}

// RecordRef summarises a catalog record.
type RecordRef struct {
	Make  string `json:"make"`
	Model string `json:"model"`
	Year  int    `json:"year"`
}

// ChangelogEntry is one release of the API; Date is YYYY-MM-DD.
type ChangelogEntry struct {
	Version string   `json:"version"`
	Date    string   `json:"date"`
	Changes []string `json:"changes"`
}

// Problem is the RFC 9457 problem document of every error; see APIError.
type Problem struct {
	Type           string   `json:"type"`
	Title          string   `json:"title"`
	Status         int      `json:"status"`
	Detail         string   `json:"detail"`
	Instance       string   `json:"instance"`
	Code           string   `json:"code"`
	RequestID      string   `json:"request_id"`
	Param          string   `json:"param,omitempty"`
	Accepted       []string `json:"accepted,omitempty"`
	AcceptedValues []string `json:"accepted_values,omitempty"`
	Suggestion     string   `json:"suggestion,omitempty"`
	Limit          string   `json:"limit,omitempty"`
	Reset          string   `json:"reset,omitempty"`
	RetryAfter     int      `json:"retry_after,omitempty"`
	// A well-formed VIN nobody could decode still has its local checks.
	CheckDigit          *CheckDigit `json:"check_digit,omitempty"`
	WMI                 *WMI        `json:"wmi,omitempty"`
	ModelYearCandidates []int       `json:"model_year_candidates,omitempty"`
	// An invalid HIN names the 1-based position and the rule it breaks.
	Position int    `json:"position,omitempty"`
	Rule     string `json:"rule,omitempty"`
}

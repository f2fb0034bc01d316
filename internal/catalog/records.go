package catalog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// Kind names a record type of the catalog.
type Kind string

// The four record kinds.
const (
	KindCar        Kind = "car"
	KindMotorcycle Kind = "motorcycle"
	KindBoat       Kind = "boat"
	KindTireSize   Kind = "tire_size"
)

// Kinds lists every record kind in display order.
var Kinds = []Kind{KindCar, KindMotorcycle, KindBoat, KindTireSize}

// ParseKind accepts the kind names and the plurals and aliases the CLI and
// list items use ("cars", "tire", "tire-size", "tire_sizes"...).
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "car", "cars":
		return KindCar, nil
	case "motorcycle", "motorcycles":
		return KindMotorcycle, nil
	case "boat", "boats":
		return KindBoat, nil
	case "tire", "tires", "tire_size", "tire_sizes", "tire-size", "tire-sizes":
		return KindTireSize, nil
	}
	return "", fmt.Errorf("unknown record type %q: use car, motorcycle, boat or tire_size", s)
}

// FuelEconomy holds a car's EPA identity and figures.
type FuelEconomy struct {
	EPAID         Opt[int]     `json:"epa_id" jsonschema:"The EPA vehicle id (fueleconomy.gov) the figures come from; null when none matched."`
	MPGCity       Opt[float64] `json:"mpg_city" jsonschema:"EPA city fuel economy, in miles per US gallon; MPGe (miles per gallon-equivalent) for electric and fuel-cell cars, the gasoline figure for plug-in hybrids. Null without an EPA match." unit:"mpg"`
	MPGHighway    Opt[float64] `json:"mpg_highway" jsonschema:"EPA highway fuel economy, in miles per US gallon; MPGe for electric and fuel-cell cars, the gasoline figure for plug-in hybrids. Null without an EPA match." unit:"mpg"`
	MPGCombined   Opt[float64] `json:"mpg_combined" jsonschema:"EPA combined (55% city, 45% highway) fuel economy, in miles per US gallon; MPGe for electric and fuel-cell cars, the gasoline figure for plug-in hybrids. Null without an EPA match." unit:"mpg"`
	EPARangeMiles Opt[int]     `json:"epa_range_miles" jsonschema:"EPA driving range on a full charge of an electric car, or the total range of a plug-in hybrid; null for other cars and without an EPA match." unit:"mi"`
	// EPAElectricRangeMiles is a plug-in hybrid's range on electricity alone.
	EPAElectricRangeMiles Opt[int]     `json:"epa_electric_range_miles" jsonschema:"A plug-in hybrid's EPA range on electricity alone; null for other cars." unit:"mi"`
	AnnualFuelCost        Opt[int]     `json:"annual_fuel_cost" jsonschema:"EPA's estimated yearly fuel (or electricity) cost in US dollars, for 15,000 miles at 55% city driving and EPA's fuel prices of the data's year; null without an EPA match." unit:"USD"`
	CO2GPM                Opt[float64] `json:"co2_gpm" jsonschema:"EPA tailpipe CO2 emissions in grams per mile (0 for electric and fuel-cell cars); null without an EPA match." unit:"g/mi"`
}

// Car is a passenger car or light truck.
type Car struct {
	UUID          uuid.UUID    `json:"uuid" jsonschema:"The record's stable id (a UUIDv5 of its kind and natural key): the same record keeps it across imports."`
	Make          string       `json:"make" jsonschema:"Manufacturer, in the catalog's spelling."`
	Model         string       `json:"model" jsonschema:"The catalog's canonical model name, shared with tire fitments, VIN decodes and recalls (docs/data.md, Model names)."`
	SourceModel   string       `json:"source_model" jsonschema:"The model as the source spells it, e.g. EPA's F150 for the canonical F-150; the model itself when the source uses that."`
	Year          int          `json:"year" jsonschema:"Model year."`
	Trim          string       `json:"trim" jsonschema:"Trim or variant name, e.g. LE or Pickup 2WD; empty when the source gives none."`
	Body          string       `json:"body" jsonschema:"Body type: Sedan, Coupe, Hatchback, Wagon, Convertible, SUV, Pickup, Minivan or Van."`
	FuelType      string       `json:"fuel_type" jsonschema:"Fuel type, spelled out with the short code in parentheses where there is one, e.g. GASOLINE or BATTERY ELECTRIC VEHICLE (BEV)."`
	DriveType     string       `json:"drive_type" jsonschema:"Drivetrain: FWD, RWD, AWD or 4WD."`
	Transmission  string       `json:"transmission" jsonschema:"Transmission in EPA's style, e.g. Automatic (S8) or Manual 6-spd; empty when unknown."`
	DisplacementL Opt[float64] `json:"displacement_l" jsonschema:"Engine displacement in litres; null for electric and fuel-cell cars." unit:"L"`
	Cylinders     Opt[int]     `json:"cylinders" jsonschema:"Number of engine cylinders; null for electric and fuel-cell cars and rotary engines."`
	Engine        string       `json:"engine" jsonschema:"Derived from fuel type, displacement and cylinders, e.g. \"2.5L 4-cyl hybrid\"."`
	FuelEconomy
	Electrified bool `json:"electrified" jsonschema:"True for BEV, PHEV, HEV and FCEV: the ev_only set."`
}

func (Car) SchemaDescription() string {
	return "A passenger car or light truck. The EPA fields (epa_id and the fuel-economy figures) are null until the car's EPA row is known: pinned by the catalog file or matched by enrich."
}

// Motorcycle is a record of the motorcycle dataset, which also holds ATVs,
// UTVs, snowmobiles, scooters, three-wheelers, personal watercraft, golf
// carts and low-speed vehicles.
type Motorcycle struct {
	UUID           uuid.UUID `json:"uuid" jsonschema:"The record's stable id (a UUIDv5 of its kind and natural key): the same record keeps it across imports."`
	Make           string    `json:"make" jsonschema:"Manufacturer, in the catalog's spelling."`
	Model          string    `json:"model" jsonschema:"Model name, in the catalog's spelling."`
	Year           int       `json:"year" jsonschema:"Model year."`
	MotorcycleType string    `json:"motorcycle_type" jsonschema:"Riding type, e.g. Street Motorcycle, Dual Sport Motorcycle, Three-Wheeler, UTV / SXS, Snowmobile or Low Speed Vehicle."`
	VehicleType    string    `json:"vehicle_type" jsonschema:"Broad class: Motorcycle, ATV/UTV, Snowmobile or Golf Cart / LSV."`
	DisplacementCC *int      `json:"displacement_cc" jsonschema:"Engine displacement in cubic centimetres; null for electric vehicles and when unknown." unit:"cc"`
	EngineType     string    `json:"engine_type" jsonschema:"Engine layout and cycle, e.g. Parallel twin four-stroke, or Electric; empty when unknown."`
	PowerHP        *float64  `json:"power_hp" jsonschema:"Peak engine power in horsepower; null when unknown." unit:"hp"`
	BodyClass      string    `json:"body_class" jsonschema:"NHTSA vPIC's body class the riding type comes from, e.g. Motorcycle - Touring / Sport Touring; empty when the source gives none."`
	FuelType       string    `json:"fuel_type" jsonschema:"Primary fuel as NHTSA vPIC names it, e.g. Gasoline or Electric; empty when unknown or when the model's VINs name several."`
	Source         string    `json:"source" jsonschema:"Where the record comes from, e.g. vPIC snapshot 2026-02-17 for the catalog built from NHTSA's vPIC data; empty for the demo and catalog files that name none."`
}

// VPICSourcePrefix begins the source of a record built from a vPIC snapshot.
const VPICSourcePrefix = "vPIC snapshot "

func (Motorcycle) SchemaDescription() string {
	return "A record of the motorcycle dataset, which also holds ATVs, UTVs, snowmobiles, scooters, three-wheelers, personal watercraft, golf carts and low-speed vehicles."
}

// Boat is a power boat.
type Boat struct {
	UUID         uuid.UUID `json:"uuid" jsonschema:"The record's stable id (a UUIDv5 of its kind and natural key): the same record keeps it across imports."`
	Make         string    `json:"make" jsonschema:"Manufacturer, in the catalog's spelling."`
	Model        string    `json:"model" jsonschema:"Model name, in the catalog's spelling."`
	Year         int       `json:"year" jsonschema:"Model year."`
	ModelType    string    `json:"model_type" jsonschema:"Vessel category, e.g. Center Console."`
	LengthFt     float64   `json:"length_ft" jsonschema:"Overall length in feet." unit:"ft"`
	BeamFt       float64   `json:"beam_ft" jsonschema:"Beam (greatest width) in feet." unit:"ft"`
	DryWeightLbs int       `json:"dry_weight_lbs" jsonschema:"Weight without fuel, water or gear, in pounds." unit:"lb"`
	EngineCount  int       `json:"engine_count" jsonschema:"Number of engines."`
	HP           int       `json:"hp" jsonschema:"Total rated horsepower of all engines." unit:"hp"`
	HullType     string    `json:"hull_type" jsonschema:"Hull material, e.g. Fiberglass."`
	FuelType     string    `json:"fuel_type" jsonschema:"Fuel type: Gas, Diesel or Electric."`
}

func (Boat) SchemaDescription() string { return "A power boat." }

// TireFitment maps a vehicle to its OEM tire sizes and the alternate sizes
// that fit, every size in tire.Canonical form.
type TireFitment struct {
	UUID            uuid.UUID `json:"uuid" jsonschema:"The record's stable id (a UUIDv5 of its kind and natural key): the same record keeps it across imports."`
	Make            string    `json:"make" jsonschema:"Make of the vehicle the fitment is for."`
	Model           string    `json:"model" jsonschema:"Model of the vehicle the fitment is for."`
	Year            int       `json:"year" jsonschema:"Model year of the vehicle the fitment is for."`
	Trim            string    `json:"trim" jsonschema:"Trim or variant the fitment is for, e.g. SE; empty when it fits every trim."`
	TireSize        string    `json:"tire_size" jsonschema:"OEM size alone, e.g. 225/45R17, 245/35ZR19, LT285/70R17 or 35x12.50R17LT (front size when staggered)."`
	LoadIndex       *int      `json:"load_index" jsonschema:"Load index of the OEM tire (front when staggered), e.g. 109; null when unknown."`
	SpeedRating     *string   `json:"speed_rating" jsonschema:"Speed rating of the OEM tire (front when staggered), e.g. V; null when unknown."`
	RearTireSize    *string   `json:"rear_tire_size" jsonschema:"Rear OEM size of a staggered fitment; null otherwise."`
	RearLoadIndex   *int      `json:"rear_load_index" jsonschema:"Load index of the rear OEM tire of a staggered fitment; null when unknown or not staggered."`
	RearSpeedRating *string   `json:"rear_speed_rating" jsonschema:"Speed rating of the rear OEM tire of a staggered fitment; null when unknown or not staggered."`
	AlternateSizes  []string  `json:"alternate_sizes" jsonschema:"Sizes whose diameter is within ±3% of tire_size (the front size when staggered)."`
	// RearAlternateSizes is empty, never nil, when the fitment is not staggered.
	RearAlternateSizes []string `json:"rear_alternate_sizes" jsonschema:"Sizes whose diameter is within ±3% of rear_tire_size; empty when not staggered."`
	WheelSpecs
}

// WheelSpecs are the wheel's figures a catalog file may give a fitment;
// each is null when it does not.
type WheelSpecs struct {
	BoltPattern   *string  `json:"bolt_pattern" jsonschema:"Bolt pattern: lug count x pitch-circle diameter in mm, e.g. 5x114.3; null when unknown."`
	CenterBoreMM  *float64 `json:"center_bore_mm" jsonschema:"Centre bore of the wheel, in mm; null when unknown." unit:"mm"`
	OffsetMinMM   *int     `json:"offset_min_mm" jsonschema:"Smallest wheel offset (ET) that fits, in mm; null when unknown." unit:"mm"`
	OffsetMaxMM   *int     `json:"offset_max_mm" jsonschema:"Largest wheel offset (ET) that fits, in mm; null when unknown." unit:"mm"`
	RimWidthMinIn *float64 `json:"rim_width_min_in" jsonschema:"Narrowest rim that fits, in inches; null when unknown." unit:"in"`
	RimWidthMaxIn *float64 `json:"rim_width_max_in" jsonschema:"Widest rim that fits, in inches; null when unknown." unit:"in"`
	LugThread     *string  `json:"lug_thread" jsonschema:"Thread of the wheel bolts or nuts, e.g. M12x1.5 or 1/2-20; null when unknown."`
	LugTorqueNM   *int     `json:"lug_torque_nm" jsonschema:"Tightening torque of the wheel bolts or nuts, in newton-metres; null when unknown." unit:"N·m"`
	TPMS          *bool    `json:"tpms" jsonschema:"True when the vehicle has tire-pressure monitoring sensors in the wheels; null when unknown."`
}

func (TireFitment) SchemaDescription() string {
	return "A vehicle's OEM tire sizes, their load index and speed rating, and the alternate sizes that fit, front and rear."
}

// namespace is the UUIDv5 namespace of every vds record. Changing it would
// change every record UUID and orphan every saved list item: never do that.
var namespace = uuid.MustParse("6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41")

// recordUUID derives a stable UUID from a kind and a natural key, compared
// case-insensitively with runs of space collapsed.
func recordUUID(kind Kind, parts ...string) uuid.UUID {
	var b strings.Builder
	b.WriteString(string(kind))
	for _, p := range parts {
		b.WriteByte(0)
		b.WriteString(strings.ToLower(strings.Join(strings.Fields(p), " ")))
	}
	return uuid.NewSHA1(namespace, []byte(b.String()))
}

// NaturalKey returns the fields that identify a car: make, model, year, trim,
// drive and displacement (a trim often comes with two drives or engines).
func (c *Car) NaturalKey() []string {
	d := ""
	if c.DisplacementL.Valid {
		d = strconv.FormatFloat(c.DisplacementL.V, 'f', 1, 64)
	}
	return []string{c.Make, c.Model, strconv.Itoa(c.Year), c.Trim, c.DriveType, d}
}

// NaturalKey returns make, model and year.
func (m *Motorcycle) NaturalKey() []string {
	return []string{m.Make, m.Model, strconv.Itoa(m.Year)}
}

// NaturalKey returns make, model and year.
func (b *Boat) NaturalKey() []string {
	return []string{b.Make, b.Model, strconv.Itoa(b.Year)}
}

// NaturalKey returns make, model, year and trim.
func (t *TireFitment) NaturalKey() []string {
	return []string{t.Make, t.Model, strconv.Itoa(t.Year), t.Trim}
}

// engineLabel renders a car's engine for display, e.g. "2.5L 4-cyl hybrid".
func engineLabel(fuel string, displ Opt[float64], cyl Opt[int]) string {
	switch fuel {
	case FuelBEV:
		return "Electric"
	case FuelFCEV:
		return "Fuel cell electric"
	}
	var parts []string
	if displ.Valid {
		parts = append(parts, strconv.FormatFloat(displ.V, 'f', 1, 64)+"L")
	}
	if cyl.Valid {
		parts = append(parts, strconv.Itoa(cyl.V)+"-cyl")
	}
	switch fuel {
	case FuelHEV:
		parts = append(parts, "hybrid")
	case FuelPHEV:
		parts = append(parts, "plug-in hybrid")
	case FuelDiesel:
		parts = append(parts, "diesel")
	case FuelFlex:
		parts = append(parts, "flex-fuel")
	case FuelCNG:
		parts = append(parts, "CNG")
	case FuelLPG:
		parts = append(parts, "LPG")
	}
	return strings.Join(parts, " ")
}

// IsElectrified reports whether a fuel type counts as electrified: driven
// by an electric motor (BEV, PHEV, HEV, and FCEV, whose fuel cell feeds one).
func IsElectrified(fuel string) bool {
	return fuel == FuelBEV || fuel == FuelPHEV || fuel == FuelHEV || fuel == FuelFCEV
}

// MotorcycleUUID is the uuid of the motorcycle record of a make, model and
// year, spelt as a VIN decode gives them (case and runs of space do not count).
func MotorcycleUUID(makeName, model string, year int) uuid.UUID {
	return recordUUID(KindMotorcycle, makeName, model, strconv.Itoa(year))
}

// EPACarUUID is the uuid of the car built from EPA row id by vds ingest
// --source epa: stable across downloads, since EPA never reuses an id.
func EPACarUUID(id int) uuid.UUID {
	return recordUUID(KindCar, "epa", strconv.Itoa(id))
}

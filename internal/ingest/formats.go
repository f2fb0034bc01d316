package ingest

import (
	"github.com/vds-dev/vds/internal/catalog"
)

// The input records of each kind. Their json tags name both the JSON fields
// and the CSV columns, so the formats cannot drift; pointer fields are optional.

type carInput struct {
	Make          string   `json:"make"`
	Model         string   `json:"model"`
	SourceModel   *string  `json:"source_model"`
	Year          int      `json:"year"`
	Trim          string   `json:"trim"`
	Body          string   `json:"body"`
	FuelType      string   `json:"fuel_type"`
	DriveType     string   `json:"drive_type"`
	Transmission  *string  `json:"transmission"`
	DisplacementL *float64 `json:"displacement_l"`
	Cylinders     *int     `json:"cylinders"`
	// A file may pin the EPA row of a car and carry its figures (the demo
	// catalog does); a car without epa_id keeps what enrich stored.
	EPAID         *int     `json:"epa_id"`
	MPGCity       *float64 `json:"mpg_city"`
	MPGHighway    *float64 `json:"mpg_highway"`
	MPGCombined   *float64 `json:"mpg_combined"`
	EPARangeMiles *int     `json:"epa_range_miles"`
	// EPAElectricRangeMiles is a plug-in hybrid's range on electricity.
	EPAElectricRangeMiles *int     `json:"epa_electric_range_miles"`
	AnnualFuelCost        *int     `json:"annual_fuel_cost"`
	CO2GPM                *float64 `json:"co2_gpm"`
}

func (in *carInput) record() (catalog.Car, catalog.FieldErrors) {
	c := catalog.Car{Make: in.Make, Model: in.Model, SourceModel: deref(in.SourceModel), Year: in.Year, Trim: in.Trim, Body: in.Body, FuelType: in.FuelType,
		DriveType: in.DriveType, Transmission: deref(in.Transmission), DisplacementL: catalog.OptOf(in.DisplacementL), Cylinders: catalog.OptOf(in.Cylinders),
		FuelEconomy: catalog.FuelEconomy{EPAID: catalog.OptOf(in.EPAID), MPGCity: catalog.OptOf(in.MPGCity), MPGHighway: catalog.OptOf(in.MPGHighway), MPGCombined: catalog.OptOf(in.MPGCombined),
			EPARangeMiles: catalog.OptOf(in.EPARangeMiles), EPAElectricRangeMiles: catalog.OptOf(in.EPAElectricRangeMiles), AnnualFuelCost: catalog.OptOf(in.AnnualFuelCost), CO2GPM: catalog.OptOf(in.CO2GPM)}}
	errs := c.Normalize()
	return c, errs
}

type motorcycleInput struct {
	Make           string   `json:"make"`
	Model          string   `json:"model"`
	Year           int      `json:"year"`
	MotorcycleType string   `json:"motorcycle_type"`
	VehicleType    *string  `json:"vehicle_type"`
	DisplacementCC *int     `json:"displacement_cc"`
	EngineType     *string  `json:"engine_type"`
	PowerHP        *float64 `json:"power_hp"`
	BodyClass      *string  `json:"body_class"`
	FuelType       *string  `json:"fuel_type"`
	Source         *string  `json:"source"`
}

func (in *motorcycleInput) record() (catalog.Motorcycle, catalog.FieldErrors) {
	m := catalog.Motorcycle{Make: in.Make, Model: in.Model, Year: in.Year, MotorcycleType: in.MotorcycleType,
		VehicleType: deref(in.VehicleType), DisplacementCC: in.DisplacementCC, EngineType: deref(in.EngineType), PowerHP: in.PowerHP,
		BodyClass: deref(in.BodyClass), FuelType: deref(in.FuelType), Source: deref(in.Source)}
	errs := m.Normalize()
	return m, errs
}

type boatInput struct {
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

func (in *boatInput) record() (catalog.Boat, catalog.FieldErrors) {
	b := catalog.Boat{Make: in.Make, Model: in.Model, Year: in.Year, ModelType: in.ModelType, LengthFt: in.LengthFt, BeamFt: in.BeamFt,
		DryWeightLbs: in.DryWeightLbs, EngineCount: in.EngineCount, HP: in.HP, HullType: in.HullType, FuelType: in.FuelType}
	errs := b.Normalize()
	return b, errs
}

type tireInput struct {
	Make            string   `json:"make"`
	Model           string   `json:"model"`
	Year            int      `json:"year"`
	Trim            *string  `json:"trim"`
	TireSize        string   `json:"tire_size"`
	LoadIndex       *int     `json:"load_index"`
	SpeedRating     *string  `json:"speed_rating"`
	RearTireSize    *string  `json:"rear_tire_size"`
	RearLoadIndex   *int     `json:"rear_load_index"`
	RearSpeedRating *string  `json:"rear_speed_rating"`
	AlternateSizes  []string `json:"alternate_sizes"`
	// RearAlternateSizes and AlternatesOutsideWindow are optional columns.
	RearAlternateSizes *[]string `json:"rear_alternate_sizes"`
	// AlternatesOutsideWindow acknowledges alternates (front or rear) outside
	// the fitment window, which are refused otherwise; it is not stored.
	AlternatesOutsideWindow *[]string `json:"alternates_outside_window"`
	// The wheel specs are optional columns, each may be empty.
	BoltPattern   *string  `json:"bolt_pattern"`
	CenterBoreMM  *float64 `json:"center_bore_mm"`
	OffsetMinMM   *int     `json:"offset_min_mm"`
	OffsetMaxMM   *int     `json:"offset_max_mm"`
	RimWidthMinIn *float64 `json:"rim_width_min_in"`
	RimWidthMaxIn *float64 `json:"rim_width_max_in"`
	LugThread     *string  `json:"lug_thread"`
	LugTorqueNM   *int     `json:"lug_torque_nm"`
	TPMS          *bool    `json:"tpms"`
}

func (in *tireInput) record() (catalog.TireFitment, catalog.FieldErrors) {
	t := catalog.TireFitment{Make: in.Make, Model: in.Model, Year: in.Year, Trim: deref(in.Trim), TireSize: in.TireSize,
		LoadIndex: in.LoadIndex, SpeedRating: in.SpeedRating, RearTireSize: in.RearTireSize, RearLoadIndex: in.RearLoadIndex,
		RearSpeedRating: in.RearSpeedRating, AlternateSizes: in.AlternateSizes,
		WheelSpecs: catalog.WheelSpecs{BoltPattern: in.BoltPattern, CenterBoreMM: in.CenterBoreMM, OffsetMinMM: in.OffsetMinMM,
			OffsetMaxMM: in.OffsetMaxMM, RimWidthMinIn: in.RimWidthMinIn, RimWidthMaxIn: in.RimWidthMaxIn, LugThread: in.LugThread,
			LugTorqueNM: in.LugTorqueNM, TPMS: in.TPMS}}
	if in.RearAlternateSizes != nil {
		t.RearAlternateSizes = *in.RearAlternateSizes
	}
	var outside []string
	if in.AlternatesOutsideWindow != nil {
		outside = *in.AlternatesOutsideWindow
	}
	errs := t.Normalize(outside...)
	return t, errs
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

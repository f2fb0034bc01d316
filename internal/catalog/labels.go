package catalog

import "strings"

// fieldLabels maps each record field's JSON name to a label and unit for
// people; kinds share a name only where it means the same.
var fieldLabels = map[string]struct{ label, unit string }{
	"uuid":         {"UUID", ""},
	"make":         {"Make", ""},
	"model":        {"Model", ""},
	"source_model": {"Model as the source names it", ""},
	"year":         {"Model year", ""},
	"trim":         {"Trim", ""},

	"body":                     {"Body style", ""},
	"fuel_type":                {"Fuel type", ""},
	"drive_type":               {"Drive type", ""},
	"transmission":             {"Transmission", ""},
	"displacement_l":           {"Engine displacement", "L"},
	"cylinders":                {"Cylinders", ""},
	"engine":                   {"Engine", ""},
	"epa_id":                   {"EPA vehicle ID", ""},
	"mpg_city":                 {"City MPG", ""},
	"mpg_highway":              {"Highway MPG", ""},
	"mpg_combined":             {"Combined MPG", ""},
	"epa_range_miles":          {"EPA range", "mi"},
	"epa_electric_range_miles": {"Electric range", "mi"},
	"annual_fuel_cost":         {"Annual fuel cost", "USD"},
	"co2_gpm":                  {"CO₂ emissions", "g/mi"},
	"electrified":              {"Electrified", ""},

	"motorcycle_type": {"Type", ""},
	"vehicle_type":    {"Vehicle class", ""},
	"displacement_cc": {"Engine displacement", "cc"},
	"engine_type":     {"Engine type", ""},
	"power_hp":        {"Power", "hp"},
	"body_class":      {"Body class", ""},
	"source":          {"Source", ""},

	"model_type":     {"Boat type", ""},
	"length_ft":      {"Length", "ft"},
	"beam_ft":        {"Beam", "ft"},
	"dry_weight_lbs": {"Dry weight", "lb"},
	"engine_count":   {"Engines", ""},
	"hp":             {"Power", "hp"},
	"hull_type":      {"Hull material", ""},

	"tire_size":            {"OEM tire size", ""},
	"load_index":           {"Load index", ""},
	"speed_rating":         {"Speed rating", ""},
	"rear_tire_size":       {"Rear OEM tire size", ""},
	"rear_load_index":      {"Rear load index", ""},
	"rear_speed_rating":    {"Rear speed rating", ""},
	"alternate_sizes":      {"Alternate sizes", ""},
	"rear_alternate_sizes": {"Rear alternate sizes", ""},
	"bolt_pattern":         {"Bolt pattern", ""},
	"center_bore_mm":       {"Centre bore", "mm"},
	"offset_min_mm":        {"Wheel offset from (ET)", "mm"},
	"offset_max_mm":        {"Wheel offset to (ET)", "mm"},
	"rim_width_min_in":     {"Rim width from", "in"},
	"rim_width_max_in":     {"Rim width to", "in"},
	"lug_thread":           {"Lug thread", ""},
	"lug_torque_nm":        {"Lug torque", "N·m"},
	"tpms":                 {"Tire-pressure sensors", ""},
}

// FieldLabel is the label, with unit, of the record field JSON-named name.
func FieldLabel(name string) string {
	f, ok := fieldLabels[name]
	switch {
	case !ok:
		return name
	case f.unit == "":
		return f.label
	}
	return f.label + " (" + f.unit + ")"
}

// EconomyUnit is what a car's EPA mpg figures measure: MPGe (miles per
// gallon-equivalent) for battery-electric and fuel-cell cars, MPG otherwise
// (a plug-in hybrid's figures are its gasoline ones).
func EconomyUnit(fuelType string) string {
	if strings.EqualFold(fuelType, FuelBEV) || strings.EqualFold(fuelType, FuelFCEV) {
		return "MPGe"
	}
	return "MPG"
}

// CarFieldLabel is FieldLabel for a car of the given fuel type, whose mpg
// fields are labelled in its EconomyUnit.
func CarFieldLabel(name, fuelType string) string {
	l := FieldLabel(name)
	if strings.HasPrefix(name, "mpg_") {
		return strings.Replace(l, "MPG", EconomyUnit(fuelType), 1)
	}
	return l
}

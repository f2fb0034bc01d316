package catalog

import (
	"reflect"
	"strings"
	"testing"
)

// jsonNames lists the JSON names of t's fields, embedded structs' included.
func jsonNames(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		if f.Anonymous {
			out = append(out, jsonNames(f.Type)...)
			continue
		}
		out = append(out, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	return out
}

// TestFieldLabelsCoverRecords keeps the table and the record structs in
// step: every field of every kind has a label, and every label a field.
func TestFieldLabelsCoverRecords(t *testing.T) {
	t.Parallel()
	used := map[string]bool{}
	for _, rec := range []any{Car{}, Motorcycle{}, Boat{}, TireFitment{}} {
		for _, name := range jsonNames(reflect.TypeOf(rec)) {
			used[name] = true
			if _, ok := fieldLabels[name]; !ok {
				t.Errorf("%T.%s has no label", rec, name)
			}
		}
	}
	for name := range fieldLabels {
		if !used[name] {
			t.Errorf("label %q names no record field", name)
		}
	}
}

func TestFieldLabel(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"mpg_city":                 "City MPG",
		"displacement_l":           "Engine displacement (L)",
		"displacement_cc":          "Engine displacement (cc)",
		"dry_weight_lbs":           "Dry weight (lb)",
		"epa_electric_range_miles": "Electric range (mi)",
		"co2_gpm":                  "CO₂ emissions (g/mi)",
		"rear_tire_size":           "Rear OEM tire size",
		"no_such_field":            "no_such_field",
	} {
		if got := FieldLabel(name); got != want {
			t.Errorf("FieldLabel(%q) = %q, want %q", name, got, want)
		}
	}
}

// EPA rates battery-electric and fuel-cell cars in MPGe; a plug-in
// hybrid's mpg fields hold its gasoline figures.
func TestCarFieldLabel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, fuel, want string }{
		{"mpg_city", FuelBEV, "City MPGe"},
		{"mpg_highway", FuelFCEV, "Highway MPGe"},
		{"mpg_combined", strings.ToLower(FuelBEV), "Combined MPGe"},
		{"mpg_combined", FuelPHEV, "Combined MPG"},
		{"mpg_city", FuelHEV, "City MPG"},
		{"mpg_city", FuelGasoline, "City MPG"},
		{"mpg_city", "", "City MPG"},
		{"epa_range_miles", FuelBEV, "EPA range (mi)"},
		{"fuel_type", FuelBEV, "Fuel type"},
	} {
		if got := CarFieldLabel(tc.name, tc.fuel); got != tc.want {
			t.Errorf("CarFieldLabel(%q, %q) = %q, want %q", tc.name, tc.fuel, got, tc.want)
		}
	}
	if EconomyUnit(FuelBEV) != "MPGe" || EconomyUnit(FuelPHEV) != "MPG" {
		t.Errorf("EconomyUnit: BEV %q, PHEV %q", EconomyUnit(FuelBEV), EconomyUnit(FuelPHEV))
	}
}

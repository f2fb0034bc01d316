package ingest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
)

// TestDemoCatalog checks the embedded catalog: exact counts, every value in
// its field's real-world range, and the coverage the product promises.
func TestDemoCatalog(t *testing.T) {
	t.Parallel()
	src, err := DemoSources()
	if err != nil {
		t.Fatal(err)
	}
	c, kinds, err := Parse(src)
	if err != nil {
		t.Fatalf("demo catalog does not validate: %v", err)
	}
	if len(kinds) != 4 {
		t.Fatalf("demo carries kinds %v, want all four", kinds)
	}
	if got, want := c.Counts(), (catalog.Counts{Cars: 562, Motorcycles: 341, Boats: 308, TireSizes: 584}); got != want {
		t.Fatalf("demo counts %+v, want %+v", got, want)
	}
	t.Run("cars", func(t *testing.T) { checkCars(t, c.Cars) })
	t.Run("motorcycles", func(t *testing.T) { checkMotorcycles(t, c.Motorcycles) })
	t.Run("boats", func(t *testing.T) { checkBoats(t, c.Boats) })
	t.Run("tire_sizes", func(t *testing.T) { checkTires(t, c.TireSizes, c.Cars) })
}

func within[T int | float64](t *testing.T, what string, v, lo, hi T) {
	t.Helper()
	if v < lo || v > hi {
		t.Errorf("%s = %v, outside %v..%v", what, v, lo, hi)
	}
}

func atLeast(t *testing.T, what string, counts map[string]int, keys []string, min int) {
	t.Helper()
	for _, k := range keys {
		if counts[k] < min {
			t.Errorf("%s %q: %d records, want at least %d", what, k, counts[k], min)
		}
	}
}

func checkCars(t *testing.T, cars []catalog.Car) {
	fuels, bodies, drives, years, makes := map[string]int{}, map[string]int{}, map[string]int{}, map[int]int{}, map[string]int{}
	for _, c := range cars {
		name := c.Make + " " + c.Model
		within(t, name+" year", c.Year, 2015, 2025)
		if c.DisplacementL.Valid {
			within(t, name+" displacement", c.DisplacementL.V, 0.6, 8.4)
			within(t, name+" cylinders", c.Cylinders.V, 2, 12)
		} else if c.FuelType != catalog.FuelBEV && c.FuelType != catalog.FuelFCEV {
			t.Errorf("%s: %s without an engine", name, c.FuelType)
		}
		if c.Trim == "" || c.Transmission == "" {
			t.Errorf("%s %d: empty trim or transmission", name, c.Year)
		}
		if !c.EPAID.Valid || !c.MPGCombined.Valid {
			t.Errorf("%s %d %s: the demo pins every car's EPA row and ships its figures", name, c.Year, c.Trim)
		}
		fuels[c.FuelType]++
		bodies[c.Body]++
		drives[c.DriveType]++
		years[c.Year]++
		makes[c.Make]++
	}
	atLeast(t, "fuel", fuels, []string{catalog.FuelGasoline, catalog.FuelBEV, catalog.FuelPHEV, catalog.FuelHEV, catalog.FuelDiesel}, 10)
	atLeast(t, "drive", drives, catalog.Drives, 20)
	atLeast(t, "body", bodies, []string{"Sedan", "SUV", "Pickup", "Hatchback", "Coupe", "Minivan"}, 5)
	if len(years) < 8 || len(makes) < 25 {
		t.Errorf("cars span %d model years and %d makes, want at least 8 and 25", len(years), len(makes))
	}
}

func checkMotorcycles(t *testing.T, ms []catalog.Motorcycle) {
	types, classes := map[string]int{}, map[string]int{}
	for _, m := range ms {
		name := m.Make + " " + m.Model
		within(t, name+" year", m.Year, 2010, 2026)
		if m.DisplacementCC != nil {
			within(t, name+" displacement_cc", *m.DisplacementCC, 49, 2500)
		} else if m.EngineType != "Electric" {
			t.Errorf("%s: no displacement but engine %q", name, m.EngineType)
		}
		if m.PowerHP != nil {
			within(t, name+" power_hp", *m.PowerHP, 1, 250)
		}
		if m.VehicleType != catalog.ClassOf(m.MotorcycleType) {
			t.Errorf("%s: %s classed as %s", name, m.MotorcycleType, m.VehicleType)
		}
		types[m.MotorcycleType]++
		classes[m.VehicleType]++
	}
	// The demo has the spec's riding types and classes; Three-Wheeler and
	// Low Speed Vehicle come with the vPIC catalog.
	atLeast(t, "motorcycle_type", types, slices.DeleteFunc(slices.Clone(catalog.MotorcycleTypes), func(t string) bool {
		return t == "Three-Wheeler" || t == "Low Speed Vehicle"
	}), 10)
	atLeast(t, "vehicle_type", classes, []string{catalog.ClassMotorcycle, catalog.ClassATVUTV}, 50)
	atLeast(t, "vehicle_type", classes, []string{catalog.ClassSnowmobile, catalog.ClassGolfLSV}, 10)
}

func checkBoats(t *testing.T, boats []catalog.Boat) {
	hulls, fuels, cats := map[string]int{}, map[string]int{}, map[string]int{}
	for _, b := range boats {
		name := b.Make + " " + b.Model
		within(t, name+" year", b.Year, 2008, 2026)
		within(t, name+" length_ft", b.LengthFt, 8, 100)
		within(t, name+" beam_ft", b.BeamFt, 3, 30)
		within(t, name+" dry_weight_lbs", b.DryWeightLbs, 100, 200000)
		within(t, name+" engine_count", b.EngineCount, 1, 4)
		within(t, name+" hp", b.HP, 2, 6000)
		if b.BeamFt > b.LengthFt/2 {
			t.Errorf("%s: beam %v is more than half the length %v", name, b.BeamFt, b.LengthFt)
		}
		hulls[b.HullType]++
		fuels[b.FuelType]++
		cats[b.ModelType]++
	}
	atLeast(t, "hull_type", hulls, []string{"Fiberglass", "Aluminum"}, 30)
	atLeast(t, "fuel_type", fuels, []string{"Gas", "Diesel"}, 20)
	if len(cats) < 10 {
		t.Errorf("%d vessel categories, want at least 10", len(cats))
	}
}

func checkTires(t *testing.T, fits []catalog.TireFitment, cars []catalog.Car) {
	families := map[string]bool{}
	for _, c := range cars {
		families[c.Make+"|"+c.Model] = true
	}
	staggered, withLoad, rearAlts, matched := 0, 0, 0, 0
	for _, f := range fits {
		name := fmt.Sprintf("%s %s %d %s", f.Make, f.Model, f.Year, f.Trim)
		within(t, name+" year", f.Year, 2015, 2025)
		within(t, name+" alternates", len(f.AlternateSizes), 1, 4)
		oem := mustCanonical(t, name, f.TireSize).Geometry()
		within(t, name+" OEM diameter (in)", oem.DiameterIn, 20, 40)
		if f.LoadIndex != nil {
			withLoad++
		}
		checkWindow(t, name, f.TireSize, oem, f.AlternateSizes)
		if f.RearTireSize == nil {
			if len(f.RearAlternateSizes) != 0 {
				t.Errorf("%s: rear alternates %v without a rear size", name, f.RearAlternateSizes)
			}
		} else {
			staggered++
			// Staggered setups may differ in diameter too (a Corvette runs
			// 19in front and 20in rear), but never wildly.
			rear := mustCanonical(t, name, *f.RearTireSize).Geometry()
			within(t, name+" rear vs front %", tire.Compare(oem, rear).DiameterDiffPct, -2, 8)
			if slices.Contains(f.AlternateSizes, *f.RearTireSize) {
				t.Errorf("%s: the rear OEM size %s is listed as a front alternate", name, *f.RearTireSize)
			}
			checkWindow(t, name, *f.RearTireSize, rear, f.RearAlternateSizes)
			rearAlts += len(f.RearAlternateSizes)
		}
		if families[f.Make+"|"+f.Model] {
			matched++
		}
	}
	// Counted from the file: 82 rows with a rear_tire_size, 87 with a
	// load_index, 21 sizes in rear_alternate_sizes.
	if staggered != 82 || withLoad != 87 || rearAlts != 21 {
		t.Errorf("%d staggered fitments, %d with a load index, %d rear alternates; want 82, 87 and 21", staggered, withLoad, rearAlts)
	}
	if matched != len(fits) {
		t.Errorf("%d of %d fitments name a car family of the catalog", matched, len(fits))
	}
}

// checkWindow asserts that every alternate is canonical and within the
// fitment window of the OEM size of its axle.
func checkWindow(t *testing.T, name, oemSize string, oem tire.Geometry, alts []string) {
	t.Helper()
	for _, a := range alts {
		if d := tire.Compare(oem, mustCanonical(t, name, a).Geometry()); !d.WithinWindow {
			t.Errorf("%s: alternate %s differs from %s by %.2f%%, outside ±%g%%", name, a, oemSize, d.DiameterDiffPct, tire.FitmentWindowPct)
		}
	}
}

// mustCanonical parses a stored size and asserts it is in canonical form.
func mustCanonical(t *testing.T, name, s string) tire.Size {
	t.Helper()
	if c, err := tire.Canonical(s); err != nil || c != s {
		t.Errorf("%s: size %q is not canonical: Canonical gives %q, %v", name, s, c, err)
	}
	return mustSize(t, s)
}

func mustSize(t *testing.T, s string) tire.Size {
	t.Helper()
	sz, err := tire.Parse(s)
	if err != nil {
		t.Fatalf("stored size %q does not parse: %v", s, err)
	}
	return sz
}

package vehicle_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
	"github.com/vds-dev/vds/internal/vehicle"
)

// family is the test's own statement of the make/model equivalence: case,
// spaces and punctuation ignored.
func family(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// expectTires computes the fitments a make/model/year lookup should return,
// of the fitments ours accepts.
func expectTires(fits []catalog.TireFitment, mk, model string, year int, ours func(catalog.TireFitment) bool) (string, []uuid.UUID) {
	var same []catalog.TireFitment
	for _, f := range fits {
		if family(f.Make) == family(mk) && family(f.Model) == family(model) && ours(f) {
			same = append(same, f)
		}
	}
	if len(same) == 0 {
		return vehicle.MatchNone, nil
	}
	dist := func(y int) int {
		if y > year {
			return y - year
		}
		return year - y
	}
	best := dist(same[0].Year)
	for _, f := range same {
		best = min(best, dist(f.Year))
	}
	if best > 2 { // fitments more than two model years away are another generation's
		return vehicle.MatchNone, nil
	}
	var ids []uuid.UUID
	for _, f := range same {
		if dist(f.Year) == best {
			ids = append(ids, f.UUID)
		}
	}
	if best == 0 {
		return vehicle.MatchExactYear, ids
	}
	return vehicle.MatchNearestYear, ids
}

func fitmentIDs(fg []vehicle.FitmentGeometry) []uuid.UUID {
	ids := make([]uuid.UUID, len(fg))
	for i := range fg {
		ids[i] = fg[i].Fitment.UUID
	}
	return ids
}

func sameIDs(a, b []uuid.UUID) bool {
	less := func(x, y uuid.UUID) int { return strings.Compare(x.String(), y.String()) }
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, less)
	slices.SortFunc(b, less)
	return slices.Equal(a, b)
}

// drive is the test's own word for a powertrain: battery, fuel cell, or
// one that burns fuel (hybrids, plug-in hybrids and range extenders too).
func drive(fuel string) string {
	switch fuel {
	case catalog.FuelBEV, catalog.FuelFCEV:
		return fuel
	}
	return "burns"
}

// bothWays is the powertrain of each demo fitment of a model sold both
// ways that has no car of its own make, model, year and trim.
var bothWays = map[string]string{
	"Chevrolet Equinox 2017 LTZ": "burns", "Chevrolet Equinox 2023 LT": "burns", "Chevrolet Equinox 2023 Premier": "burns",
	"Chevrolet Equinox 2024 EV 2LT": catalog.FuelBEV, "Dodge Charger 2022 SXT": "burns", "Dodge Charger 2023 SRT Hellcat": "burns",
	"Genesis G80 2018 3.8": "burns", "Genesis G80 2020 3.8": "burns", "Hyundai Kona 2023 Limited": "burns",
	"Kia Niro 2017 Touring": "burns", "MINI Cooper 2022 Cooper": "burns", "MINI Cooper 2024 Cooper S": "burns",
	"MINI Countryman 2017 Cooper S ALL4": "burns", "Volvo XC40 2021 R-Design": "burns",
	"Volvo XC40 2021 Recharge": catalog.FuelBEV, "Volvo XC40 2023 Recharge": catalog.FuelBEV,
}

// demoDrives gives each demo fitment the powertrain it was written for: its
// own car's, else bothWays', else that of every car of its model.
func demoDrives(t *testing.T, c *catalog.Catalog) map[uuid.UUID]string {
	own, models := map[string]string{}, map[string]map[string]bool{}
	for _, car := range c.Cars {
		own[family(car.Make+car.Model)+fmt.Sprint(car.Year)+"|"+family(car.Trim)] = drive(car.FuelType)
		m := family(car.Make + car.Model)
		if models[m] == nil {
			models[m] = map[string]bool{}
		}
		models[m][drive(car.FuelType)] = true
	}
	out := map[uuid.UUID]string{}
	for _, f := range c.TireSizes {
		name := fmt.Sprintf("%s %s %d %s", f.Make, f.Model, f.Year, f.Trim)
		d, ok := own[family(f.Make+f.Model)+fmt.Sprint(f.Year)+"|"+family(f.Trim)]
		if !ok {
			d, ok = bothWays[name]
		}
		if ds := models[family(f.Make+f.Model)]; !ok && len(ds) == 1 {
			for only := range ds {
				d, ok = only, true
			}
		}
		if !ok {
			t.Fatalf("%s: a fitment of a model sold both ways with no car of its own; add its powertrain to bothWays", name)
		}
		out[f.UUID] = d
	}
	return out
}

func TestTiresForDemoCars(t *testing.T) {
	c := demo(t)
	svc := demoService(t)
	drives := demoDrives(t, c)
	matches := map[string]int{}
	for _, car := range c.Cars {
		got, err := svc.TiresForCar(car.UUID)
		if err != nil {
			t.Fatalf("TiresForCar(%s %s %d): %v", car.Make, car.Model, car.Year, err)
		}
		ours := func(f catalog.TireFitment) bool { return drives[f.UUID] == drive(car.FuelType) }
		wantMatch, wantIDs := expectTires(c.TireSizes, car.Make, car.Model, car.Year, ours)
		if got.Match != wantMatch || !sameIDs(fitmentIDs(got.Fitments), wantIDs) || got.Fitments == nil {
			t.Errorf("%s %s %d: match %s with %d fitments, want %s with %d", car.Make, car.Model, car.Year,
				got.Match, len(got.Fitments), wantMatch, len(wantIDs))
		}
		want := vehicle.CarRef{UUID: car.UUID, Make: car.Make, Model: car.Model, Year: car.Year, Trim: car.Trim}
		if got.Car != want {
			t.Errorf("car = %+v, want %+v", got.Car, want)
		}
		matches[got.Match]++
	}
	// No demo fitment is beyond the reach of every car (docs/data.md).
	for _, f := range c.TireSizes {
		reach := func(car catalog.Car) bool {
			d := car.Year - f.Year
			return family(car.Make+car.Model) == family(f.Make+f.Model) && drive(car.FuelType) == drives[f.UUID] &&
				d >= -vehicle.MaxNearestYears && d <= vehicle.MaxNearestYears
		}
		if !slices.ContainsFunc(c.Cars, reach) {
			t.Errorf("%s %s %d %s: no car of its model and powertrain within two model years", f.Make, f.Model, f.Year, f.Trim)
		}
	}
	// The demo must exercise every outcome for this test to mean anything.
	if matches[vehicle.MatchExactYear] == 0 || matches[vehicle.MatchNearestYear] == 0 || matches[vehicle.MatchNone] == 0 {
		t.Errorf("match outcomes over the demo: %v", matches)
	}
	t.Logf("match outcomes over the demo: %v", matches)
	t.Run("unknown car", func(t *testing.T) {
		_, err := svc.TiresForCar(uuid.MustParse("00000000-0000-4000-8000-000000000000"))
		if !errors.Is(err, vehicle.ErrNotFound) {
			t.Errorf("err = %v, want not_found", err)
		}
	})
}

// alternateOf holds an alternate within ±3% of each size the tests use.
var alternateOf = map[string]string{
	"255/70R16": "265/65R16", "265/70R17": "275/65R17", "275/65R18": "285/60R18", "LT315/70R17": "LT325/65R18",
}

func fitment(mk, model string, year int, trim, size string) catalog.TireFitment {
	f := catalog.TireFitment{Make: mk, Model: model, Year: year, Trim: trim, TireSize: size, AlternateSizes: []string{alternateOf[size]}}
	if errs := f.Normalize(); errs != nil {
		panic(errs)
	}
	return f
}

func car(mk, model string, year int) catalog.Car {
	d, cyl := 3.5, 6
	c := catalog.Car{Make: mk, Model: model, Year: year, Trim: "XLT", Body: "Pickup", FuelType: catalog.FuelGasoline,
		DriveType: "4WD", Transmission: "Automatic", DisplacementL: catalog.Some(d), Cylinders: catalog.Some(cyl)}
	if errs := c.Normalize(); errs != nil {
		panic(errs)
	}
	return c
}

func TestTiresNearestYear(t *testing.T) {
	fits := []catalog.TireFitment{
		fitment("Ford", "F-150", 2015, "XL", "265/70R17"),
		fitment("Ford", "F-150", 2018, "XL", "265/70R17"),
		fitment("Ford", "F-150", 2022, "XL", "275/65R18"),
		fitment("Ford", "F-150", 2022, "Raptor", "LT315/70R17"),
		fitment("FORD", "Ranger", 2020, "XL", "255/70R16"),
	}
	cars := []catalog.Car{
		car("Ford", "F150", 2020),   // 2018 and 2022 are both 2 years away
		car("Ford", "F150", 2019),   // 2018 is nearest
		car("ford", "f 150", 2022),  // exact, despite spelling
		car("Ford", "F150", 2025),   // beyond the newest
		car("Ford", "Ranger", 2020), // make differs only in case
		car("Ford", "Maverick", 2022),
	}
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: cars, TireSizes: fits}, catalog.Version{}))
	tests := []struct {
		name      string
		car       catalog.Car
		wantMatch string
		want      []catalog.TireFitment
	}{
		{"tie takes both years", cars[0], vehicle.MatchNearestYear, []catalog.TireFitment{fits[1], fits[2], fits[3]}},
		{"nearest earlier year", cars[1], vehicle.MatchNearestYear, []catalog.TireFitment{fits[1]}},
		{"exact year with punctuation and case differences", cars[2], vehicle.MatchExactYear, []catalog.TireFitment{fits[2], fits[3]}},
		{"three years past the newest fitment: none, not a guess", cars[3], vehicle.MatchNone, nil},
		{"make case", cars[4], vehicle.MatchExactYear, []catalog.TireFitment{fits[4]}},
		{"no fitments", cars[5], vehicle.MatchNone, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := svc.TiresForCar(tt.car.UUID)
			if err != nil {
				t.Fatal(err)
			}
			var want []uuid.UUID
			for _, f := range tt.want {
				want = append(want, f.UUID)
			}
			if got.Match != tt.wantMatch || !sameIDs(fitmentIDs(got.Fitments), want) {
				t.Errorf("match %s %v, want %s %v", got.Match, fitmentIDs(got.Fitments), tt.wantMatch, want)
			}
			if got.Fitments == nil {
				t.Error("fitments is nil; want an empty list")
			}
			// The same lookup by make, model and year.
			byName, err := svc.TiresFor(tt.car.Make, tt.car.Model, tt.car.Year)
			if err != nil {
				t.Fatal(err)
			}
			ids := make([]uuid.UUID, len(byName))
			for i, f := range byName {
				ids[i] = f.UUID
			}
			if !sameIDs(ids, want) || byName == nil {
				t.Errorf("TiresFor = %v, want %v", ids, want)
			}
			vt, err := svc.TiresForVehicle(tt.car.Make, tt.car.Model, tt.car.Year)
			if err != nil || vt.Match != tt.wantMatch || !sameIDs(fitmentIDs(vt.Fitments), want) {
				t.Errorf("TiresForVehicle = %+v, %v", vt, err)
			}
		})
	}
}

func TestTiresForErrors(t *testing.T) {
	svc := demoService(t)
	tests := []struct {
		name      string
		mk, model string
		year      int
		wantCode  string
		wantParam string
	}{
		{"no make", "", "Camry", 2020, vehicle.CodeMissingParameter, "make"},
		{"blank model", "Toyota", "  ", 2020, vehicle.CodeMissingParameter, "model"},
		{"year zero", "Toyota", "Camry", 0, vehicle.CodeInvalidParameter, "year"},
		{"year far future", "Toyota", "Camry", 3000, vehicle.CodeInvalidParameter, "year"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.TiresFor(tt.mk, tt.model, tt.year)
			wantError(t, err, tt.wantCode, tt.wantParam)
		})
	}
}

// rounded is the test's expectation of a SizeGeometry, straight from package tire.
func rounded(t *testing.T, size string) (vehicle.SizeGeometry, tire.Geometry) {
	t.Helper()
	sz, err := tire.Parse(size)
	if err != nil {
		t.Fatalf("parse %q: %v", size, err)
	}
	g := sz.Geometry()
	return vehicle.SizeGeometry{
		Size: sz.Canonical(), WidthMM: tire.Round(g.WidthMM, 1), WidthIn: tire.Round(g.WidthIn, 2),
		SidewallMM: tire.Round(g.SidewallMM, 1), SidewallIn: tire.Round(g.SidewallIn, 2),
		DiameterIn: tire.Round(g.DiameterIn, 2), DiameterMM: tire.Round(g.DiameterMM, 1),
		CircumferenceIn: tire.Round(g.CircumferenceIn, 2), CircumferenceMM: tire.Round(g.CircumferenceMM, 1),
		RevsPerMile: tire.Round(g.RevsPerMile, 1),
	}, g
}

func TestGeometry(t *testing.T) {
	c := demo(t)
	svc := demoService(t)
	rearAlts := 0
	for _, f := range c.TireSizes {
		fg, err := svc.Geometry(f.UUID)
		if err != nil {
			t.Fatalf("Geometry(%s): %v", f.UUID, err)
		}
		oem, oemG := rounded(t, f.TireSize)
		if fg.Fitment.UUID != f.UUID || fg.OEM != oem || fg.WindowPct != tire.FitmentWindowPct {
			t.Fatalf("%s: OEM %+v, want %+v", f.TireSize, fg.OEM, oem)
		}
		if (fg.Rear == nil) != (f.RearTireSize == nil) {
			t.Fatalf("%s: rear %v for rear size %v", f.TireSize, fg.Rear, f.RearTireSize)
		}
		if f.RearTireSize != nil {
			if rear, _ := rounded(t, *f.RearTireSize); *fg.Rear != rear {
				t.Errorf("rear %+v, want %+v", *fg.Rear, rear)
			}
		}
		checkAlternates(t, f.TireSize, oemG, f.AlternateSizes, fg.Alternates)
		if f.RearTireSize != nil {
			_, rearG := rounded(t, *f.RearTireSize)
			checkAlternates(t, *f.RearTireSize, rearG, f.RearAlternateSizes, fg.RearAlternates)
			rearAlts += len(fg.RearAlternates)
		} else if fg.RearAlternates == nil || len(fg.RearAlternates) != 0 {
			t.Errorf("%s: rear alternates %v, want empty", f.TireSize, fg.RearAlternates)
		}
	}
	// The demo's 21 rear alternates, counted in tire_sizes.csv.
	if rearAlts != 21 {
		t.Errorf("%d rear alternates in the geometry, want 21", rearAlts)
	}
	t.Run("json shape", func(t *testing.T) {
		var plain catalog.TireFitment
		for _, f := range c.TireSizes {
			if f.RearTireSize == nil {
				plain = f
				break
			}
		}
		fg, err := svc.Geometry(plain.UUID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(fg)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"fitment", "oem", "rear", "alternates", "rear_alternates", "window_pct"} {
			if _, ok := m[key]; !ok {
				t.Errorf("geometry JSON lacks %q: %s", key, b)
			}
		}
		if m["rear"] != nil || m["window_pct"] != 3.0 || len(m["rear_alternates"].([]any)) != 0 {
			t.Errorf("rear = %v, rear_alternates = %v, window_pct = %v", m["rear"], m["rear_alternates"], m["window_pct"])
		}
		alt := m["alternates"].([]any)[0].(map[string]any)
		for _, key := range []string{"size", "width_mm", "width_in", "sidewall_mm", "sidewall_in", "diameter_in", "diameter_mm",
			"circumference_in", "circumference_mm", "revs_per_mile", "diameter_diff_in", "diameter_diff_pct", "within_window"} {
			if _, ok := alt[key]; !ok {
				t.Errorf("alternate JSON lacks %q", key)
			}
		}
	})
	t.Run("outside the window", func(t *testing.T) {
		// Ingest accepts an alternate outside the window only when marked;
		// the demo has none, so this fitment is built here. 35x12.50R17LT
		// is +9.17% of LT255/75R17 (32.06 in); on the rear, 275/30R22
		// (28.50 in) is -0.29% of 275/35R21 (28.58 in).
		f := catalog.TireFitment{Make: "Jeep", Model: "Wrangler", Year: 2017, TireSize: "LT255/75R17", RearTireSize: ptr("275/35R21"),
			AlternateSizes: []string{"35x12.50R17LT"}, RearAlternateSizes: []string{"275/30R22"}}
		if errs := f.Normalize("35x12.50R17LT"); errs != nil {
			t.Fatal(errs)
		}
		fg, err := vehicle.NewService(snapshot(t, &catalog.Catalog{TireSizes: []catalog.TireFitment{f}}, catalog.Version{})).Geometry(f.UUID)
		if err != nil {
			t.Fatal(err)
		}
		if a := fg.Alternates[0]; a.WithinWindow || a.DiameterDiffPct != 9.17 {
			t.Errorf("front alternate %+v, want +9.17%% outside the window", a)
		}
		if a := fg.RearAlternates[0]; !a.WithinWindow || a.DiameterDiffPct != -0.29 {
			t.Errorf("rear alternate %+v, want -0.29%% within the window", a)
		}
	})
	t.Run("unknown fitment", func(t *testing.T) {
		_, err := svc.Geometry(c.Cars[0].UUID)
		wantError(t, err, vehicle.CodeNotFound, "")
	})
}

// checkAlternates compares the geometry of one axle's alternates with package tire's.
func checkAlternates(t *testing.T, oemSize string, oem tire.Geometry, sizes []string, got []vehicle.AlternateGeometry) {
	t.Helper()
	if len(got) != len(sizes) {
		t.Fatalf("%s: %d alternates, want %d", oemSize, len(got), len(sizes))
	}
	for i, a := range sizes {
		want, g := rounded(t, a)
		cmp := tire.Compare(oem, g)
		if got[i].SizeGeometry != want || got[i].DiameterDiffIn != tire.Round(cmp.DiameterDiffIn, 2) ||
			got[i].DiameterDiffPct != tire.Round(cmp.DiameterDiffPct, 2) || !got[i].WithinWindow {
			t.Errorf("%s alternate %s = %+v, want %+v %+v within the window", oemSize, a, got[i], want, cmp)
		}
	}
}

// combustionTrim names an engine: a range extender, a hybrid, a diesel, or
// a displacement (2.5T, 3.8).
var combustionTrim = regexp.MustCompile(`(?i)\b(rex|range extender|hybrid|plug-in|phev|diesel)\b|\d\.\d`)

// checkEVTires asserts that no battery-electric car gets the fitment of
// another model, nor one written for an engine: its trim names one, or
// the demo holds a car of its make, model, year and trim that burns fuel.
func checkEVTires(t *testing.T, svc *vehicle.Service, cars []catalog.Car) (evs int) {
	t.Helper()
	burns := map[string]bool{}
	for _, car := range demo(t).Cars {
		if drive(car.FuelType) == "burns" {
			burns[family(car.Make+car.Model)+fmt.Sprint(car.Year)+"|"+family(car.Trim)] = true
		}
	}
	for _, car := range cars {
		if car.FuelType != catalog.FuelBEV {
			continue
		}
		evs++
		got, err := svc.TiresForCar(car.UUID)
		if err != nil {
			t.Fatal(err)
		}
		for _, fg := range got.Fitments {
			f := fg.Fitment
			if family(f.Model) != family(car.Model) || combustionTrim.MatchString(f.Trim) ||
				burns[family(f.Make+f.Model)+fmt.Sprint(f.Year)+"|"+family(f.Trim)] {
				t.Errorf("%d %s %s %s (BEV) gets the fitment of the %d %s %s", car.Year, car.Make, car.Model, car.Trim, f.Year, f.Model, f.Trim)
			}
		}
	}
	return evs
}

// An electric car gets the fitments of its own model and powertrain or
// none, never a combustion, hybrid or range-extender sibling's.
func TestEVTiresAreTheirOwn(t *testing.T) {
	if evs := checkEVTires(t, demoService(t), demo(t).Cars); evs < 20 {
		t.Fatalf("%d battery-electric demo cars; the test needs the demo's", evs)
	}
}

// The four demo EVs that once got a sibling's fitment, and their siblings.
func TestTiresFollowThePowertrain(t *testing.T) {
	c := demo(t)
	svc := demoService(t)
	find := func(mk, model string, year int, trim string) catalog.Car {
		for _, car := range c.Cars {
			if car.Make == mk && car.Model == model && car.Year == year && car.Trim == trim {
				return car
			}
		}
		t.Fatalf("no demo car %s %s %d %s", mk, model, year, trim)
		return catalog.Car{}
	}
	for _, tc := range []struct {
		car       catalog.Car
		wantMatch string
		wantTrims []string
	}{
		{find("BMW", "i3", 2015, "Base"), vehicle.MatchExactYear, []string{"Base"}},
		{find("BMW", "i3", 2015, "REx"), vehicle.MatchExactYear, []string{"REx"}},
		{find("Honda", "Clarity", 2018, "Electric"), vehicle.MatchExactYear, []string{"Electric"}},
		{find("Honda", "Clarity", 2018, "Plug-In Hybrid Touring"), vehicle.MatchExactYear, []string{"Plug-In Hybrid Touring"}},
		{find("Hyundai", "Kona", 2019, "Electric Limited"), vehicle.MatchNone, nil},
		{find("Hyundai", "Kona", 2019, "SEL"), vehicle.MatchExactYear, []string{"SEL"}},
		{find("Genesis", "G80", 2023, "Electrified G80"), vehicle.MatchNone, nil},
		{find("Genesis", "G80", 2021, "2.5T Advanced"), vehicle.MatchNearestYear, []string{"3.8"}},
	} {
		got, err := svc.TiresForCar(tc.car.UUID)
		if err != nil {
			t.Fatal(err)
		}
		var trims []string
		for _, fg := range got.Fitments {
			trims = append(trims, fg.Fitment.Trim)
		}
		if got.Match != tc.wantMatch || !slices.Equal(trims, tc.wantTrims) {
			t.Errorf("%d %s %s %s: match %s %q, want %s %q", tc.car.Year, tc.car.Make, tc.car.Model, tc.car.Trim,
				got.Match, trims, tc.wantMatch, tc.wantTrims)
		}
	}
}

// The rule holds on cars named as EPA names them (its baseModel, the rest
// as trim), as `vds ingest --source epa` loads them beside the demo's
// fitments: trims that match no fitment's.
func TestTiresFollowThePowertrainEPANames(t *testing.T) {
	variant := func(mk, model string, year int, trim, fuel string) catalog.Car {
		c := car(mk, model, year)
		c.Trim, c.FuelType = trim, fuel
		if fuel == catalog.FuelBEV {
			c.DisplacementL, c.Cylinders = catalog.Opt[float64]{}, catalog.Opt[int]{}
		}
		if errs := c.Normalize(); errs != nil {
			panic(errs)
		}
		return c
	}
	ev := func(mk, model string, year int, trim string) catalog.Car {
		return variant(mk, model, year, trim, catalog.FuelBEV)
	}
	gas := func(mk, model string, year int, trim string) catalog.Car {
		return variant(mk, model, year, trim, catalog.FuelGasoline)
	}
	fits := []catalog.TireFitment{
		fitment("BMW", "i3", 2015, "REx", "255/70R16"),
		fitment("Hyundai", "Kona", 2019, "SEL", "265/70R17"),
		fitment("Hyundai", "Kona", 2021, "Electric", "275/65R18"),
		fitment("Genesis", "G80", 2025, "2.5T", "265/70R17"),
		fitment("Tesla", "Model 3", 2021, "Long Range", "255/70R16"),
	}
	cars := []catalog.Car{
		ev("BMW", "i3", 2015, "BEV"), gas("BMW", "i3", 2015, "REX"),
		ev("Hyundai", "Kona", 2019, "Electric"), gas("Hyundai", "Kona", 2019, "FWD"),
		ev("Genesis", "G80", 2023, "Electrified G80"), gas("Genesis", "G80", 2024, "AWD"),
		ev("Tesla", "Model 3", 2021, "Long Range AWD"),
	}
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: cars, TireSizes: fits}, catalog.Version{}))
	for i, want := range [][]catalog.TireFitment{nil, {fits[0]}, {fits[2]}, {fits[1]}, nil, {fits[3]}, {fits[4]}} {
		got, err := svc.TiresForCar(cars[i].UUID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uuid.UUID
		for _, f := range want {
			ids = append(ids, f.UUID)
		}
		if !sameIDs(fitmentIDs(got.Fitments), ids) {
			t.Errorf("%d %s %s %s: %d fitments %v, want %v", cars[i].Year, cars[i].Make, cars[i].Model, cars[i].Trim,
				len(got.Fitments), fitmentIDs(got.Fitments), ids)
		}
	}
	// A lookup by make, model and year knows no powertrain: it gets all.
	if vt, err := svc.TiresForVehicle("BMW", "i3", 2015); err != nil || len(vt.Fitments) != 1 {
		t.Errorf("TiresForVehicle(BMW i3 2015) = %+v, %v; want the REx fitment", vt, err)
	}
}

package epa

import (
	"context"
	"encoding/csv"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/google/uuid"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/fixture"
	"github.com/vds-dev/vds/internal/ingest"
)

var (
	realOnce sync.Once
	realTab  *Table
	realErr  error
)

// realTable is testdata's EPA export, loaded once for every test.
func realTable(tb testing.TB) *Table {
	tb.Helper()
	path := fixture.EPAZip(tb)
	realOnce.Do(func() { realTab, realErr = Load(context.Background(), path, nil, nil) })
	if realErr != nil {
		tb.Fatalf("%s: %v", path, realErr)
	}
	return realTab
}

func demoCatalog(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	src, err := ingest.DemoSources()
	if err != nil {
		tb.Fatal(err)
	}
	c, _, err := ingest.Parse(src)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func demoCars(tb testing.TB) []catalog.Car { return demoCatalog(tb).Cars }

// family folds a model name for the same-family check. It is written apart
// from the package's fold on purpose, so the test does not grade the code
// with its own ruler.
func family(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// sameFamily accepts a row whose baseModel is the car's model, whose model
// starts with it at a word boundary, or whose model has all its words (the
// documented fallbacks).
func sameFamily(car catalog.Car, r Row) bool {
	want := family(car.Model)
	if family(r.BaseModel) == want {
		return true
	}
	acc := ""
	for _, w := range strings.Fields(r.Model) {
		if acc += family(w); acc == want {
			return true
		}
	}
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(r.Model, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }) {
		have[strings.ToLower(w)] = true
	}
	for _, w := range strings.FieldsFunc(car.Model, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }) {
		if !have[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

func TestDemoCatalogMatchRate(t *testing.T) {
	tb := realTable(t)
	if tb.Len() != 49582 {
		t.Errorf("%d rows, want the 49,582 of SOURCES.md", tb.Len())
	}
	cars := demoCars(t)
	res := Enrich(tb, cars, nil)

	rate := float64(len(res.Matched)) / float64(len(cars))
	t.Logf("matched %d of %d demo cars (%.2f%%), unmatched %d", len(res.Matched), len(cars), 100*rate, len(res.Unmatched))
	for _, c := range res.Unmatched {
		t.Logf("unmatched: %d %s %s %s (%s, %s)", c.Year, c.Make, c.Model, c.Trim, c.FuelType, c.DriveType)
	}
	if rate < 0.95 {
		t.Errorf("match rate %.2f%%, want at least 95%%", 100*rate)
	}
	if len(res.Matched)+len(res.Unmatched) != len(cars) {
		t.Errorf("%d matched + %d unmatched for %d cars", len(res.Matched), len(res.Unmatched), len(cars))
	}

	for _, c := range cars {
		fe, ok := res.Matched[c.UUID]
		if !ok {
			continue
		}
		id := fe.EPAID.V
		r, ok := tb.Row(id)
		switch {
		case !ok:
			t.Errorf("%s %s %d: matched to unknown id %d", c.Make, c.Model, c.Year, id)
		case !strings.EqualFold(r.Make, c.Make) || r.Year != c.Year || !sameFamily(c, r):
			t.Errorf("%d %s %s %s matched to another vehicle: id %d %d %s %s (%s)", c.Year, c.Make, c.Model, c.Trim, id, r.Year, r.Make, r.Model, r.BaseModel)
		}
		if !fe.MPGCombined.Valid || fe.MPGCombined.V != r.Comb08 {
			t.Errorf("%s %s %d: mpg_combined %v, row %d has %v", c.Make, c.Model, c.Year, fe.MPGCombined, id, r.Comb08)
		}
	}

	// The row SOURCES.md quotes, as parsed from the zip.
	camry, ok := tb.Row(47085)
	wantCamry := Row{ID: 47085, Year: 2024, Make: "Toyota", BaseModel: "Camry", Model: "Camry", Drive: "Front-Wheel Drive",
		FuelType: "Regular", FuelType1: "Regular Gasoline", Trany: "Automatic (S8)", Displ: 3.5, Cylinders: 6,
		City08: 22, Highway08: 33, Comb08: 26, FuelCost08: 1750, CO2TailpipeGpm: 338.0, EngDscr: "SIDI & PFI", VClass: "Midsize Cars", PV4: 100, LV4: 14}
	if !ok || camry != wantCamry {
		t.Errorf("row 47085 = %+v\nwant %+v", camry, wantCamry)
	}

	// The demo has no 2024 Camry V6, so spot-check demo cars instead, with
	// values read from the file by id: a plain gasoline car, a trim that
	// only its words tell apart, and a plug-in hybrid with a range.
	for _, sc := range []struct {
		make, model string
		year        int
		trim        string
		id          int
		want        catalog.FuelEconomy
	}{
		{"Toyota", "Camry", 2015, "LE", 35734, catalog.FuelEconomy{EPAID: catalog.Some(35734), MPGCity: catalog.Some(25.0), MPGHighway: catalog.Some(34.0), MPGCombined: catalog.Some(28.0), AnnualFuelCost: catalog.Some(1600), CO2GPM: catalog.Some(313.0)}},
		{"Toyota", "Camry", 2022, "SE Hybrid", 44351, catalog.FuelEconomy{EPAID: catalog.Some(44351), MPGCity: catalog.Some(44.0), MPGHighway: catalog.Some(47.0), MPGCombined: catalog.Some(46.0), AnnualFuelCost: catalog.Some(1000), CO2GPM: catalog.Some(195.0)}},
		{"Tesla", "Model 3", 2024, "Performance", 48796, catalog.FuelEconomy{EPAID: catalog.Some(48796), MPGCity: catalog.Some(117.0), MPGHighway: catalog.Some(107.0), MPGCombined: catalog.Some(112.0), EPARangeMiles: catalog.Some(303), AnnualFuelCost: catalog.Some(700), CO2GPM: catalog.Some(0.0)}},
		{"Toyota", "RAV4 Prime", 2024, "XSE Premium", 47502, catalog.FuelEconomy{EPAID: catalog.Some(47502), MPGCity: catalog.Some(40.0), MPGHighway: catalog.Some(36.0), MPGCombined: catalog.Some(38.0), EPARangeMiles: catalog.Some(600), EPAElectricRangeMiles: catalog.Some(42), AnnualFuelCost: catalog.Some(1200), CO2GPM: catalog.Some(72.0)}},
	} {
		var found bool
		for _, c := range cars {
			if c.Make != sc.make || c.Model != sc.model || c.Year != sc.year || c.Trim != sc.trim {
				continue
			}
			found = true
			got := res.Matched[c.UUID]
			if !got.EPAID.Valid || got.EPAID.V != sc.id {
				t.Errorf("%d %s %s %s: row %v, want %d", sc.year, sc.make, sc.model, sc.trim, got.EPAID, sc.id)
			}
			if gs, ws := show(got), show(sc.want); gs != ws {
				t.Errorf("%d %s %s %s: %s, want %s", sc.year, sc.make, sc.model, sc.trim, gs, ws)
			}
		}
		if !found {
			t.Errorf("demo has no %d %s %s %s", sc.year, sc.make, sc.model, sc.trim)
		}
	}
}

func TestLoadPlainSubset(t *testing.T) {
	plain, err := Load(context.Background(), fixture.EPA2015(t), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Len() != 15169 {
		t.Errorf("%d rows, want the 15,169 of SOURCES.md", plain.Len())
	}
	full := realTable(t)
	for _, r := range plain.Rows {
		if fr, ok := full.Row(r.ID); !ok || fr != r {
			t.Fatalf("row %d differs between the plain subset and the zip", r.ID)
		}
	}
	// Every demo car is from 2015 or later, so the subset must pick the
	// same rows as the full file: the rule looks at ids, not at file shape.
	cars := demoCars(t)
	a, b := Enrich(plain, cars, nil), Enrich(full, cars, nil)
	for id, fe := range b.Matched {
		if got := a.Matched[id].EPAID; got != fe.EPAID {
			t.Errorf("car %s: row %v from the subset, %d from the zip", id, got, fe.EPAID.V)
		}
	}
}

func BenchmarkLoadEnrich(b *testing.B) {
	path := fixture.EPAZip(b)
	cars := demoCars(b)
	b.ReportAllocs()
	for b.Loop() {
		tb, err := Load(context.Background(), path, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res := Enrich(tb, cars, nil); len(res.Matched) == 0 {
			b.Fatal("nothing matched")
		}
	}
}

func BenchmarkEnrich(b *testing.B) {
	cars := demoCars(b)
	tb := realTable(b)
	b.ReportAllocs()
	for b.Loop() {
		Enrich(tb, cars, nil)
	}
}

// demoCSV is the embedded demo catalog's cars file, which
// UPDATE_DEMO_EPA=1 rewrites with the pins this test checks.
const demoCSV = "../catalog/demo/cars.csv"

// TestDemoPinsEPARows: every demo car pins the EPA row the matcher picks
// from the real file (its pin and wheel size aside) and carries exactly that
// row's figures, so `serve --demo` shows what `vds enrich` computes.
func TestDemoPinsEPARows(t *testing.T) {
	tb := realTable(t)
	c := demoCatalog(t)
	unpinned := slices.Clone(c.Cars)
	for i := range unpinned {
		unpinned[i].FuelEconomy = catalog.FuelEconomy{}
	}
	res := Enrich(tb, unpinned, WheelSizes(unpinned, c.TireSizes))
	if os.Getenv("UPDATE_DEMO_EPA") != "" {
		updateDemoCSV(t, c.Cars, res.Matched)
		return
	}
	pinned := 0
	for _, car := range c.Cars {
		want, ok := res.Matched[car.UUID]
		if !ok {
			if car.EPAID.Valid {
				t.Errorf("%d %s %s %s pins %d, which the matcher does not find", car.Year, car.Make, car.Model, car.Trim, car.EPAID.V)
			}
			continue
		}
		if r, _ := tb.Row(want.EPAID.V); car.FuelType == catalog.FuelHEV && strings.Contains(r.EngDscr, "Mild Hybrid") {
			t.Errorf("%d %s %s %s is a mild hybrid (%s) labelled HEV", car.Year, car.Make, car.Model, car.Trim, r.EngDscr)
		}
		if show(car.FuelEconomy) != show(want) {
			t.Errorf("%d %s %s %s: demo has %s, the file gives %s (run UPDATE_DEMO_EPA=1 go test ./internal/epa -run TestDemoPinsEPARows)",
				car.Year, car.Make, car.Model, car.Trim, show(car.FuelEconomy), show(want))
			continue
		}
		pinned++
	}
	t.Logf("%d of %d demo cars pin their EPA row with its figures; %d matches tie with rows of other figures", pinned, len(c.Cars), len(res.Ambiguous))
	if pinned*100 < 99*len(c.Cars) {
		t.Errorf("%d of %d demo cars carry EPA figures, want at least 99%%", pinned, len(c.Cars))
	}
}

// updateDemoCSV writes the matched EPA id and figures into demoCSV's
// columns, keeping every other cell and the row order.
func updateDemoCSV(t *testing.T, cars []catalog.Car, matched map[uuid.UUID]catalog.FuelEconomy) {
	f, err := os.Open(demoCSV)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows)-1 != len(cars) {
		t.Fatalf("%s has %d rows for %d cars", demoCSV, len(rows)-1, len(cars))
	}
	cols := []string{"epa_id", "mpg_city", "mpg_highway", "mpg_combined", "epa_range_miles", "epa_electric_range_miles", "annual_fuel_cost", "co2_gpm"}
	at := map[string]int{}
	for _, col := range cols {
		i := slices.Index(rows[0], col)
		if i < 0 {
			i = len(rows[0])
			rows[0] = append(rows[0], col)
		}
		at[col] = i
	}
	num := func(o catalog.Opt[float64]) string {
		if !o.Valid {
			return ""
		}
		return strconv.FormatFloat(o.V, 'f', -1, 64)
	}
	whole := func(o catalog.Opt[int]) string {
		if !o.Valid {
			return ""
		}
		return strconv.Itoa(o.V)
	}
	for i, car := range cars {
		row := rows[i+1]
		if row[0] != car.Make || row[2] != strconv.Itoa(car.Year) {
			t.Fatalf("%s row %d is %v, the parsed car %d %s", demoCSV, i+2, row[:3], car.Year, car.Make)
		}
		for len(row) < len(rows[0]) {
			row = append(row, "")
		}
		fe := matched[car.UUID]
		row[at["epa_id"]], row[at["epa_range_miles"]], row[at["annual_fuel_cost"]] = whole(fe.EPAID), whole(fe.EPARangeMiles), whole(fe.AnnualFuelCost)
		row[at["epa_electric_range_miles"]] = whole(fe.EPAElectricRangeMiles)
		row[at["mpg_city"]], row[at["mpg_highway"]], row[at["mpg_combined"]], row[at["co2_gpm"]] = num(fe.MPGCity), num(fe.MPGHighway), num(fe.MPGCombined), num(fe.CO2GPM)
		rows[i+1] = row
	}
	out, err := os.Create(demoCSV)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(out)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote the EPA id and figures of %d cars into %s", len(matched), demoCSV)
}

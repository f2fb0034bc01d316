package epa

import (
	"context"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
)

// The real EPA data lives beside the project (see ../shared/data/SOURCES.md),
// never inside it.
const (
	realZip   = "../../../shared/data/epa-fueleconomy/vehicles.csv.zip"
	realPlain = "../../../shared/data/epa-fueleconomy/vehicles-2015-2026.csv"
)

// needData fails the test when the shared data is missing: a missing file
// must not turn the match-rate promise into a silent pass.
func needData(tb testing.TB, path string) {
	tb.Helper()
	if _, err := os.Stat(path); err != nil {
		tb.Fatalf("shared EPA data missing: %s (the fueleconomy.gov export beside the repository): %v", path, err)
	}
}

func demoCars(tb testing.TB) []catalog.Car {
	tb.Helper()
	src, err := ingest.DemoSources()
	if err != nil {
		tb.Fatal(err)
	}
	c, _, err := ingest.Parse(src)
	if err != nil {
		tb.Fatal(err)
	}
	return c.Cars
}

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

// sameFamily accepts a row whose baseModel is the car's model, or whose
// model starts with it at a word boundary (the documented fallback).
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
	return false
}

func TestDemoCatalogMatchRate(t *testing.T) {
	needData(t, realZip)
	tb, err := Load(context.Background(), realZip, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Len() != 49582 {
		t.Errorf("%d rows, want the 49,582 of SOURCES.md", tb.Len())
	}
	cars := demoCars(t)
	res := Enrich(tb, cars)

	rate := float64(len(res.Matched)) / float64(len(cars))
	t.Logf("matched %d of %d demo cars (%.2f%%), unmatched %d", len(res.Matched), len(cars), 100*rate, len(res.Unmatched))
	for _, c := range res.Unmatched {
		t.Logf("unmatched: %d %s %s %s (%s, %s)", c.Year, c.Make, c.Model, c.Trim, c.FuelType, c.DriveType)
	}
	if rate < 0.95 {
		t.Errorf("match rate %.2f%%, want at least 95%%", 100*rate)
	}
	if len(res.Matched)+len(res.Unmatched) != len(cars) || len(res.MatchedRows) != len(res.Matched) {
		t.Errorf("%d matched + %d unmatched (%d rows) for %d cars", len(res.Matched), len(res.Unmatched), len(res.MatchedRows), len(cars))
	}

	for _, c := range cars {
		id, ok := res.MatchedRows[c.UUID]
		if !ok {
			continue
		}
		r, ok := tb.Row(id)
		switch {
		case !ok:
			t.Errorf("%s %s %d: matched to unknown id %d", c.Make, c.Model, c.Year, id)
		case !strings.EqualFold(r.Make, c.Make) || r.Year != c.Year || !sameFamily(c, r):
			t.Errorf("%d %s %s %s matched to another vehicle: id %d %d %s %s (%s)", c.Year, c.Make, c.Model, c.Trim, id, r.Year, r.Make, r.Model, r.BaseModel)
		}
		fe := res.Matched[c.UUID]
		if fe.MPGCombined == nil || *fe.MPGCombined != r.Comb08 {
			t.Errorf("%s %s %d: mpg_combined %v, row %d has %v", c.Make, c.Model, c.Year, val(fe.MPGCombined), id, r.Comb08)
		}
	}

	// The row SOURCES.md quotes, as parsed from the zip.
	camry, ok := tb.Row(47085)
	wantCamry := Row{ID: 47085, Year: 2024, Make: "Toyota", BaseModel: "Camry", Model: "Camry", Drive: "Front-Wheel Drive",
		FuelType: "Regular", FuelType1: "Regular Gasoline", Trany: "Automatic (S8)", Displ: 3.5, Cylinders: 6,
		City08: 22, Highway08: 33, Comb08: 26, FuelCost08: 1750, CO2TailpipeGpm: 338.0}
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
		{"Toyota", "Camry", 2015, "LE", 35734, catalog.FuelEconomy{MPGCity: ptr(25.0), MPGHighway: ptr(34.0), MPGCombined: ptr(28.0), AnnualFuelCost: ptr(1600), CO2GPM: ptr(313.0)}},
		{"Toyota", "Camry", 2022, "SE Hybrid", 44351, catalog.FuelEconomy{MPGCity: ptr(44.0), MPGHighway: ptr(47.0), MPGCombined: ptr(46.0), AnnualFuelCost: ptr(1000), CO2GPM: ptr(195.0)}},
		{"Tesla", "Model 3", 2024, "Performance", 48796, catalog.FuelEconomy{MPGCity: ptr(117.0), MPGHighway: ptr(107.0), MPGCombined: ptr(112.0), EPARangeMiles: ptr(303), AnnualFuelCost: ptr(700), CO2GPM: ptr(0.0)}},
		{"Toyota", "RAV4 Prime", 2024, "XSE Premium", 47502, catalog.FuelEconomy{MPGCity: ptr(40.0), MPGHighway: ptr(36.0), MPGCombined: ptr(38.0), EPARangeMiles: ptr(600), AnnualFuelCost: ptr(1200), CO2GPM: ptr(72.0)}},
	} {
		var found bool
		for _, c := range cars {
			if c.Make != sc.make || c.Model != sc.model || c.Year != sc.year || c.Trim != sc.trim {
				continue
			}
			found = true
			if got := res.MatchedRows[c.UUID]; got != sc.id {
				t.Errorf("%d %s %s %s: row %d, want %d", sc.year, sc.make, sc.model, sc.trim, got, sc.id)
			}
			got := res.Matched[c.UUID]
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
	needData(t, realPlain)
	needData(t, realZip)
	plain, err := Load(context.Background(), realPlain, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Len() != 15169 {
		t.Errorf("%d rows, want the 15,169 of SOURCES.md", plain.Len())
	}
	full, err := Load(context.Background(), realZip, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range plain.Rows {
		if fr, ok := full.Row(r.ID); !ok || fr != r {
			t.Fatalf("row %d differs between the plain subset and the zip", r.ID)
		}
	}
	// Every demo car is from 2015 or later, so the subset must pick the
	// same rows as the full file: the rule looks at ids, not at file shape.
	cars := demoCars(t)
	a, b := Enrich(plain, cars), Enrich(full, cars)
	for id, row := range b.MatchedRows {
		if a.MatchedRows[id] != row {
			t.Errorf("car %s: row %d from the subset, %d from the zip", id, a.MatchedRows[id], row)
		}
	}
}

func BenchmarkLoadEnrich(b *testing.B) {
	needData(b, realZip)
	cars := demoCars(b)
	b.ReportAllocs()
	for b.Loop() {
		tb, err := Load(context.Background(), realZip, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res := Enrich(tb, cars); len(res.Matched) == 0 {
			b.Fatal("nothing matched")
		}
	}
}

func BenchmarkEnrich(b *testing.B) {
	needData(b, realZip)
	cars := demoCars(b)
	tb, err := Load(context.Background(), realZip, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Enrich(tb, cars)
	}
}

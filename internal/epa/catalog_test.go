package epa

import (
	"encoding/csv"
	"os"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/fixture"
)

func TestCarsFromRows(t *testing.T) {
	tb := tinyTable(t, tinyCSV)
	cars, err := Cars(tb)
	if err != nil {
		t.Fatal(err)
	}
	if len(cars) != tb.Len() {
		t.Fatalf("%d cars from %d rows", len(cars), tb.Len())
	}
	byID := map[int]catalog.Car{}
	for _, c := range cars {
		if !c.EPAID.Valid || c.UUID != catalog.EPACarUUID(c.EPAID.V) {
			t.Fatalf("%s %s: epa_id %v, uuid %s not derived from it", c.Model, c.Trim, c.EPAID, c.UUID)
		}
		byID[c.EPAID.V] = c
	}
	sport, ev := byID[21], byID[14]
	if sport.Model != "Widget" || sport.Trim != "Sport" || sport.DriveType != "AWD" || sport.FuelType != catalog.FuelGasoline ||
		sport.DisplacementL.V != 2.0 || sport.MPGCombined.V != 27 {
		t.Errorf("row 21: %+v", sport)
	}
	if ev.FuelType != catalog.FuelBEV || ev.DisplacementL.Valid || ev.DriveType != "AWD" || ev.EPARangeMiles.V != 300 || !ev.Electrified {
		t.Errorf("row 14 (EV, 4-Wheel or All-Wheel Drive): %+v", ev)
	}
	if cng := byID[19]; cng.FuelType != catalog.FuelCNG {
		t.Errorf("row 19 (CNG): fuel %q", cng.FuelType)
	}
}

func TestBodyOfRow(t *testing.T) {
	for _, tc := range []struct {
		r    Row
		want string
	}{
		{Row{Model: "M4 Coupe", VClass: "Subcompact Cars", PV2: 80, PV4: 0}, "Coupe"},
		{Row{Model: "Civic 5Dr", VClass: "Midsize Cars", HPV: 90}, "Hatchback"},
		{Row{Model: "Mustang Convertible", VClass: "Subcompact Cars", PV2: 80}, "Convertible"},
		{Row{Model: "Camry", VClass: "Midsize Cars", PV4: 100, LV4: 15}, "Sedan"},
		{Row{Model: "Corvette", VClass: "Two Seaters"}, "Coupe"},
		{Row{Model: "F150 Pickup 4WD", VClass: "Standard Pickup Trucks 4WD"}, "Pickup"},
		{Row{Model: "Odyssey", VClass: "Minivan - 2WD"}, "Minivan"},
		{Row{Model: "Transit Connect Van 2WD", VClass: "Special Purpose Vehicle 2WD"}, "Van"},
		{Row{Model: "4Runner 4WD", VClass: "Special Purpose Vehicle 4WD"}, "SUV"},
		{Row{Model: "V90 CC AWD", VClass: "Midsize Station Wagons"}, "Wagon"},
	} {
		said, _ := rowBodies(&tc.r, words(tc.r.Model))
		if got := bodyOf(&tc.r, said); got != tc.want {
			t.Errorf("%q (%s): %s, want %s", tc.r.Model, tc.r.VClass, got, tc.want)
		}
	}
}

// The real file builds one car per row: as many cars of each make as an
// independent count of the CSV, every uuid distinct and from its EPA id.
func TestCarsFromRealFile(t *testing.T) {
	cars, err := Cars(realTable(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(cars) != 49582 {
		t.Fatalf("%d cars, want one per row: 49,582", len(cars))
	}
	seen := map[uuid.UUID]bool{}
	byMake := map[string]int{}
	for _, c := range cars {
		if seen[c.UUID] {
			t.Fatalf("uuid %s twice", c.UUID)
		}
		seen[c.UUID] = true
		byMake[strings.ToLower(c.Make)]++
	}
	want := countMakes(t, fixture.EPA2015(t))
	// The plain file is 2015-2026 only: compare the makes on those years.
	got := map[string]int{}
	for _, c := range cars {
		if c.Year >= 2015 {
			got[strings.ToLower(c.Make)]++
		}
	}
	for mk, n := range want {
		if got[mk] != n {
			t.Errorf("%s: %d cars from 2015 on, the CSV has %d rows", mk, got[mk], n)
		}
	}
	t.Logf("%d cars of %d makes", len(cars), len(byMake))
	checkEVTires(t, cars)
}

// countMakes counts a vehicles.csv's rows by make with the csv package
// alone, as a reader of the file would.
func countMakes(t *testing.T, path string) map[string]int {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range rows[0] {
		if h == "make" {
			col = i
		}
	}
	out := map[string]int{}
	for _, r := range rows[1:] {
		out[strings.ToLower(r[col])]++
	}
	return out
}

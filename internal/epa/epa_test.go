package epa

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
)

// tinyCSV has several configurations of one model, columns in an order of
// their own plus one the parser does not read, a quoted cell with a comma,
// a ragged row (the EV lacks its last cell) and CRLF line endings, like the
// real file. Row 21 comes before row 20 so the tie-break cannot lean on file
// order.
var tinyCSV = strings.ReplaceAll(`id,make,baseModel,model,year,drive,atvType,fuelType,fuelType1,trany,displ,cylinders,city08,highway08,comb08,range,fuelCost08,co2TailpipeGpm,eng_dscr
21,Acme,Widget,Widget Sport,2024,All-Wheel Drive,,Regular,Regular Gasoline,Automatic (S8),2.0,4,24,31,27,0,1650,330.5,"SIDI, turbo"
20,Acme,Widget,Widget,2024,All-Wheel Drive,,Regular,Regular Gasoline,Automatic (S8),2.0,4,25,32,28,0,1600,320.0,"SIDI, turbo"
11,Acme,Widget,Widget,2024,All-Wheel Drive,,Regular,Regular Gasoline,Automatic (S8),2.0,4,23,30,26,0,1700,345.0,"SIDI, turbo; Municipal"
10,Acme,Widget,Widget FWD,2024,Front-Wheel Drive,,Regular,Regular Gasoline,Automatic (S8),2.0,4,28,36,31,0,1400,290.0,
22,Acme,Widget,Widget 4WD 3.0,2024,4-Wheel Drive,,Premium,Premium Gasoline,Automatic (S8),3.0,6,19,26,22,0,2450,400.0,
12,Acme,Widget,Widget AWD 2.5,2024,All-Wheel Drive,,Premium,Premium Gasoline,Automatic (S8),2.5,4,22,30,25,0,2100,355.0,
13,Acme,Widget,Widget Hybrid,2024,All-Wheel Drive,Hybrid,Regular,Regular Gasoline,Automatic (AV-S6),2.5,4,41,38,40,0,1000,222.0,
14,Acme,Widget,Widget EV,2024,4-Wheel or All-Wheel Drive,EV,Electricity,Electricity,Automatic (A1),,,120,100,110,300,650,0.0
17,Acme,Widget,Widget Performance AWD,2024,All-Wheel Drive,,Regular,Regular Gasoline,Automatic (S10),2.0,4,23,30,26,0,1700,340.0,
18,Acme,Widget,Widget,2023,Front-Wheel Drive,,Regular,Regular Gasoline,Automatic (S8),2.0,4,27,35,30,0,1450,295.0,
15,Acme,Gizmo Truck,Gizmo Pickup 2WD,2024,2-Wheel Drive,,Regular,Regular Gasoline,Automatic 6-spd,3.6,6,18,24,20,0,2450,440.0,
16,Acme,Gizmoid,Gizmoid,2024,Front-Wheel Drive,,Regular,Regular Gasoline,Automatic 6-spd,1.5,4,30,38,33,0,1300,270.0,
30,Acme,F150,F150 Pickup 4WD,2024,4-Wheel Drive,,Regular,Regular Gasoline,Automatic 10-spd,3.5,6,18,23,20,0,2450,441.0,"FFS, turbo"
19,Acme,Blip,Blip,2024,Front-Wheel Drive,CNG,CNG,Natural Gas,Automatic (A1),2.0,4,25,33,28,0,1500,220.0,
`, "\n", "\r\n")

// car builds a catalog car; displ 0 means no engine.
func car(model string, year int, fuel, drive, trans string, displ float64, cyl int, trim string) catalog.Car {
	c := catalog.Car{
		UUID: uuid.NewSHA1(uuid.NameSpaceOID, []byte(model+trim+drive+fuel+trans)),
		Make: "Acme", Model: model, Year: year, Trim: trim,
		FuelType: fuel, DriveType: drive, Transmission: trans,
	}
	if displ > 0 {
		c.DisplacementL, c.Cylinders = catalog.Some(displ), catalog.Some(cyl)
	}
	return c
}

func tinyTable(t testing.TB, csv string) *Table {
	t.Helper()
	tb, err := Parse(context.Background(), strings.NewReader(csv), "tiny.csv")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

const (
	gas    = catalog.FuelGasoline
	s8     = "Automatic (S8)"
	hybrid = catalog.FuelHEV
	bev    = catalog.FuelBEV
)

var matchCases = []struct {
	name  string
	car   catalog.Car
	id    int // 0: unmatched
	score Score
}{
	{"drive decides", car("Widget", 2024, gas, "FWD", s8, 2.0, 4, "LE"), 10,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true}},
	// Row 11 is the same configuration for fleets: below 20 despite its id.
	{"tie goes to the lowest id, not file order", car("Widget", 2024, gas, "AWD", s8, 2.0, 4, "Limited"), 20,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true}},
	{"trim words break a tie", car("Widget", 2024, gas, "AWD", s8, 2.0, 4, "Sport"), 21,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true, TrimWords: 1}},
	{"transmission outranks trim words", car("Widget", 2024, gas, "AWD", s8, 2.0, 4, "Performance"), 20,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true}},
	{"trim words once transmission agrees", car("Widget", 2024, gas, "AWD", "Automatic (S10)", 2.0, 4, "Performance"), 17,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true, TrimWords: 1}},
	{"displacement decides", car("Widget", 2024, gas, "AWD", s8, 2.5, 4, ""), 12,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true}},
	{"fuel decides", car("Widget", 2024, hybrid, "AWD", s8, 2.5, 4, "Hybrid"), 13,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, TrimWords: 1}},
	{"AWD and 4WD are one: the engine outranks the label", car("Widget", 2024, gas, "4WD", s8, 2.5, 4, ""), 12,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Displacement: true, Cylinders: true, Transmission: true}},
	{"drive is ranked, not required", car("Widget", 2024, gas, "RWD", s8, 2.5, 4, ""), 12,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Displacement: true, Cylinders: true, Transmission: true}},
	{"fuel is required", car("Widget", 2024, catalog.FuelDiesel, "AWD", s8, 2.0, 4, ""), 0, Score{}},
	{"4WD finds 4-Wheel or All-Wheel Drive", car("Widget", 2024, bev, "4WD", "Automatic (A1)", 0, 0, ""), 14,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true}},
	{"AWD finds 4-Wheel or All-Wheel Drive", car("Widget", 2024, bev, "AWD", "Automatic (A1)", 0, 0, ""), 14,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true}},
	{"punctuation folds: F-150 is F150", car("F-150", 2024, gas, "4WD", "Automatic 10-spd", 3.5, 6, ""), 30,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true}},
	{"model prefix fallback; 2-Wheel Drive is RWD", car("Gizmo", 2024, gas, "RWD", "Automatic 6-spd", 3.6, 6, ""), 15,
		Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true, Prefix: true}},
	{"prefix only at a word boundary", car("Gizm", 2024, gas, "FWD", "Automatic 6-spd", 1.5, 4, ""), 0, Score{}},
	{"other year", car("Widget", 2022, gas, "FWD", s8, 2.0, 4, ""), 0, Score{}},
	{"CNG never matches", car("Blip", 2024, gas, "FWD", "Automatic (A1)", 2.0, 4, ""), 0, Score{}},
	{"other make", func() catalog.Car { c := car("Widget", 2024, gas, "FWD", s8, 2.0, 4, ""); c.Make = "Apex"; return c }(), 0, Score{}},
	{"make and model case-insensitive", func() catalog.Car {
		c := car("WIDGET", 2024, gas, "FWD", s8, 2.0, 4, "")
		c.Make = "ACME"
		return c
	}(), 10, Score{Fuel: true, Retail: true, Body: 1, Motors: true, Axles: true, Drive: true, Displacement: true, Cylinders: true, Transmission: true}},
}

func TestMatch(t *testing.T) {
	tb := tinyTable(t, tinyCSV)
	// The same rows in reverse order must give the same choices: the rule
	// depends on ids, never on where a row sits in the file.
	lines := strings.Split(strings.TrimSuffix(tinyCSV, "\r\n"), "\r\n")
	slices.Reverse(lines[1:])
	reversed := tinyTable(t, strings.Join(lines, "\r\n")+"\r\n")
	if reversed.Len() != tb.Len() {
		t.Fatalf("reversed table has %d rows, want %d", reversed.Len(), tb.Len())
	}

	for _, tc := range matchCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, tb := range []*Table{tb, reversed} {
				row, score, ok := tb.Match(&tc.car, 0)
				if ok != (tc.id != 0) {
					t.Fatalf("ok = %v (row %d), want id %d", ok, row.ID, tc.id)
				}
				if row.ID != tc.id || score != tc.score {
					t.Errorf("got id %d %+v, want id %d %+v", row.ID, score, tc.id, tc.score)
				}
			}
		})
	}
}

func TestMatchConcurrent(t *testing.T) {
	tb := tinyTable(t, tinyCSV)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, tc := range matchCases {
				if row, _, _ := tb.Match(&tc.car, 0); row.ID != tc.id {
					t.Errorf("%s: id %d, want %d", tc.name, row.ID, tc.id)
				}
			}
		})
	}
	wg.Wait()
}

func TestScorePointsLexicographic(t *testing.T) {
	all := Score{Axles: true, Drive: true, Displacement: true, Cylinders: true, Body: 2, Transmission: true, Motors: true, TrimWords: 99, Wheel: true}
	if got, want := all.Points(), (Score{Fuel: true}).Points(); got >= want {
		t.Errorf("every lesser fact (%d) must rank below fuel alone (%d)", got, want)
	}
	if a, b := (Score{Transmission: true}).Points(), (Score{TrimWords: 99}).Points(); a <= b {
		t.Errorf("transmission (%d) must outrank any number of trim words (%d)", a, b)
	}
}

func TestParseRow(t *testing.T) {
	tb := tinyTable(t, tinyCSV)
	if tb.Len() != 14 {
		t.Fatalf("%d rows, want 14", tb.Len())
	}
	for _, want := range []Row{
		{ID: 21, Year: 2024, Make: "Acme", BaseModel: "Widget", Model: "Widget Sport", Drive: "All-Wheel Drive",
			FuelType: "Regular", FuelType1: "Regular Gasoline", Trany: "Automatic (S8)", Displ: 2.0, Cylinders: 4,
			City08: 24, Highway08: 31, Comb08: 27, FuelCost08: 1650, CO2TailpipeGpm: 330.5, EngDscr: "SIDI, turbo"},
		{ID: 14, Year: 2024, Make: "Acme", BaseModel: "Widget", Model: "Widget EV", Drive: "4-Wheel or All-Wheel Drive",
			FuelType: "Electricity", FuelType1: "Electricity", ATVType: "EV", Trany: "Automatic (A1)",
			City08: 120, Highway08: 100, Comb08: 110, Range: 300, FuelCost08: 650},
	} {
		got, ok := tb.Row(want.ID)
		if !ok || got != want {
			t.Errorf("Row(%d) = %+v, %v\nwant %+v", want.ID, got, ok, want)
		}
	}
	if _, ok := tb.Row(99); ok {
		t.Error("Row(99) found")
	}
}

func TestEnrich(t *testing.T) {
	tb := tinyTable(t, tinyCSV)
	gasCar := car("Widget", 2024, gas, "FWD", s8, 2.0, 4, "LE")
	evCar := car("Widget", 2024, bev, "4WD", "Automatic (A1)", 0, 0, "")
	hevCar := car("Widget", 2024, hybrid, "AWD", "Automatic (AV-S6)", 2.5, 4, "")
	diesel := car("Widget", 2024, catalog.FuelDiesel, "AWD", s8, 2.0, 4, "")
	res := Enrich(tb, []catalog.Car{gasCar, diesel, evCar, hevCar}, nil)

	want := map[uuid.UUID]catalog.FuelEconomy{
		gasCar.UUID: {EPAID: catalog.Some(10), MPGCity: catalog.Some(28.0), MPGHighway: catalog.Some(36.0), MPGCombined: catalog.Some(31.0), AnnualFuelCost: catalog.Some(1400), CO2GPM: catalog.Some(290.0)},
		// EV: MPGe as EPA gives them, a range, and a real zero tailpipe CO2.
		evCar.UUID:  {EPAID: catalog.Some(14), MPGCity: catalog.Some(120.0), MPGHighway: catalog.Some(100.0), MPGCombined: catalog.Some(110.0), EPARangeMiles: catalog.Some(300), AnnualFuelCost: catalog.Some(650), CO2GPM: catalog.Some(0.0)},
		hevCar.UUID: {EPAID: catalog.Some(13), MPGCity: catalog.Some(41.0), MPGHighway: catalog.Some(38.0), MPGCombined: catalog.Some(40.0), AnnualFuelCost: catalog.Some(1000), CO2GPM: catalog.Some(222.0)},
	}
	if !reflect.DeepEqual(res.Matched, want) {
		t.Errorf("Matched:\n%s\nwant\n%s", dump(res.Matched), dump(want))
	}
	if len(res.Unmatched) != 1 || res.Unmatched[0].UUID != diesel.UUID {
		t.Errorf("Unmatched = %v, want the diesel only", res.Unmatched)
	}
}

func TestMildHybridIsGasoline(t *testing.T) {
	for _, tc := range []struct {
		r    Row
		want string
	}{
		{Row{ATVType: "Hybrid", FuelType1: "Premium Gasoline", EngDscr: "SIDI; Mild Hybrid"}, catalog.FuelGasoline},
		{Row{ATVType: "Hybrid", FuelType1: "Regular Gasoline", EngDscr: "Mild Hybrid; eTorque"}, catalog.FuelGasoline},
		{Row{ATVType: "Hybrid", FuelType1: "Regular Gasoline", EngDscr: "HEV"}, catalog.FuelHEV},
		{Row{ATVType: "Plug-in Hybrid", FuelType1: "Premium Gasoline", EngDscr: "PHEV"}, catalog.FuelPHEV},
	} {
		if got := fuelClass(&tc.r); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.r, got, tc.want)
		}
	}
}

func TestEconomyAbsentValues(t *testing.T) {
	// A combustion row without CO2 or cost must give nulls, not zeros.
	fe := Economy(Row{City08: 20, Highway08: 30, Comb08: 24, FuelType1: "Regular Gasoline"})
	if fe.CO2GPM.Valid || fe.AnnualFuelCost.Valid || fe.EPARangeMiles.Valid {
		t.Errorf("absent values not null: %s", show(fe))
	}
}

func dump(m map[uuid.UUID]catalog.FuelEconomy) string {
	var b strings.Builder
	for k, v := range m {
		fmt.Fprintf(&b, "%s: %s\n", k.String()[:8], show(v))
	}
	return b.String()
}

// show renders fuel-economy fields with nulls visible.
func show(v catalog.FuelEconomy) string {
	return fmt.Sprintf("epa_id=%v city=%v hwy=%v comb=%v range=%v erange=%v cost=%v co2=%v", v.EPAID, v.MPGCity,
		v.MPGHighway, v.MPGCombined, v.EPARangeMiles, v.EPAElectricRangeMiles, v.AnnualFuelCost, v.CO2GPM)
}

// A Plaid row names three motors: a Dual Motor car on the 20in wheels that
// "Model X Plaid (20in wheels)" names keeps the plain "Model X" row.
func TestPlaidIsTriMotor(t *testing.T) {
	tb := tinyTable(t, strings.ReplaceAll(`id,make,baseModel,model,year,drive,atvType,fuelType,fuelType1,trany,displ,cylinders,city08,highway08,comb08,range,fuelCost08,co2TailpipeGpm,eng_dscr
41,Acme,Model X,Model X,2024,All-Wheel Drive,EV,Electricity,Electricity,Automatic (A1),,,104,96,100,335,750,0.0,
42,Acme,Model X,Model X Plaid (20in wheels),2024,All-Wheel Drive,EV,Electricity,Electricity,Automatic (A1),,,102,92,98,326,800,0.0,
`, "\n", "\r\n"))
	for _, tc := range []struct {
		trim string
		id   int
	}{{"Dual Motor", 41}, {"Plaid", 42}} {
		c := car("Model X", 2024, bev, "AWD", "Automatic (A1)", 0, 0, tc.trim)
		if row, _, ok := tb.Match(&c, 20); !ok || row.ID != tc.id {
			t.Errorf("%s on 20in wheels: row %d (ok %v), want %d", tc.trim, row.ID, ok, tc.id)
		}
	}
}

package ingest

import (
	"errors"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
)

const carsHeader = "make,model,year,trim,body,fuel_type,drive_type,transmission,displacement_l,cylinders\n"

func TestParseCSVAndJSONAgree(t *testing.T) {
	t.Parallel()
	csv := carsHeader +
		"Toyota,Camry,2022,LE,Sedan,GASOLINE,FWD,Automatic (S8),2.5,4\n" +
		"Tesla,Model 3,2023,Long Range,Sedan,BATTERY ELECTRIC VEHICLE (BEV),AWD,Automatic (A1),,\n"
	json := `[
  {"make": "Toyota", "model": "Camry", "year": 2022, "trim": "LE", "body": "Sedan", "fuel_type": "GASOLINE",
   "drive_type": "FWD", "transmission": "Automatic (S8)", "displacement_l": 2.5, "cylinders": 4},
  {"make": "Tesla", "model": "Model 3", "year": 2023, "trim": "Long Range", "body": "Sedan",
   "fuel_type": "BATTERY ELECTRIC VEHICLE (BEV)", "drive_type": "AWD", "transmission": "Automatic (A1)",
   "displacement_l": null, "cylinders": null}
]`
	a, _, err := Parse([]Source{{Name: "cars.csv", Data: []byte(csv)}})
	if err != nil {
		t.Fatal(err)
	}
	b, kinds, err := Parse([]Source{{Name: "cars-2023.json", Data: []byte(json)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(kinds) != 1 || kinds[0] != catalog.KindCar || len(a.Cars) != 2 {
		t.Fatalf("kinds %v, %d cars", kinds, len(a.Cars))
	}
	if ch := catalog.Diff(a, b, map[catalog.Kind]bool{catalog.KindCar: true}); !ch.Empty() || ch.Cars.Unchanged != 2 {
		t.Fatalf("CSV and JSON of the same records differ: %+v", ch.Summaries())
	}
	if a.Cars[1].DisplacementL.Valid || a.Cars[1].Engine != "Electric" {
		t.Fatalf("empty CSV cells must be null: %+v", a.Cars[1])
	}
}

func TestParseTireAlternatesCSV(t *testing.T) {
	t.Parallel()
	src := "make,model,year,trim,tire_size,rear_tire_size,alternate_sizes,rear_alternate_sizes\n" +
		"Chevrolet,Corvette,2022,Z51,245/35ZR19 92Y,305/30 ZR20,255/35R19; 255/30zr20,315/30ZR20\n" +
		"Jeep,Wrangler,2017,Rubicon,LT255/75R17,,LT265/70R17,\n"
	c, _, err := Parse([]Source{{Name: "tire_sizes.csv", Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	f := c.TireSizes[0]
	if f.TireSize != "245/35ZR19" || *f.LoadIndex != 92 || *f.SpeedRating != "Y" || *f.RearTireSize != "305/30ZR20" ||
		strings.Join(f.AlternateSizes, "|") != "255/35R19|255/30ZR20" || strings.Join(f.RearAlternateSizes, "|") != "315/30ZR20" {
		t.Fatalf("fitment = %+v", f)
	}
	if f := c.TireSizes[1]; f.RearAlternateSizes == nil || len(f.RearAlternateSizes) != 0 || f.LoadIndex != nil || f.SpeedRating != nil {
		t.Fatalf("fitment without rear alternates or load index = %+v", f)
	}
}

func TestParseTireAlternatesOutsideWindow(t *testing.T) {
	t.Parallel()
	const header = "make,model,year,trim,tire_size,load_index,speed_rating,alternate_sizes,alternates_outside_window\n"
	// 35x12.50R17LT against LT255/75R17 (17 + 2*255*0.75/25.4 = 32.06 in) is +9.17%.
	row := "Jeep,Wrangler,2017,Rubicon,LT255/75R17,113,Q,LT265/70R17;35x12.50R17 LT,"
	_, _, err := Parse([]Source{{Name: "tire_sizes.csv", Data: []byte(header + row + "\n")}})
	want := "tire_sizes.csv:2: field alternate_sizes[1]: 35x12.50R17LT differs from LT255/75R17 in diameter by +9.17%, outside the ±3% window: drop it, or list it in alternates_outside_window"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Parse error = %v, want it to contain %q", err, want)
	}
	c, _, err := Parse([]Source{{Name: "tire_sizes.csv", Data: []byte(header + row + "35X12.50R17LT\n")}})
	if err != nil {
		t.Fatalf("a marked alternate is refused: %v", err)
	}
	if f := c.TireSizes[0]; strings.Join(f.AlternateSizes, "|") != "LT265/70R17|35x12.50R17LT" || *f.LoadIndex != 113 || *f.SpeedRating != "Q" {
		t.Fatalf("fitment = %+v", f)
	}
	js := `[{"make":"Jeep","model":"Wrangler","year":2017,"tire_size":"LT255/75R17","alternate_sizes":["35x12.50R17LT"],"alternates_outside_window":["35x12.50R17LT"]}]`
	if _, _, err := Parse([]Source{{Name: "tire_sizes.json", Data: []byte(js)}}); err != nil {
		t.Fatalf("JSON with a marked alternate is refused: %v", err)
	}
}

func TestParseErrorsNameFileLineField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, data string
		want             []string
	}{
		{
			name: "csv bad year on line 3",
			file: "cars.csv",
			data: carsHeader + "Toyota,Camry,2022,LE,Sedan,GASOLINE,FWD,A,2.5,4\nToyota,Camry,1850,XLE,Sedan,GASOLINE,FWD,A,2.5,4\n",
			want: []string{"cars.csv:3: field year: 1850 is outside"},
		},
		{
			name: "csv not a number",
			file: "cars.csv",
			data: carsHeader + "Toyota,Camry,twenty,LE,Sedan,GASOLINE,FWD,A,2.5,4\n",
			want: []string{`cars.csv:2: field year: "twenty" is not a whole number`},
		},
		{
			name: "csv unknown column",
			file: "boats.csv",
			data: "make,model,year,colour\n",
			want: []string{"boats.csv:1: field colour: unknown column; accepted: make, model, year, model_type", "field hull_type: required column is missing"},
		},
		{
			name: "csv wrong field count",
			file: "cars.csv",
			data: carsHeader + "Toyota,Camry\n",
			want: []string{"cars.csv:2: wrong number of fields"},
		},
		{
			name: "json bad enum on its line",
			file: "motorcycles.json",
			data: "[\n  {\"make\": \"Honda\", \"model\": \"Grom\", \"year\": 2023, \"motorcycle_type\": \"Scooter\"},\n\n  {\"make\": \"Honda\", \"model\": \"X\", \"year\": 2023,\n   \"motorcycle_type\": \"Hovercraft\"}\n]",
			want: []string{`motorcycles.json:4: field motorcycle_type: "Hovercraft" is not one of`},
		},
		{
			name: "json wrong type",
			file: "boats.json",
			data: `[{"make": "Lund", "model": "Rebel", "year": "new"}]`,
			want: []string{"boats.json:1: field year: expected int, got JSON string"},
		},
		{
			name: "json unknown field",
			file: "boats.json",
			data: "[\n{\"make\": \"Lund\", \"colour\": \"red\"}\n]",
			want: []string{"boats.json:2: field colour: unknown field"},
		},
		{
			name: "json not an array",
			file: "cars.json",
			data: `{"make": "Toyota"}`,
			want: []string{"cars.json:1: expected a JSON array of records"},
		},
		{
			name: "duplicate natural key",
			file: "cars.csv",
			data: carsHeader + "Toyota,Camry,2022,LE,Sedan,GASOLINE,FWD,A,2.5,4\ntoyota,CAMRY,2022,le,Sedan,GASOLINE,FWD,B,2.5,4\n",
			want: []string{"cars.csv:3: duplicate record: same natural key as cars.csv:2"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantInvalid(t, tc.file, tc.data, tc.want...) })
	}
}

// wantInvalid parses one file and fails unless Parse refuses it with an
// *InvalidError containing every want.
func wantInvalid(t *testing.T, file, data string, want ...string) {
	t.Helper()
	_, _, err := Parse([]Source{{Name: file, Data: []byte(data)}})
	var inv *InvalidError
	if !errors.As(err, &inv) {
		t.Fatalf("err = %v, want *InvalidError", err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q\nlacks %q", err, w)
		}
	}
}

func TestInvalidErrorIsBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(carsHeader)
	for range 50 {
		b.WriteString("Toyota,Camry,1800,LE,Sedan,GASOLINE,FWD,A,2.5,4\n")
	}
	_, _, err := Parse([]Source{{Name: "cars.csv", Data: []byte(b.String())}})
	if err == nil || !strings.Contains(err.Error(), "... and ") || strings.Count(err.Error(), "\n") > maxReported+1 {
		t.Fatalf("error not bounded to %d lines:\n%v", maxReported, err)
	}
}

func TestKindOfFile(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]catalog.Kind{
		"data/cars.csv": catalog.KindCar, "Motorcycles-2024.JSON": catalog.KindMotorcycle,
		"boats.csv": catalog.KindBoat, "tire-sizes.json": catalog.KindTireSize, "tire_sizes_q3.csv": catalog.KindTireSize,
	} {
		got, _, err := KindOfFile(name)
		if err != nil || got != want {
			t.Errorf("KindOfFile(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"trucks.csv", "cars.xlsx", "cars"} {
		if _, _, err := KindOfFile(name); err == nil {
			t.Errorf("KindOfFile(%q) accepted", name)
		}
	}
}

// TestParseRefusesUnsafeValues pins the values that used to pass
// validation and then broke the stores: NaN was published and crashed
// every server on PostgreSQL (and became null on SQLite); NUL bytes and
// invalid UTF-8 were stored on SQLite and refused by PostgreSQL later.
func TestParseRefusesUnsafeValues(t *testing.T) {
	t.Parallel()
	const (
		motoHeader = "make,model,year,motorcycle_type,vehicle_type,displacement_cc,engine_type,power_hp\n"
		boatHeader = "make,model,year,model_type,length_ft,beam_ft,dry_weight_lbs,engine_count,hp,hull_type,fuel_type\n"
		tireHeader = "make,model,year,trim,tire_size,rear_tire_size,alternate_sizes\n"
		boatJSON   = `"model_type": "Bass Boat", "beam_ft": 7, "dry_weight_lbs": 1500, "engine_count": 1, "hp": 150, "hull_type": "Aluminum", "fuel_type": "Gas"}]`
	)
	tests := []struct {
		name, file, data, want string
	}{
		{"csv NaN displacement", "cars.csv", carsHeader + "Toyota,Camry,2022,LE,Sedan,GASOLINE,FWD,A,NaN,4\n",
			`cars.csv:2: field displacement_l: "NaN" is not a finite number`},
		{"csv lower-case nan power", "motorcycles.csv", motoHeader + "Honda,Grom,2023,Scooter,,125,Single,nan\n",
			`motorcycles.csv:2: field power_hp: "nan" is not a finite number`},
		{"csv Inf length", "boats.csv", boatHeader + "Lund,Rebel,2022,Bass Boat,Inf,7,1500,1,150,Aluminum,Gas\n",
			`boats.csv:2: field length_ft: "Inf" is not a finite number`},
		{"csv -Infinity beam", "boats.csv", boatHeader + "Lund,Rebel,2022,Bass Boat,18,-Infinity,1500,1,150,Aluminum,Gas\n",
			`boats.csv:2: field beam_ft: "-Infinity" is not a finite number`},
		{"csv 1e999 overflows", "boats.csv", boatHeader + "Lund,Rebel,2022,Bass Boat,18,1e999,1500,1,150,Aluminum,Gas\n",
			`boats.csv:2: field beam_ft: "1e999" is not a finite number`},
		{"csv out of range", "boats.csv", boatHeader + "Lund,Rebel,2022,Bass Boat,18,7,1500,1,150000,Aluminum,Gas\n",
			`boats.csv:2: field hp: 150000 is outside 1..10000`},
		{"json 1e999", "boats.json", `[{"make": "Lund", "model": "Rebel", "year": 2022, "length_ft": 1e999, ` + boatJSON,
			`boats.json:1: field length_ft: `},
		{"csv NUL in make", "cars.csv", carsHeader + "Toy\x00ota,Camry,2022,LE,Sedan,GASOLINE,FWD,A,2.5,4\n",
			`cars.csv:2: field make: control character U+0000 at byte 3`},
		{"csv invalid UTF-8 in model", "cars.csv", carsHeader + "Toyota,Cam\xffry,2022,LE,Sedan,GASOLINE,FWD,A,2.5,4\n",
			`cars.csv:2: field model: invalid UTF-8 at byte 3`},
		{"csv tab inside a trim", "cars.csv", carsHeader + "Toyota,Camry,2022,L\tE,Sedan,GASOLINE,FWD,A,2.5,4\n",
			`cars.csv:2: field trim: control character U+0009 at byte 1`},
		{"csv line break in a quoted cell", "motorcycles.csv", motoHeader + "Honda,\"Gr\nom\",2023,Scooter,,125,Single,9.7\n",
			`motorcycles.csv:2: field model: control character U+000A at byte 2`},
		{"csv escape in an enum", "boats.csv", boatHeader + "Lund,Rebel,2022,Bass Boat,18,7,1500,1,150,Alu\x1bminum,Gas\n",
			`boats.csv:2: field hull_type: control character U+001B at byte 3`},
		{"csv NUL in an alternate size", "tire_sizes.csv", tireHeader + "Honda,Civic,2022,,215/55R16,,225/50R16;2\x0005/55R16\n",
			`tire_sizes.csv:2: field alternate_sizes[1]: control character U+0000 at byte 1`},
		{"json escaped NUL", "cars.json", `[{"make": "Toyota\u0000", "model": "Camry", "year": 2022, "trim": "LE", "body": "Sedan", "fuel_type": "GASOLINE", "drive_type": "FWD", "displacement_l": 2.5, "cylinders": 4}]`,
			`cars.json:1: field make: control character U+0000 at byte 6`},
		{"json invalid UTF-8", "tire_sizes.json", "[\n{\"make\": \"Honda\", \"model\": \"Civic\", \"year\": 2022, \"trim\": \"E\xe9X\", \"tire_size\": \"215/55R16\", \"alternate_sizes\": [\"225/50R16\"]}]",
			`tire_sizes.json:2: field trim: invalid UTF-8`},
		{"json invalid UTF-8 in a list", "tire_sizes.json", "[{\"make\": \"Honda\", \"model\": \"Civic\", \"year\": 2022, \"tire_size\": \"215/55R16\", \"alternate_sizes\": [\"225/50R16\", \"\xc3\"]}]",
			`tire_sizes.json:1: field alternate_sizes: invalid UTF-8`},
		{"json control character in an optional field", "motorcycles.json", `[{"make": "Honda", "model": "Grom", "year": 2023, "motorcycle_type": "Scooter", "engine_type": "Single\u007f"}]`,
			`motorcycles.json:1: field engine_type: control character U+007F at byte 6`},
		{"empty csv", "cars.csv", "", "cars.csv:1: no records"},
		{"header-only csv", "boats.csv", boatHeader, "boats.csv:1: no records"},
		{"empty JSON array", "cars.json", "[]", "cars.json:1: no records"},
		{"empty JSON file", "motorcycles.json", "  \n", "motorcycles.json:1: no records"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantInvalid(t, tc.file, tc.data, tc.want) })
	}
}

// A vPIC record's own fields go through both file formats.
func TestParseMotorcycleSourceFields(t *testing.T) {
	t.Parallel()
	csv := "make,model,year,motorcycle_type,body_class,fuel_type,source\n" +
		"Club Car,Onward,2024,Low Speed Vehicle,Low Speed Vehicle (LSV) / Neighborhood Electric Vehicle (NEV),Electric,vPIC snapshot 2026-02-17\n"
	json := `[{"make": "Club Car", "model": "Onward", "year": 2024, "motorcycle_type": "Low Speed Vehicle",
  "body_class": "Low Speed Vehicle (LSV) / Neighborhood Electric Vehicle (NEV)", "fuel_type": "Electric", "source": "vPIC snapshot 2026-02-17"}]`
	a, _, err := Parse([]Source{{Name: "motorcycles.csv", Data: []byte(csv)}})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Parse([]Source{{Name: "motorcycles.json", Data: []byte(json)}})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Motorcycles[0]
	if m != b.Motorcycles[0] || m.VehicleType != catalog.ClassGolfLSV || m.FuelType != "Electric" || m.Source != "vPIC snapshot 2026-02-17" ||
		m.BodyClass != "Low Speed Vehicle (LSV) / Neighborhood Electric Vehicle (NEV)" {
		t.Fatalf("CSV %+v, JSON %+v", m, b.Motorcycles[0])
	}
}

package ingest

import (
	"errors"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
)

const carsHeader = "make,model,year,trim,body,fuel_type,drive_type,transmission,displacement_l,cylinders\n"

func TestParseCSVAndJSONAgree(t *testing.T) {
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
	if a.Cars[1].DisplacementL != nil || a.Cars[1].Engine != "Electric" {
		t.Fatalf("empty CSV cells must be null: %+v", a.Cars[1])
	}
}

func TestParseTireAlternatesCSV(t *testing.T) {
	src := "make,model,year,trim,tire_size,rear_tire_size,alternate_sizes\n" +
		"Chevrolet,Corvette,2022,Z51,245/35ZR19,305/30ZR20,255/35R19; 245/40R19\n"
	c, _, err := Parse([]Source{{Name: "tire_sizes.csv", Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	f := c.TireSizes[0]
	if *f.RearTireSize != "305/30ZR20" || strings.Join(f.AlternateSizes, "|") != "255/35R19|245/40R19" {
		t.Fatalf("fitment = %+v", f)
	}
}

func TestParseErrorsNameFileLineField(t *testing.T) {
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
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Parse([]Source{{Name: tc.file, Data: []byte(tc.data)}})
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("err = %v, want *InvalidError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nlacks %q", err, w)
				}
			}
		})
	}
}

func TestInvalidErrorIsBounded(t *testing.T) {
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

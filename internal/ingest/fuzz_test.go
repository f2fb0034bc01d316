package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
)

// fuzzStems name a file of each record kind, in catalog.Kinds order: the
// fuzzers pick one with their first argument, so every kind is reachable.
var fuzzStems = []string{"cars", "motorcycles", "boats", "tire_sizes"}

// FuzzParseCSV: whatever a CSV file holds, Parse either refuses it with an
// *InvalidError or returns records that are valid and encode as JSON.
func FuzzParseCSV(f *testing.F) { fuzzParse(f, ".csv") }

// FuzzParseJSON is FuzzParseCSV for the JSON format.
func FuzzParseJSON(f *testing.F) { fuzzParse(f, ".json") }

func fuzzParse(f *testing.F, ext string) {
	srcs, err := DemoSources()
	if err != nil {
		f.Fatal(err)
	}
	for _, src := range srcs {
		kind, _, err := KindOfFile(src.Name)
		if err != nil {
			f.Fatal(err)
		}
		// The header and a few records: a whole file mutates far slower and
		// the fuzzing cannot minimize what it finds in it.
		data := bytes.Join(bytes.SplitN(src.Data, []byte("\n"), 6)[:5], []byte("\n"))
		if ext == ".json" {
			data = csvToJSON(f, kind, data)
		}
		f.Add(uint8(slices.Index(catalog.Kinds, kind)), data)
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		name := fuzzStems[int(kind)%len(fuzzStems)] + ext
		c, _, err := Parse([]Source{{Name: name, Data: data}})
		if err != nil {
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("Parse refused %s without an *InvalidError: %v", name, err)
			}
			return
		}
		checkAccepted(t, c.Cars, (*catalog.Car).Normalize)
		checkAccepted(t, c.Motorcycles, (*catalog.Motorcycle).Normalize)
		checkAccepted(t, c.Boats, (*catalog.Boat).Normalize)
		checkAccepted(t, c.TireSizes, func(f *catalog.TireFitment) catalog.FieldErrors { return f.Normalize(outsideWindow(f)...) })
	})
}

// outsideWindow lists the alternates of an accepted fitment that lie outside
// the fitment window, which its input must have marked as such.
func outsideWindow(f *catalog.TireFitment) []string {
	var out []string
	check := func(oem string, alts []string) {
		o, err := tire.Parse(oem)
		if err != nil {
			return
		}
		for _, a := range alts {
			if sz, err := tire.Parse(a); err == nil && !tire.Compare(o.Geometry(), sz.Geometry()).WithinWindow {
				out = append(out, a)
			}
		}
	}
	check(f.TireSize, f.AlternateSizes)
	if f.RearTireSize != nil {
		check(*f.RearTireSize, f.RearAlternateSizes)
	}
	return out
}

// checkAccepted asserts what a server needs of every accepted record: it
// encodes as JSON, its text passes textcheck, and validating it again
// finds nothing and keeps its uuid.
func checkAccepted[R any](t *testing.T, recs []R, norm func(*R) catalog.FieldErrors) {
	t.Helper()
	for i := range recs {
		if _, err := json.Marshal(&recs[i]); err != nil {
			t.Fatalf("accepted record does not encode: %v: %+v", err, recs[i])
		}
		if errs := checkText(reflect.ValueOf(&recs[i]).Elem()); errs != nil {
			t.Fatalf("accepted record holds bad text: %v: %+v", errs, recs[i])
		}
		again := recs[i]
		if errs := norm(&again); errs != nil {
			t.Fatalf("accepted record fails validation: %v: %+v", errs, recs[i])
		}
		if !reflect.DeepEqual(again, recs[i]) {
			t.Fatalf("validating an accepted record again changed it:\n%+v\n%+v", recs[i], again)
		}
	}
}

// csvToJSON turns a demo CSV file into the same records in the JSON format.
func csvToJSON(tb testing.TB, kind catalog.Kind, data []byte) []byte {
	var (
		v     any
		probs []RecordError
	)
	switch kind {
	case catalog.KindCar:
		v, _, probs = decodeCSV[carInput]("demo", data)
	case catalog.KindMotorcycle:
		v, _, probs = decodeCSV[motorcycleInput]("demo", data)
	case catalog.KindBoat:
		v, _, probs = decodeCSV[boatInput]("demo", data)
	case catalog.KindTireSize:
		v, _, probs = decodeCSV[tireInput]("demo", data)
	}
	if len(probs) > 0 {
		tb.Fatal(probs)
	}
	out, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

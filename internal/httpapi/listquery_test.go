package httpapi

import (
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/vehicle"
)

// TestListQuery: the REST parser refuses unknown names before repeated
// ones and both before any value, reports the alphabetically first
// offender whatever the map order, and reads the rest into the query.
func TestListQuery(t *testing.T) {
	t.Parallel()
	invalid, unknown := vehicle.CodeInvalidParameter, vehicle.CodeUnknownParameter
	tests := []struct {
		name, raw string
		kind      catalog.Kind
		// wantCode, wantParam and a fragment of the message.
		wantCode, wantParam, wantIn string
	}{
		{"unknown name", "mak=Toyota", catalog.KindCar, unknown, "mak", "did you mean make?"},
		{"unknown with empty value", "foo=", catalog.KindCar, unknown, "foo", "accepted parameters are body, drive_type"},
		{"filter of another kind", "make=Honda&body=SUV", catalog.KindMotorcycle, unknown, "body", "for motorcycles"},
		{"first unknown alphabetically", "zeta=1&alpha=1&mid=1", catalog.KindCar, unknown, "alpha", ""},
		{"the empty name comes first", "1=a&=b", catalog.KindCar, unknown, "", `unknown parameter ""`},
		{"unknown wins over duplicate", "make=a&make=b&zzz=1", catalog.KindCar, unknown, "zzz", ""},
		{"unknown wins over a bad value", "year=x&zzz=1", catalog.KindCar, unknown, "zzz", ""},
		{"duplicate", "make=Toyota&make=Honda", catalog.KindCar, invalid, "make", "make is given 2 times"},
		{"duplicate with one empty", "make=&make=Honda&make=Kia", catalog.KindCar, invalid, "make", "given 3 times"},
		{"first duplicate alphabetically", "year=1&year=2&model=a&model=b", catalog.KindCar, invalid, "model", ""},
		{"duplicate wins over a bad value", "year=x&make=a&make=b", catalog.KindCar, invalid, "make", ""},
		{"bad number", "make=Toyota&year=20x5", catalog.KindCar, invalid, "year", `year "20x5" is not a whole number`},
		{"first bad value alphabetically", "year=x&hp_min=y&page=z&length_min=w", catalog.KindBoat, invalid, "hp_min", `"y"`},
		{"bad boolean", "ev_only=maybe", catalog.KindCar, invalid, "ev_only", `"maybe" is not a boolean`},
		{"bad length", "length_max=-1.0", catalog.KindBoat, invalid, "length_max", `"-1.0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params, err := url.ParseQuery(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			_, err = listQuery(tt.kind, params)
			var e *vehicle.Error
			if !errors.As(err, &e) || e.Code != tt.wantCode || e.Param != tt.wantParam || !strings.Contains(e.Message, tt.wantIn) {
				t.Fatalf("listQuery(%q) = %v, want %s/%q containing %q", tt.raw, err, tt.wantCode, tt.wantParam, tt.wantIn)
			}
			if want := listParams[tt.kind]; tt.wantCode == unknown && !slices.Equal(e.Accepted, want) {
				t.Errorf("Accepted = %v, want %v", e.Accepted, want)
			}
		})
	}

	params, _ := url.ParseQuery("make=+Toyota+&model=&year_min=2015&year_max=2020&fuel_type=BEV&ev_only=TRUE&page=2&per_page=5&q=awd")
	q, err := listQuery(catalog.KindCar, params)
	if err != nil {
		t.Fatal(err)
	}
	if q.Kind != catalog.KindCar || q.Make != "Toyota" || q.Model != "" || *q.YearMin != 2015 || *q.YearMax != 2020 ||
		q.Filters.FuelType != "BEV" || !*q.EVOnly || *q.Page != 2 || *q.PerPage != 5 || q.Q != "awd" || q.Year != nil {
		t.Errorf("listQuery read %+v", q)
	}
}

// TestModelsParams: /{type}/models takes make and nothing else, once.
func TestModelsParams(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{"make=Ford&year=2020": vehicle.CodeUnknownParameter, "make=Ford&make=Kia": vehicle.CodeInvalidParameter, "make=Ford": ""} {
		params, _ := url.ParseQuery(raw)
		err := checkNames(catalog.KindTireSize, modelsParams, params)
		var e *vehicle.Error
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", raw, err)
			}
			continue
		}
		if !errors.As(err, &e) || e.Code != want {
			t.Errorf("%s: %v, want %s", raw, err, want)
		} else if want == vehicle.CodeUnknownParameter && (e.Param != "year" || !slices.Equal(e.Accepted, []string{"make"})) {
			t.Errorf("%s: param %q, accepted %v; want year and [make]", raw, e.Param, e.Accepted)
		}
	}
}

// FuzzListQueryParse feeds arbitrary query strings through the REST parser
// and the service: neither panics, every refusal is a *vehicle.Error with a
// code, and the same query gets the same answer whatever the map order.
func FuzzListQueryParse(f *testing.F) {
	_, cat := storetest.DemoSQLite(f, false)
	snap, err := vehicle.NewSnapshot(cat, catalog.Version{})
	if err != nil {
		f.Fatal(err)
	}
	svc := vehicle.NewService(snap)
	for _, seed := range []string{"make=Toyota", "year=x&hp_min=y&zzz=1", "make=a&make=b", "body=Truck&ev_only=0",
		"length_min=-1.0&length_max=NaN", "tire_size=235/55R19+101V", "year_min=2015&year_max=2030&page=41"} {
		for k := range catalog.Kinds {
			f.Add(uint8(k), seed)
		}
	}
	f.Fuzz(func(t *testing.T, k uint8, raw string) {
		params, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		kind := catalog.Kinds[int(k)%len(catalog.Kinds)]
		run := func() (vehicle.Meta, error) {
			q, err := listQuery(kind, params)
			if err != nil {
				return vehicle.Meta{}, err
			}
			p, err := svc.Search(q)
			return p.Meta, err
		}
		meta, err := run()
		if err != nil {
			var e *vehicle.Error
			if !errors.As(err, &e) || e.Code == "" || e.Message == "" {
				t.Fatalf("%s?%s: %#v is not a service error", kind, raw, err)
			}
		}
		for range 3 {
			if m, again := run(); !reflect.DeepEqual(m, meta) || fmt.Sprint(again) != fmt.Sprint(err) {
				t.Fatalf("%s?%s: %v then %v", kind, raw, err, again)
			}
		}
	})
}

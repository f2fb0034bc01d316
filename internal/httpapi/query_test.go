package httpapi

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// TestListQuery: the REST parser refuses unknown names before repeated
// ones and both before any value, reports the alphabetically first
// offender whatever the map order, and reads the rest into the query.
func TestListQuery(t *testing.T) {
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

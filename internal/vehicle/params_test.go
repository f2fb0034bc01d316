package vehicle_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

func TestNarrowingRule(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	const broad = vehicle.CodeQueryTooBroad
	tests := []struct {
		name      string
		kind      catalog.Kind
		params    []string
		wantCode  string // "" means the query passes
		wantParam string
	}{
		{"nothing", catalog.KindCar, nil, broad, ""},
		{"make", catalog.KindCar, []string{"make", "Toyota"}, "", ""},
		{"model", catalog.KindCar, []string{"model", "Camry"}, "", ""},
		{"q", catalog.KindCar, []string{"q", "camry"}, "", ""},
		{"body", catalog.KindCar, []string{"body", "SUV"}, "", ""},
		{"fuel_type", catalog.KindCar, []string{"fuel_type", "BEV"}, "", ""},
		{"drive_type", catalog.KindCar, []string{"drive_type", "AWD"}, "", ""},
		{"ev_only=1 alone", catalog.KindCar, []string{"ev_only", "1"}, "", ""},
		{"ev_only=true alone", catalog.KindCar, []string{"ev_only", "true"}, "", ""},
		{"ev_only=0 alone", catalog.KindCar, []string{"ev_only", "0"}, broad, ""},
		{"ev_only=false alone", catalog.KindCar, []string{"ev_only", "false"}, broad, ""},
		{"year", catalog.KindCar, []string{"year", "2020"}, "", ""},
		{"window of exactly 10 years", catalog.KindCar, []string{"year_min", "2015", "year_max", "2024"}, "", ""},
		{"window of 1 year", catalog.KindCar, []string{"year_min", "2020", "year_max", "2020"}, "", ""},
		{"window of 11 years", catalog.KindCar, []string{"year_min", "2015", "year_max", "2025"}, broad, "year_max"},
		{"lone year_min", catalog.KindCar, []string{"year_min", "2015"}, broad, "year_min"},
		{"open-ended year_min=1900", catalog.KindCar, []string{"year_min", "1900"}, broad, "year_min"},
		{"lone year_max", catalog.KindCar, []string{"year_max", "2020"}, broad, "year_max"},
		{"lone year_min with make", catalog.KindCar, []string{"make", "Toyota", "year_min", "2015"}, "", ""},
		{"lone year_max with q", catalog.KindCar, []string{"q", "suv", "year_max", "2018"}, "", ""},
		{"wide window with model", catalog.KindCar, []string{"model", "Camry", "year_min", "1990", "year_max", "2025"}, "", ""},
		{"wide window with ev_only=1", catalog.KindCar, []string{"ev_only", "1", "year_min", "1990", "year_max", "2025"}, "", ""},
		{"empty make", catalog.KindCar, []string{"make", ""}, broad, ""},
		{"blank make and q", catalog.KindCar, []string{"make", "  ", "q", " "}, broad, ""},
		{"empty year with make", catalog.KindCar, []string{"year", "", "make", "Honda"}, "", ""},
		{"empty year_max beside year_min", catalog.KindCar, []string{"year_min", "2015", "year_max", ""}, broad, "year_min"},
		{"paging only", catalog.KindCar, []string{"per_page", "5", "page", "2"}, broad, ""},
		{"motorcycles nothing", catalog.KindMotorcycle, nil, broad, ""},
		{"motorcycle_type", catalog.KindMotorcycle, []string{"motorcycle_type", "Scooter"}, "", ""},
		{"vehicle_type", catalog.KindMotorcycle, []string{"vehicle_type", "ATV/UTV"}, "", ""},
		{"motorcycles window", catalog.KindMotorcycle, []string{"year_min", "2016", "year_max", "2025"}, "", ""},
		{"boats nothing", catalog.KindBoat, nil, broad, ""},
		{"hull_type", catalog.KindBoat, []string{"hull_type", "Aluminum"}, "", ""},
		{"boat fuel_type", catalog.KindBoat, []string{"fuel_type", "Diesel"}, "", ""},
		{"model_type", catalog.KindBoat, []string{"model_type", "Pontoon"}, "", ""},
		{"hp_min", catalog.KindBoat, []string{"hp_min", "300"}, "", ""},
		{"hp_max", catalog.KindBoat, []string{"hp_max", "100"}, "", ""},
		{"length_min", catalog.KindBoat, []string{"length_min", "40"}, "", ""},
		{"length_max", catalog.KindBoat, []string{"length_max", "20.5"}, "", ""},
		{"boats lone year_max", catalog.KindBoat, []string{"year_max", "2010"}, broad, "year_max"},
		{"tires nothing", catalog.KindTireSize, nil, broad, ""},
		{"tire_size", catalog.KindTireSize, []string{"tire_size", "235/55R19"}, "", ""},
		{"tires window of 11", catalog.KindTireSize, []string{"year_min", "2010", "year_max", "2020"}, broad, "year_max"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := find(svc, tt.kind, tt.params)
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("Search(%v) = %v, want it to pass", tt.params, err)
				}
				return
			}
			e := wantError(t, err, tt.wantCode, tt.wantParam)
			// The message must tell the caller what would narrow the query.
			hints := []string{"make, model, q"}
			if tt.wantParam == "year_max" && strings.Contains(strings.Join(tt.params, " "), "year_min") {
				hints = append(hints, "year_max - year_min <= 9")
			}
			for _, hint := range hints {
				if !strings.Contains(e.Message, hint) {
					t.Errorf("message %q does not mention %q", e.Message, hint)
				}
			}
		})
	}
}

func TestTooBroadMessages(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	tests := []struct {
		name      string
		params    []string
		wantParam string
		want      []string
	}{
		{"ev_only=false says why", []string{"ev_only", "false"}, "", []string{"ev_only=false keeps every car", "body, fuel_type, drive_type or ev_only=1"}},
		{"lone bound names it", []string{"year_min", "1900"}, "year_min", []string{"year_min=1900 has no year_max", "at most 10 years"}},
		{"wide window counts years", []string{"year_min", "2015", "year_max", "2025"}, "year_max", []string{"spans 11 model years"}},
		{"nothing names the kind", nil, "", []string{"every one of the cars"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := find(svc, catalog.KindCar, tt.params)
			e := wantError(t, err, vehicle.CodeQueryTooBroad, tt.wantParam)
			for _, w := range tt.want {
				if !strings.Contains(e.Message, w) {
					t.Errorf("message %q lacks %q", e.Message, w)
				}
			}
		})
	}
}

func TestStrictParams(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	const (
		invalid = vehicle.CodeInvalidParameter
		unknown = vehicle.CodeUnknownParameter
	)
	tests := []struct {
		name      string
		kind      catalog.Kind
		params    []string
		wantCode  string
		wantParam string
		// wantInMessage is a fragment the message must contain, e.g. the bad value.
		wantInMessage string
	}{
		{"unknown parameter", catalog.KindCar, []string{"mak", "Toyota"}, unknown, "mak", `did you mean make`},
		{"car filter on motorcycles", catalog.KindMotorcycle, []string{"body", "SUV"}, unknown, "body", "motorcycles"},
		{"ev_only on boats", catalog.KindBoat, []string{"ev_only", "1"}, unknown, "ev_only", ""},
		{"long unknown name is cut", catalog.KindCar, []string{strings.Repeat("x", 100), "1"}, unknown, strings.Repeat("x", 40), "..."},
		{"year not a number", catalog.KindCar, []string{"make", "Toyota", "year", "20x5"}, invalid, "year", `"20x5"`},
		{"year_min not a number", catalog.KindCar, []string{"year_min", "abc", "year_max", "2020"}, invalid, "year_min", `"abc"`},
		{"year_max fraction", catalog.KindCar, []string{"year_min", "2015", "year_max", "2020.5"}, invalid, "year_max", ""},
		{"per_page word", catalog.KindCar, []string{"make", "Toyota", "per_page", "ten"}, invalid, "per_page", `"ten"`},
		{"page word", catalog.KindCar, []string{"make", "Toyota", "page", "two"}, invalid, "page", ""},
		{"hp_min not a number", catalog.KindBoat, []string{"hp_min", "big"}, invalid, "hp_min", ""},
		{"hp_max exponent", catalog.KindBoat, []string{"hp_max", "1e3"}, invalid, "hp_max", ""},
		{"year before 1886", catalog.KindCar, []string{"make", "Toyota", "year", "1885"}, invalid, "year", "1886..2100"},
		{"year after 2100", catalog.KindCar, []string{"make", "Toyota", "year", "2101"}, invalid, "year", ""},
		{"year_min zero", catalog.KindCar, []string{"make", "Toyota", "year_min", "0"}, invalid, "year_min", ""},
		{"per_page 0", catalog.KindCar, []string{"make", "Toyota", "per_page", "0"}, invalid, "per_page", "1..10"},
		{"per_page 11", catalog.KindCar, []string{"make", "Toyota", "per_page", "11"}, invalid, "per_page", "1..10"},
		{"per_page negative", catalog.KindCar, []string{"make", "Toyota", "per_page", "-1"}, invalid, "per_page", ""},
		{"page 0", catalog.KindCar, []string{"make", "Toyota", "page", "0"}, invalid, "page", "1..40"},
		{"page 41", catalog.KindCar, []string{"make", "Toyota", "page", "41"}, invalid, "page", "1..40"},
		{"year bounds inverted", catalog.KindCar, []string{"year_min", "2020", "year_max", "2015"}, invalid, "year_min", "swap"},
		{"hp bounds inverted", catalog.KindBoat, []string{"hp_min", "500", "hp_max", "100"}, invalid, "hp_min", ""},
		{"length bounds inverted", catalog.KindBoat, []string{"length_min", "40", "length_max", "20"}, invalid, "length_min", ""},
		{"length NaN", catalog.KindBoat, []string{"length_min", "NaN"}, invalid, "length_min", ""},
		{"length Inf", catalog.KindBoat, []string{"length_max", "Inf"}, invalid, "length_max", ""},
		{"length negative", catalog.KindBoat, []string{"length_min", "-3"}, invalid, "length_min", ""},
		{"length word", catalog.KindBoat, []string{"length_min", "long"}, invalid, "length_min", ""},
		{"ev_only yes", catalog.KindCar, []string{"ev_only", "yes"}, invalid, "ev_only", `"yes"`},
		{"tire_size unparseable", catalog.KindTireSize, []string{"tire_size", "225-45-17"}, invalid, "tire_size", `"225-45-17"`},
		{"q without words", catalog.KindCar, []string{"q", "--- !!"}, invalid, "q", ""},
		{"bad value beats narrowing", catalog.KindCar, []string{"per_page", "0"}, invalid, "per_page", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := find(svc, tt.kind, tt.params)
			e := wantError(t, err, tt.wantCode, tt.wantParam)
			if !strings.Contains(e.Message, tt.wantInMessage) {
				t.Errorf("message %q does not contain %q", e.Message, tt.wantInMessage)
			}
			if tt.wantCode == unknown {
				want := vehicle.AcceptedParams(tt.kind)
				if !slices.Equal(e.Accepted, want) || !sort.StringsAreSorted(e.Accepted) {
					t.Errorf("Accepted = %v, want sorted %v", e.Accepted, want)
				}
			} else if e.Accepted != nil {
				t.Errorf("Accepted = %v on a %s error", e.Accepted, e.Code)
			}
		})
	}
}

func TestValidBoundaries(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	tests := []struct {
		name   string
		params []string
	}{
		{"year 1886", []string{"make", "Toyota", "year", "1886"}},
		{"year 2100", []string{"make", "Toyota", "year", "2100"}},
		{"per_page 1 page 40", []string{"make", "Toyota", "per_page", "1", "page", "40"}},
		{"per_page 10", []string{"make", "Toyota", "per_page", "10"}},
		{"equal bounds", []string{"year_min", "2020", "year_max", "2020"}},
		{"ev_only TRUE", []string{"ev_only", "TRUE"}},
		{"padded values", []string{"make", " Toyota ", "per_page", " 5 "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := find(svc, catalog.KindCar, tt.params); err != nil {
				t.Fatalf("Search(%v) = %v, want success", tt.params, err)
			}
		})
	}
}

func TestAcceptedParams(t *testing.T) {
	t.Parallel()
	common := []string{"make", "model", "year", "year_min", "year_max", "q", "per_page", "page"}
	tests := []struct {
		kind  catalog.Kind
		extra []string
	}{
		{catalog.KindCar, []string{"body", "fuel_type", "drive_type", "ev_only"}},
		{catalog.KindMotorcycle, []string{"motorcycle_type", "vehicle_type"}},
		{catalog.KindBoat, []string{"hull_type", "fuel_type", "model_type", "hp_min", "hp_max", "length_min", "length_max"}},
		{catalog.KindTireSize, []string{"tire_size"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			want := append(slices.Clone(common), tt.extra...)
			slices.Sort(want)
			if got := vehicle.AcceptedParams(tt.kind); !slices.Equal(got, want) {
				t.Errorf("AcceptedParams = %v, want %v", got, want)
			}
		})
	}
	if got := vehicle.AcceptedParams("plane"); got != nil {
		t.Errorf("AcceptedParams(plane) = %v, want nil", got)
	}
}

func TestSearchUnknownKind(t *testing.T) {
	t.Parallel()
	_, err := find(demoService(t), "plane", []string{"make", "Boeing"})
	wantError(t, err, vehicle.CodeInvalidParameter, "type")
}

// TestValidateTypedQuery runs the one validation through typed queries, as
// MCP hands them over: each rule is refused with its code and param, and
// the message or extensions say what to change.
func TestValidateTypedQuery(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	n := func(v int) *int { return &v }
	f := func(v float64) *float64 { return &v }
	yes, no := true, false
	const (
		invalid = vehicle.CodeInvalidParameter
		unknown = vehicle.CodeUnknownParameter
		broad   = vehicle.CodeQueryTooBroad
	)
	car, moto, boat, tires := catalog.KindCar, catalog.KindMotorcycle, catalog.KindBoat, catalog.KindTireSize
	tests := []struct {
		name      string
		q         vehicle.Query
		wantCode  string // "" means the query passes
		wantParam string
		wantIn    string
	}{
		{"unknown kind", vehicle.Query{Kind: "plane", Make: "Boeing"}, invalid, "type", `type "plane" is not a record type`},
		{"car filter on motorcycles", vehicle.Query{Kind: moto, Filters: vehicle.Filters{Body: "SUV"}}, unknown, "body", "for motorcycles"},
		{"first foreign filter by name", vehicle.Query{Kind: moto, EVOnly: &yes, Filters: vehicle.Filters{HullType: "Aluminum", Body: "SUV"}}, unknown, "body", ""},
		{"ev_only on boats", vehicle.Query{Kind: boat, EVOnly: &no, Make: "Sea Ray"}, unknown, "ev_only", "accepted parameters are"},
		{"hp_min on cars", vehicle.Query{Kind: car, HPMin: n(100)}, unknown, "hp_min", ""},
		{"length_max on tires", vehicle.Query{Kind: tires, LengthMax: f(20)}, unknown, "length_max", ""},
		{"blank foreign filter is absent", vehicle.Query{Kind: moto, Make: "Honda", Filters: vehicle.Filters{TireSize: ""}}, "", "", ""},
		{"per_page 0", vehicle.Query{Kind: car, Make: "Toyota", PerPage: n(0)}, invalid, "per_page", "per_page=0 is outside 1..10"},
		{"page 41", vehicle.Query{Kind: car, Make: "Toyota", Page: n(41)}, invalid, "page", "page=41 is outside 1..40"},
		{"year 1885", vehicle.Query{Kind: car, Make: "Toyota", Year: n(1885)}, invalid, "year", "1886..2100"},
		{"year_max 2101", vehicle.Query{Kind: car, Make: "Toyota", YearMax: n(2101)}, invalid, "year_max", "four-digit model year"},
		{"year bounds inverted", vehicle.Query{Kind: car, YearMin: n(2020), YearMax: n(2015)}, invalid, "year_min", "swap the bounds"},
		{"range beats narrowing", vehicle.Query{Kind: car, PerPage: n(11)}, invalid, "per_page", ""},
		{"q without words", vehicle.Query{Kind: car, Q: " --- "}, invalid, "q", `q "---" has no letters or digits`},
		{"closed value", vehicle.Query{Kind: car, Filters: vehicle.Filters{Body: "Truck"}}, invalid, "body", "did you mean Pickup?"},
		{"tire size", vehicle.Query{Kind: tires, Filters: vehicle.Filters{TireSize: "225-45-17"}}, invalid, "tire_size", "is not a tire size"},
		{"hp_min negative", vehicle.Query{Kind: boat, HPMin: n(-1)}, invalid, "hp_min", "hp_min=-1 is outside 0..2147483647: give horsepower"},
		{"hp bounds inverted", vehicle.Query{Kind: boat, HPMin: n(500), HPMax: n(100)}, invalid, "hp_min", "hp_min=500 is greater than hp_max=100"},
		{"length negative", vehicle.Query{Kind: boat, LengthMin: f(-2.5)}, invalid, "length_min", `length_min "-2.5" is not a length in feet`},
		{"length bounds inverted", vehicle.Query{Kind: boat, LengthMin: f(40.5), LengthMax: f(20)}, invalid, "length_min", "length_min=40.5 is greater than length_max=20"},
		{"nothing", vehicle.Query{Kind: car}, broad, "", "every one of the cars"},
		{"ev_only false", vehicle.Query{Kind: car, EVOnly: &no}, broad, "", "ev_only=false keeps every car"},
		{"lone year_min", vehicle.Query{Kind: boat, YearMin: n(2015)}, broad, "year_min", "year_min=2015 has no year_max"},
		{"window of 11", vehicle.Query{Kind: moto, YearMin: n(2015), YearMax: n(2025)}, broad, "year_max", "spans 11 model years"},
		{"blank make", vehicle.Query{Kind: tires, Make: "  "}, broad, "", "every one of the tire fitments"},

		{"padded make", vehicle.Query{Kind: car, Make: " Toyota ", PerPage: n(10), Page: n(40)}, "", "", ""},
		{"ev_only alone", vehicle.Query{Kind: car, EVOnly: &yes}, "", "", ""},
		{"closed value in any case", vehicle.Query{Kind: car, Filters: vehicle.Filters{FuelType: "phev"}}, "", "", ""},
		{"hp_max alone", vehicle.Query{Kind: boat, HPMax: n(0)}, "", "", ""},
		{"length window", vehicle.Query{Kind: boat, LengthMin: f(0), LengthMax: f(20.5)}, "", "", ""},
		{"window of 10", vehicle.Query{Kind: tires, YearMin: n(2015), YearMax: n(2024)}, "", "", ""},
		{"tire size with load index", vehicle.Query{Kind: tires, Filters: vehicle.Filters{TireSize: "235/55R19 101V"}}, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Search(tt.q)
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("Search(%+v) = %v, want it to pass", tt.q, err)
				}
				return
			}
			e := wantError(t, err, tt.wantCode, tt.wantParam)
			if !strings.Contains(e.Message, tt.wantIn) {
				t.Errorf("message %q does not contain %q", e.Message, tt.wantIn)
			}
			if tt.wantCode == unknown && !slices.Equal(e.Accepted, vehicle.AcceptedParams(tt.q.Kind)) {
				t.Errorf("Accepted = %v, want %v", e.Accepted, vehicle.AcceptedParams(tt.q.Kind))
			}
			if tt.name == "closed value" && (e.Suggestion != "Pickup" || !slices.Equal(e.AcceptedValues, catalog.Bodies)) {
				t.Errorf("suggestion %q, accepted values %v; want Pickup and catalog.Bodies", e.Suggestion, e.AcceptedValues)
			}
		})
	}
}

// TestQuerySet: Set reads text as REST and the dashboard carry it. Blank
// text is absent, ev_only keeps its spelling for the narrowing message, and
// a name no kind takes is unknown_parameter.
func TestQuerySet(t *testing.T) {
	t.Parallel()
	q := vehicle.Query{Kind: catalog.KindCar}
	for _, kv := range [][2]string{{"make", " Toyota "}, {"year", "2020"}, {"fuel_type", "bev"}, {"model", "  "}, {"length_min", "+20.5"}} {
		if err := q.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set(%q, %q): %v", kv[0], kv[1], err)
		}
	}
	if q.Make != "Toyota" || q.Year == nil || *q.Year != 2020 || q.Filters.FuelType != "bev" || q.Model != "" ||
		q.LengthMin == nil || *q.LengthMin != 20.5 {
		t.Errorf("Set read %+v", q)
	}
	if err := q.Set("length_max", "-1.0"); err == nil || !strings.Contains(err.Error(), `length_max "-1.0" is not a length`) {
		t.Errorf("Set(length_max, -1.0) = %v, want the value echoed as sent", err)
	}
	e := wantError(t, q.Set("colour", "red"), vehicle.CodeUnknownParameter, "colour")
	if !slices.Equal(e.Accepted, vehicle.AcceptedParams(catalog.KindCar)) {
		t.Errorf("Accepted = %v", e.Accepted)
	}
	ev := vehicle.Query{Kind: catalog.KindCar}
	if err := ev.Set("ev_only", "0"); err != nil {
		t.Fatal(err)
	}
	_, err := demoService(t).Search(ev)
	if e := wantError(t, err, vehicle.CodeQueryTooBroad, ""); !strings.HasPrefix(e.Message, "ev_only=0 keeps every car") {
		t.Errorf("message %q does not repeat ev_only=0", e.Message)
	}
}

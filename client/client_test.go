package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestEndpoints calls every method once against a fake that answers with a
// realistic body for the path, and checks both what was sent (path, query,
// headers) and what was decoded.
func TestEndpoints(t *testing.T) {
	t.Parallel()
	bodies := map[string]string{
		"/v1/cars":                                   carListBody,
		"/v1/cars/makes":                             env(makesJSON),
		"/v1/cars/models":                            env(modelsJSON),
		"/v1/cars/body-types":                        env(bodyTypesJSON),
		"/v1/cars/" + carUUID:                        env(carEnriched),
		"/v1/cars/" + carUUID + "/tire-sizes":        env(carTiresJSON),
		"/v1/motorcycles":                            `{"data":[` + motoJSON + `],"meta":{"page":1,"per_page":10,"total":1,"total_pages":1,"max_page":1,"truncated":false}}`,
		"/v1/motorcycles/makes":                      env(makesJSON),
		"/v1/motorcycles/models":                     env(modelsJSON),
		"/v1/motorcycles/types":                      env(motoTypesJSON),
		"/v1/motorcycles/" + motoUUID:                env(motoJSON),
		"/v1/boats":                                  `{"data":[` + boatJSON + `],"meta":{"page":1,"per_page":10,"total":1,"total_pages":1,"max_page":1,"truncated":false}}`,
		"/v1/boats/makes":                            env(makesJSON),
		"/v1/boats/models":                           env(modelsJSON),
		"/v1/boats/hull-types":                       env(hullTypesJSON),
		"/v1/boats/" + boatUUID:                      env(boatJSON),
		"/v1/tire-sizes":                             `{"data":[` + tireJSON + `],"meta":{"page":1,"per_page":10,"total":1,"total_pages":1,"max_page":1,"truncated":false}}`,
		"/v1/tire-sizes/makes":                       env(makesJSON),
		"/v1/tire-sizes/models":                      env(modelsJSON),
		"/v1/tire-sizes/" + tireUUID:                 env(tireJSON),
		"/v1/tire-sizes/" + tireUUID + "/geometry":   env(geometryJSON),
		"/v1/tire-sizes/" + tireUUID + "/plus-sizes": env(plusSizesJSON),
		"/v1/tire-sizes/lookup":                      env(sizeLookupJSON),
		"/v1/me":                                     env(meJSON),
		"/v1/lists":                                  env(listsJSON),
		"/v1/changelog":                              env(changelogJSON),
		"/v1/openapi.json":                           openAPIDoc,
		"/readyz":                                    `{"status":"ready","catalog_version":3}`,
	}
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		body, ok := bodies[r.URL.Path]
		if !ok {
			writeProblem(w, http.StatusNotFound, `{"type":"urn:vds:problem:not_found","title":"Not Found","status":404,"detail":"No such endpoint","instance":"`+r.URL.Path+`","code":"not_found","request_id":"x"}`)
			return
		}
		writeBody(w, body)
	})
	c := f.client()
	ctx := context.Background()

	tests := []struct {
		name      string
		call      func() (any, error)
		wantPath  string
		wantQuery url.Values
		check     func(t *testing.T, got any)
	}{
		{
			name: "ListCars every parameter",
			call: func() (any, error) {
				return c.ListCars(ctx, CarQuery{Make: "Toyota", Model: "Camry", Year: 2022, Q: "le hybrid", Page: 2, PerPage: 2,
					Body: "Sedan", FuelType: "hev", DriveType: "FWD", EVOnly: true})
			},
			wantPath: "/v1/cars",
			wantQuery: url.Values{"make": {"Toyota"}, "model": {"Camry"}, "year": {"2022"}, "q": {"le hybrid"}, "page": {"2"},
				"per_page": {"2"}, "body": {"Sedan"}, "fuel_type": {"hev"}, "drive_type": {"FWD"}, "ev_only": {"1"}},
			check: func(t *testing.T, got any) {
				p := got.(*CarPage)
				if len(p.Data) != 2 || p.Data[0].UUID != carUUID || p.Data[1].Model != "Model 3" {
					t.Fatalf("data = %+v", p.Data)
				}
				want := Meta{Page: 2, PerPage: 2, Total: 9, TotalPages: 5, MaxPage: 5}
				if !reflect.DeepEqual(p.Meta, want) {
					t.Errorf("meta = %+v, want %+v", p.Meta, want)
				}
				if p.RequestID != testRequestID || p.StatusCode != 200 || p.Attempts != 1 || p.Rate.QuotaRemaining != 983 {
					t.Errorf("response info = %+v", p.ResponseInfo)
				}
			},
		},
		{
			name:      "ListCars year window only",
			call:      func() (any, error) { return c.ListCars(ctx, CarQuery{YearMin: 2015, YearMax: 2020}) },
			wantPath:  "/v1/cars",
			wantQuery: url.Values{"year_min": {"2015"}, "year_max": {"2020"}},
		},
		{
			name:      "ListCars blank strings and EVOnly false are not sent",
			call:      func() (any, error) { return c.ListCars(ctx, CarQuery{Make: "  ", Model: "", Body: "\t", Year: 2020}) },
			wantPath:  "/v1/cars",
			wantQuery: url.Values{"year": {"2020"}},
		},
		{
			name:      "ListCars values needing escapes",
			call:      func() (any, error) { return c.ListCars(ctx, CarQuery{Make: "A&B +C", Q: "F-150 4x4=yes"}) },
			wantPath:  "/v1/cars",
			wantQuery: url.Values{"make": {"A&B +C"}, "q": {"F-150 4x4=yes"}},
		},
		{
			name:     "GetCar",
			call:     func() (any, error) { return c.GetCar(ctx, carUUID) },
			wantPath: "/v1/cars/" + carUUID,
			check: func(t *testing.T, got any) {
				car := got.(*Car)
				if car.Make != "Toyota" || car.Trim != "LE Hybrid" || *car.DisplacementL != 2.5 || *car.Cylinders != 4 ||
					*car.MPGCombined != 52 || car.EPARangeMiles != nil || *car.CO2GPM != 170.5 || !car.Electrified {
					t.Errorf("car = %+v", car)
				}
			},
		},
		{
			name:     "CarTireSizes",
			call:     func() (any, error) { return c.CarTireSizes(ctx, carUUID) },
			wantPath: "/v1/cars/" + carUUID + "/tire-sizes",
			check: func(t *testing.T, got any) {
				ct := got.(*CarTires)
				if ct.Car.UUID != carUUID || ct.Car.Trim != "LE Hybrid" || ct.Match != MatchExactYear || len(ct.Fitments) != 1 {
					t.Fatalf("car tires = %+v", ct)
				}
				if ct.Fitments[0].OEM.Size != "215/55R17" || len(ct.Fitments[0].Alternates) != 2 {
					t.Errorf("fitment = %+v", ct.Fitments[0])
				}
			},
		},
		{
			name:     "CarMakes",
			call:     func() (any, error) { return c.CarMakes(ctx) },
			wantPath: "/v1/cars/makes",
			check: func(t *testing.T, got any) {
				want := []MakeCount{{"Honda", 41}, {"Toyota", 57}}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("makes = %+v", got)
				}
			},
		},
		{
			name:      "CarModels",
			call:      func() (any, error) { return c.CarModels(ctx, "Toyota") },
			wantPath:  "/v1/cars/models",
			wantQuery: url.Values{"make": {"Toyota"}},
			check: func(t *testing.T, got any) {
				want := []ModelRange{{"Camry", 12, 2015, 2024}, {"RAV4", 9, 2016, 2024}}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("models = %+v", got)
				}
			},
		},
		{
			name:     "CarModels without make sends no parameter",
			call:     func() (any, error) { return c.CarModels(ctx, "") },
			wantPath: "/v1/cars/models",
		},
		{
			name:     "CarBodyTypes",
			call:     func() (any, error) { return c.CarBodyTypes(ctx) },
			wantPath: "/v1/cars/body-types",
			check: func(t *testing.T, got any) {
				if want := []NameCount{{"Sedan", 120}, {"Van", 0}}; !reflect.DeepEqual(got, want) {
					t.Errorf("body types = %+v", got)
				}
			},
		},
		{
			name: "ListMotorcycles",
			call: func() (any, error) {
				return c.ListMotorcycles(ctx, MotorcycleQuery{Make: "Honda", YearMin: 2019, YearMax: 2023, MotorcycleType: "UTV / SXS", VehicleType: "ATV/UTV"})
			},
			wantPath:  "/v1/motorcycles",
			wantQuery: url.Values{"make": {"Honda"}, "year_min": {"2019"}, "year_max": {"2023"}, "motorcycle_type": {"UTV / SXS"}, "vehicle_type": {"ATV/UTV"}},
			check: func(t *testing.T, got any) {
				p := got.(*MotorcyclePage)
				if len(p.Data) != 1 || p.Data[0].MotorcycleType != "UTV / SXS" || p.NextPage != 0 {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name:     "GetMotorcycle",
			call:     func() (any, error) { return c.GetMotorcycle(ctx, motoUUID) },
			wantPath: "/v1/motorcycles/" + motoUUID,
			check: func(t *testing.T, got any) {
				m := got.(*Motorcycle)
				if m.VehicleType != "ATV/UTV" || *m.DisplacementCC != 999 || m.PowerHP != nil || m.EngineType != "Parallel twin" {
					t.Errorf("motorcycle = %+v", m)
				}
			},
		},
		{
			name:     "MotorcycleMakes",
			call:     func() (any, error) { return c.MotorcycleMakes(ctx) },
			wantPath: "/v1/motorcycles/makes",
		},
		{
			name:      "MotorcycleModels",
			call:      func() (any, error) { return c.MotorcycleModels(ctx, "Honda") },
			wantPath:  "/v1/motorcycles/models",
			wantQuery: url.Values{"make": {"Honda"}},
		},
		{
			name:     "MotorcycleTypes",
			call:     func() (any, error) { return c.MotorcycleTypes(ctx) },
			wantPath: "/v1/motorcycles/types",
			check: func(t *testing.T, got any) {
				want := []TypeCount{{"Street Motorcycle", "Motorcycle", 150}, {"Golf Cart", "ATV/UTV", 0}}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("types = %+v", got)
				}
			},
		},
		{
			name: "ListBoats with zero and fractional bounds",
			call: func() (any, error) {
				return c.ListBoats(ctx, BoatQuery{HullType: "Aluminum", FuelType: "Gas", ModelType: "Center Console",
					HPMin: new(0), HPMax: new(300), LengthMin: new(18.5), LengthMax: new(24.0)})
			},
			wantPath: "/v1/boats",
			wantQuery: url.Values{"hull_type": {"Aluminum"}, "fuel_type": {"Gas"}, "model_type": {"Center Console"},
				"hp_min": {"0"}, "hp_max": {"300"}, "length_min": {"18.5"}, "length_max": {"24"}},
			check: func(t *testing.T, got any) {
				p := got.(*BoatPage)
				if len(p.Data) != 1 || p.Data[0].LengthFt != 21.5 || p.Data[0].HP != 200 {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name:     "GetBoat",
			call:     func() (any, error) { return c.GetBoat(ctx, boatUUID) },
			wantPath: "/v1/boats/" + boatUUID,
			check: func(t *testing.T, got any) {
				want := Boat{UUID: boatUUID, Make: "Boston Whaler", Model: "210 Montauk", Year: 2022, ModelType: "Center Console",
					LengthFt: 21.5, BeamFt: 8.5, DryWeightLbs: 3100, EngineCount: 1, HP: 200, HullType: "Fiberglass", FuelType: "Gas"}
				if *got.(*Boat) != want {
					t.Errorf("boat = %+v", got)
				}
			},
		},
		{
			name:     "BoatMakes",
			call:     func() (any, error) { return c.BoatMakes(ctx) },
			wantPath: "/v1/boats/makes",
		},
		{
			name:      "BoatModels",
			call:      func() (any, error) { return c.BoatModels(ctx, "Boston Whaler") },
			wantPath:  "/v1/boats/models",
			wantQuery: url.Values{"make": {"Boston Whaler"}},
		},
		{
			name:     "BoatHullTypes",
			call:     func() (any, error) { return c.BoatHullTypes(ctx) },
			wantPath: "/v1/boats/hull-types",
			check: func(t *testing.T, got any) {
				if want := []NameCount{{"Fiberglass", 250}, {"Aluminum", 58}}; !reflect.DeepEqual(got, want) {
					t.Errorf("hull types = %+v", got)
				}
			},
		},
		{
			name: "ListTireSizes",
			call: func() (any, error) {
				return c.ListTireSizes(ctx, TireSizeQuery{TireSize: "215/55R17", Make: "Toyota", PerPage: 10})
			},
			wantPath:  "/v1/tire-sizes",
			wantQuery: url.Values{"tire_size": {"215/55R17"}, "make": {"Toyota"}, "per_page": {"10"}},
		},
		{
			name:     "GetTireSize",
			call:     func() (any, error) { return c.GetTireSize(ctx, tireUUID) },
			wantPath: "/v1/tire-sizes/" + tireUUID,
			check: func(t *testing.T, got any) {
				tf := got.(*TireFitment)
				if tf.TireSize != "215/55R17" || tf.RearTireSize != nil || !reflect.DeepEqual(tf.AlternateSizes, []string{"225/50R17", "205/60R16"}) {
					t.Errorf("fitment = %+v", tf)
				}
			},
		},
		{
			name:     "TireGeometry",
			call:     func() (any, error) { return c.TireGeometry(ctx, tireUUID) },
			wantPath: "/v1/tire-sizes/" + tireUUID + "/geometry",
			check: func(t *testing.T, got any) {
				g := got.(*FitmentGeometry)
				if g.Rear != nil || g.WindowPct != 3 || g.OEM.RevsPerMile != 766.4 || g.Fitment.UUID != tireUUID {
					t.Errorf("geometry = %+v", g)
				}
				alt := g.Alternates[1]
				if alt.Size != "205/60R16" || alt.DiameterDiffIn != -0.62 || alt.DiameterDiffPct != -2.36 || !alt.WithinWindow || alt.WidthMM != 205 {
					t.Errorf("alternate = %+v", alt)
				}
			},
		},
		{
			name:      "TirePlusSizes",
			call:      func() (any, error) { return c.TirePlusSizes(ctx, tireUUID, 1) },
			wantPath:  "/v1/tire-sizes/" + tireUUID + "/plus-sizes",
			wantQuery: url.Values{"window": {"1"}},
			check: func(t *testing.T, got any) {
				p := got.(*FitmentPlusSizes)
				if p.Rear != nil || p.WindowPct != 1 || *p.Front.LoadKg != 670 || len(p.Front.Rims) != 1 || p.Fitment.UUID != tireUUID {
					t.Fatalf("plus sizes = %+v", p)
				}
				if s := p.Front.Rims[0].Sizes[0]; s.Size != "225/45R18" || s.Speedometer60 != 60.8 || !s.Reinforced || *s.MinLoadIndex != 94 || *s.MinSpeedRating != "V" {
					t.Errorf("size = %+v", s)
				}
			},
		},
		{
			name:     "TirePlusSizes default window sends no parameter",
			call:     func() (any, error) { return c.TirePlusSizes(ctx, tireUUID, 0) },
			wantPath: "/v1/tire-sizes/" + tireUUID + "/plus-sizes",
		},
		{
			name: "LookupTireSize",
			call: func() (any, error) {
				return c.LookupTireSize(ctx, SizeLookupQuery{Size: "35x12.50R17 LT", Window: 5, Make: "Jeep", Year: 2020, Page: 2, PerPage: 3})
			},
			wantPath: "/v1/tire-sizes/lookup",
			wantQuery: url.Values{"size": {"35x12.50R17 LT"}, "window": {"5"}, "make": {"Jeep"}, "year": {"2020"}, "page": {"2"},
				"per_page": {"3"}},
			check: func(t *testing.T, got any) {
				l := got.(*SizeLookup)
				if len(l.Fitments) != 1 || l.Fitments[0].Roles[0] != "oem" || l.Facets.Makes[0].Count != 1 || l.Facets.Years[0].Year != 2022 || l.Meta.Total != 1 {
					t.Errorf("lookup = %+v", l)
				}
			},
		},
		{
			name:     "TireSizeMakes",
			call:     func() (any, error) { return c.TireSizeMakes(ctx) },
			wantPath: "/v1/tire-sizes/makes",
		},
		{
			name:      "TireSizeModels",
			call:      func() (any, error) { return c.TireSizeModels(ctx, "Toyota") },
			wantPath:  "/v1/tire-sizes/models",
			wantQuery: url.Values{"make": {"Toyota"}},
		},
		{
			name:     "Makes by kind",
			call:     func() (any, error) { return c.Makes(ctx, KindBoat) },
			wantPath: "/v1/boats/makes",
		},
		{
			name:      "Models by kind",
			call:      func() (any, error) { return c.Models(ctx, KindTireSize, "Ford") },
			wantPath:  "/v1/tire-sizes/models",
			wantQuery: url.Values{"make": {"Ford"}},
		},
		{
			name:     "Me",
			call:     func() (any, error) { return c.Me(ctx) },
			wantPath: "/v1/me",
			check: func(t *testing.T, got any) {
				me := got.(*Me)
				if me.Account.Email != "demo@example.com" || !me.Account.CreatedAt.Equal(time.Date(2026, 11, 1, 9, 30, 0, 0, time.UTC)) {
					t.Errorf("account = %+v", me.Account)
				}
				if me.Plan != (Plan{Name: "developer", RatePerMinute: 300, MonthlyQuota: 100000, APIAccess: true}) {
					t.Errorf("plan = %+v", me.Plan)
				}
				if *me.RateLimit.Limit != 300 || *me.RateLimit.Remaining != 299 || *me.Quota.Limit != 100000 ||
					*me.Quota.Remaining != 99958 || me.Quota.Used != 42 || me.Quota.Period != "2026-11" {
					t.Errorf("limits = %+v %+v", me.RateLimit, me.Quota)
				}
				if me.Token.ID != "tok_9x" || !reflect.DeepEqual(me.Token.Scopes, []string{"api:read"}) {
					t.Errorf("token = %+v", me.Token)
				}
			},
		},
		{
			name:     "Lists",
			call:     func() (any, error) { return c.Lists(ctx) },
			wantPath: "/v1/lists",
			check: func(t *testing.T, got any) {
				ls := got.([]List)
				if len(ls) != 1 || ls[0].Name != "My garage" || !ls[0].IsDefault || len(ls[0].Items) != 2 {
					t.Fatalf("lists = %+v", ls)
				}
				present, missing := ls[0].Items[0], ls[0].Items[1]
				if present.Type != KindCar || present.Missing || present.Record == nil || *present.Record != (RecordRef{"Toyota", "Camry", 2022}) || present.Note != "daily driver" {
					t.Errorf("present item = %+v", present)
				}
				if missing.Type != KindBoat || !missing.Missing || missing.Record != nil || missing.UUID != boatUUID {
					t.Errorf("missing item = %+v", missing)
				}
			},
		},
		{
			name:     "Changelog",
			call:     func() (any, error) { return c.Changelog(ctx) },
			wantPath: "/v1/changelog",
			check: func(t *testing.T, got any) {
				cl := got.([]ChangelogEntry)
				if len(cl) != 1 || cl[0].Version != "1.0.0" || cl[0].Date != "2026-11-21" || len(cl[0].Changes) != 1 {
					t.Errorf("changelog = %+v", cl)
				}
			},
		},
		{
			name:     "OpenAPI raw bytes",
			call:     func() (any, error) { return c.OpenAPI(ctx) },
			wantPath: "/v1/openapi.json",
			check: func(t *testing.T, got any) {
				if string(got.([]byte)) != openAPIDoc {
					t.Errorf("openapi = %s", got)
				}
			},
		},
		{
			name:     "Ready",
			call:     func() (any, error) { return nil, c.Ready(ctx) },
			wantPath: "/readyz",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.count()
			got, err := tt.call()
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			reqs := f.requests()[before:]
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != http.MethodGet || r.Path != tt.wantPath {
				t.Errorf("request = %s %s, want GET %s", r.Method, r.Path, tt.wantPath)
			}
			wantQuery := tt.wantQuery
			if wantQuery == nil {
				wantQuery = url.Values{}
			}
			if !reflect.DeepEqual(r.Query, wantQuery) {
				t.Errorf("query = %v (raw %q), want %v", r.Query, r.RawQuery, wantQuery)
			}
			if got := r.Header.Get("Authorization"); got != "Bearer "+testToken {
				t.Errorf("Authorization = %q", got)
			}
			if got := r.Header.Get("User-Agent"); got != DefaultUserAgent {
				t.Errorf("User-Agent = %q", got)
			}
			if got := r.Header.Get("Accept"); !strings.Contains(got, "application/problem+json") {
				t.Errorf("Accept = %q", got)
			}
			if tt.check != nil {
				tt.check(t, got)
			}
		})
	}
}

// TestDecodeNulls checks that null fields decode to nil pointers and set
// ones to values, for every nullable field of the wire types.
func TestDecodeNulls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		path  string
		body  string
		check func(t *testing.T, c *Client)
	}{
		{
			name: "car without enrichment",
			path: "/v1/cars/" + car2UUID,
			body: env(carBare),
			check: func(t *testing.T, c *Client) {
				car, err := c.GetCar(context.Background(), car2UUID)
				if err != nil {
					t.Fatal(err)
				}
				if car.DisplacementL != nil || car.Cylinders != nil || car.FuelEconomy != (FuelEconomy{}) {
					t.Errorf("car = %+v, want null engine and EPA fields", car)
				}
				if car.Engine != "Electric" || car.FuelType != "BATTERY ELECTRIC VEHICLE (BEV)" {
					t.Errorf("car = %+v", car)
				}
			},
		},
		{
			name: "staggered fitment",
			path: "/v1/tire-sizes/" + tireUUID,
			body: env(tireStaggered),
			check: func(t *testing.T, c *Client) {
				tf, err := c.GetTireSize(context.Background(), tireUUID)
				if err != nil {
					t.Fatal(err)
				}
				if tf.RearTireSize == nil || *tf.RearTireSize != "285/30R20" || tf.AlternateSizes == nil || len(tf.AlternateSizes) != 0 {
					t.Errorf("fitment = %+v", tf)
				}
			},
		},
		{
			name: "staggered geometry",
			path: "/v1/tire-sizes/" + tireUUID + "/geometry",
			body: env(`{"fitment":` + tireStaggered + `,"oem":{"size":"275/35R19"},"rear":{"size":"285/30R20","diameter_in":26.73},"alternates":[],"window_pct":3}`),
			check: func(t *testing.T, c *Client) {
				g, err := c.TireGeometry(context.Background(), tireUUID)
				if err != nil {
					t.Fatal(err)
				}
				if g.Rear == nil || g.Rear.Size != "285/30R20" || g.Rear.DiameterIn != 26.73 {
					t.Errorf("rear = %+v", g.Rear)
				}
			},
		},
		{
			name: "unlimited plan",
			path: "/v1/me",
			body: env(meUnlimitedJSON),
			check: func(t *testing.T, c *Client) {
				me, err := c.Me(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if me.RateLimit.Limit != nil || me.RateLimit.Remaining != nil || me.Quota.Limit != nil || me.Quota.Remaining != nil {
					t.Errorf("limits = %+v %+v, want nulls", me.RateLimit, me.Quota)
				}
				if me.Quota.Used != 7 || me.Plan.MonthlyQuota != 0 {
					t.Errorf("me = %+v", me)
				}
			},
		},
		{
			name: "car with no fitments",
			path: "/v1/cars/" + carUUID + "/tire-sizes",
			body: env(`{"car":{"uuid":"` + carUUID + `","make":"Lada","model":"Niva","year":1990,"trim":""},"match":"none","fitments":[]}`),
			check: func(t *testing.T, c *Client) {
				ct, err := c.CarTireSizes(context.Background(), carUUID)
				if err != nil {
					t.Fatal(err)
				}
				if ct.Match != MatchNone || ct.Fitments == nil || len(ct.Fitments) != 0 {
					t.Errorf("car tires = %+v", ct)
				}
			},
		},
		{
			name: "empty page",
			path: "/v1/cars",
			body: `{"data":[],"meta":{"page":3,"per_page":10,"total":0,"total_pages":0,"max_page":0,"truncated":false}}`,
			check: func(t *testing.T, c *Client) {
				p, err := c.ListCars(context.Background(), CarQuery{Make: "Nope", Page: 3})
				if err != nil {
					t.Fatal(err)
				}
				if p.Data == nil || len(p.Data) != 0 || p.NextPage != 0 || p.PrevPage != 0 || p.HasNext() {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "null list data becomes empty",
			path: "/v1/lists",
			body: `{"data":null}`,
			check: func(t *testing.T, c *Client) {
				ls, err := c.Lists(context.Background())
				if err != nil || ls == nil || len(ls) != 0 {
					t.Errorf("lists = %#v, %v", ls, err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != tt.path {
					t.Errorf("path = %s, want %s", r.URL.Path, tt.path)
				}
				writeBody(w, tt.body)
			})
			tt.check(t, f.client())
		})
	}
}

// TestInvalidUUIDIsLocal checks that malformed uuids fail before any
// request: "makes" would otherwise reach /v1/cars/makes.
func TestInvalidUUIDIsLocal(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeBody(w, env(carEnriched)) })
	c := f.client()
	ctx := context.Background()
	for _, id := range []string{"", "makes", "models", carUUID[:35], carUUID + "0", "{" + carUUID[1:35] + "}", strings.ReplaceAll(carUUID, "-", "_"), "0b7f3c2e-8d1a-5e4b-9c6f-1a2b3c4d5e6g", "../../v1/me#aaaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		calls := map[string]func() error{
			"GetCar":        func() error { _, err := c.GetCar(ctx, id); return err },
			"CarTireSizes":  func() error { _, err := c.CarTireSizes(ctx, id); return err },
			"GetMotorcycle": func() error { _, err := c.GetMotorcycle(ctx, id); return err },
			"GetBoat":       func() error { _, err := c.GetBoat(ctx, id); return err },
			"GetTireSize":   func() error { _, err := c.GetTireSize(ctx, id); return err },
			"TireGeometry":  func() error { _, err := c.TireGeometry(ctx, id); return err },
			"TirePlusSizes": func() error { _, err := c.TirePlusSizes(ctx, id, 3); return err },
		}
		for name, call := range calls {
			if err := call(); !errors.Is(err, ErrInvalidUUID) {
				t.Errorf("%s(%q) = %v, want ErrInvalidUUID", name, id, err)
			}
		}
	}
	if n := f.count(); n != 0 {
		t.Errorf("%d requests made for invalid uuids", n)
	}
	// Upper case is the server's too: it must pass.
	if _, err := c.GetCar(ctx, strings.ToUpper(carUUID)); err != nil {
		t.Errorf("upper-case uuid: %v", err)
	}
}

func TestUnknownKind(t *testing.T) {
	t.Parallel()
	c := New("http://127.0.0.1:1", testToken)
	if _, err := c.Makes(context.Background(), Kind("plane")); err == nil || !strings.Contains(err.Error(), "plane") {
		t.Errorf("Makes(plane) = %v", err)
	}
	if _, err := c.Models(context.Background(), Kind(""), "x"); err == nil {
		t.Error("Models(empty kind) succeeded")
	}
}

func TestParseKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Kind
	}{
		{"car", KindCar}, {"Cars", KindCar}, {" motorcycle ", KindMotorcycle}, {"motorcycles", KindMotorcycle},
		{"boat", KindBoat}, {"BOATS", KindBoat}, {"tire", KindTireSize}, {"tires", KindTireSize},
		{"tire-size", KindTireSize}, {"tire_sizes", KindTireSize}, {"tire-sizes", KindTireSize}, {"tire_size", KindTireSize},
		{"plane", ""}, {"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseKind(tt.in)
			if got != tt.want || (err != nil) != (tt.want == "") {
				t.Errorf("ParseKind(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestBaseURLNormalisation(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"http://localhost:8080", "http://localhost:8080"},
		{"http://localhost:8080/", "http://localhost:8080"},
		{"http://localhost:8080/v1", "http://localhost:8080"},
		{"http://localhost:8080/v1/", "http://localhost:8080"},
		{" https://api.example.com/vds/v1 ", "https://api.example.com/vds"},
		{"https://api.example.com/v10", "https://api.example.com/v10"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := New(tt.in, "").BaseURL(); got != tt.want {
				t.Errorf("BaseURL() = %q, want %q", got, tt.want)
			}
		})
	}
	// A base URL ending in /v1 must address the same paths.
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeBody(w, env(makesJSON)) })
	if _, err := New(f.srv.URL+"/v1/", testToken).CarMakes(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := f.requests()[0].Path; p != "/v1/cars/makes" {
		t.Errorf("path = %s", p)
	}
}

func TestOptions(t *testing.T) {
	t.Parallel()
	var hits int
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		hits++
		if ua := r.Header.Get("User-Agent"); ua != "vds-cli/9.9" {
			t.Errorf("User-Agent = %q", ua)
		}
		if id := r.Header.Get("X-Request-Id"); id != "trace-42" {
			t.Errorf("X-Request-Id = %q", id)
		}
		if auth := r.Header.Get("Authorization"); auth != "" {
			t.Errorf("Authorization = %q, want none for an empty token", auth)
		}
		h := http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"trace-42"}}
		return &http.Response{StatusCode: 200, Header: h, Body: bodyOf(env(makesJSON)), Request: r}, nil
	})
	hc := &http.Client{Transport: rt, Timeout: time.Minute}
	c := New("http://vds.invalid", "", WithHTTPClient(hc), WithUserAgent("vds-cli/9.9"), WithTimeout(3*time.Second))
	var info ResponseInfo
	makes, err := c.CarMakes(context.Background(), SendRequestID("trace-42"), CaptureInfo(&info))
	if err != nil || len(makes) != 2 || hits != 1 {
		t.Fatalf("CarMakes = %v, %v (hits %d)", makes, err, hits)
	}
	if info.RequestID != "trace-42" || info.StatusCode != 200 || info.Attempts != 1 || info.Rate.HasRate {
		t.Errorf("info = %+v", info)
	}
	if hc.Timeout != time.Minute || hc.Transport == nil {
		t.Errorf("caller's http.Client was modified: %+v", hc)
	}
	if got := c.rc.GetClient().Timeout; got != 3*time.Second {
		t.Errorf("timeout = %v, want 3s", got)
	}
}

// TestConcurrentCallsKeepTheirOwnInfo runs calls in parallel under -race:
// each CaptureInfo must get its own request's id.
func TestConcurrentCallsKeepTheirOwnInfo(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", r.Header.Get("X-Request-Id"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(env(makesJSON)))
	})
	c := f.client()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			id := "req-" + strings.Repeat("x", i)
			var info ResponseInfo
			if _, err := c.BoatMakes(context.Background(), SendRequestID(id), CaptureInfo(&info)); err != nil {
				t.Error(err)
				return
			}
			if info.RequestID != id {
				t.Errorf("info.RequestID = %q, want %q", info.RequestID, id)
			}
		})
	}
	wg.Wait()
}

func TestNonJSONSuccessBody(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<html>welcome to nginx</html>"))
	})
	_, err := f.client().CarMakes(context.Background())
	if err == nil || !strings.Contains(err.Error(), "base URL") {
		t.Errorf("err = %v, want a hint about the base URL", err)
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		t.Errorf("a 200 must not become an APIError: %v", apiErr)
	}
}

func TestMalformedSuccessBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		call func(c *Client) error
		body string
		want string
	}{
		{"truncated JSON", func(c *Client) error { _, err := c.CarMakes(context.Background()); return err }, `{"data":[{"name":"Acura"`, "decode response"},
		{"wrong shape", func(c *Client) error { _, err := c.GetCar(context.Background(), carUUID); return err }, env(makesJSON), "decode response"},
		{"empty OpenAPI document", func(c *Client) error { _, err := c.OpenAPI(context.Background()); return err }, "", "empty document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeBody(w, tt.body) })
			err := tt.call(f.client())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to mention %q", err, tt.want)
			}
			if f.count() != 1 {
				t.Errorf("%d requests: a bad 2xx body must not be retried", f.count())
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

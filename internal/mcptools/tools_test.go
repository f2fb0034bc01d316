package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/mcptools"
	"github.com/vds-dev/vds/internal/vehicle"
)

// plural is the REST path segment of a record type.
var plural = map[catalog.Kind]string{
	catalog.KindCar: "cars", catalog.KindMotorcycle: "motorcycles",
	catalog.KindBoat: "boats", catalog.KindTireSize: "tire-sizes",
}

// twinCase is one query asked through a tool and through its REST twin.
type twinCase struct {
	tool string
	args map[string]any
	// path is the REST request with the same query.
	path string
	// adjust, when set, brings a REST body (fromREST) to the tool's shape,
	// or removes from both what legitimately differs between two requests.
	adjust func(body map[string]any, fromREST bool)
}

// twinCases covers every tool with queries that exercise each record
// type, paging, filters and the account data.
func twinCases(e *env) []twinCase {
	car, moto, boat, tire := e.cat.Cars[0], e.cat.Motorcycles[0], e.cat.Boats[0], e.cat.TireSizes[0]
	var cases []twinCase
	search := func(args map[string]any) {
		q := url.Values{}
		for k, v := range args {
			if k != "type" {
				q.Set(k, fmt.Sprint(v))
			}
		}
		cases = append(cases, twinCase{tool: "search_vehicles", args: args,
			path: "/v1/" + plural[catalog.Kind(args["type"].(string))] + "?" + q.Encode()})
	}
	search(map[string]any{"type": "car", "make": car.Make})
	search(map[string]any{"type": "car", "make": car.Make, "model": car.Model, "per_page": 2, "page": 2})
	search(map[string]any{"type": "car", "year_min": 2015, "year_max": 2024, "ev_only": true})
	search(map[string]any{"type": "car", "q": strings.ToLower(car.Model), "body": car.Body})
	search(map[string]any{"type": "motorcycle", "make": moto.Make, "motorcycle_type": moto.MotorcycleType})
	search(map[string]any{"type": "boat", "hull_type": boat.HullType, "hp_min": 100, "length_max": 40.5})
	search(map[string]any{"type": "tire_size", "tire_size": tire.TireSize})
	search(map[string]any{"type": "tire_size", "make": tire.Make, "year": tire.Year})

	for _, r := range []struct {
		kind catalog.Kind
		id   string
	}{{catalog.KindCar, car.UUID.String()}, {catalog.KindMotorcycle, moto.UUID.String()},
		{catalog.KindBoat, boat.UUID.String()}, {catalog.KindTireSize, tire.UUID.String()}} {
		cases = append(cases, twinCase{tool: "get_vehicle", args: map[string]any{"type": string(r.kind), "uuid": r.id},
			path: "/v1/" + plural[r.kind] + "/" + r.id})
	}
	cases = append(cases,
		twinCase{tool: "decode_vin", args: map[string]any{"vin": strings.ToLower(upstreamtest.KnownVIN)}, path: "/v1/vin/" + upstreamtest.KnownVIN},
		twinCase{tool: "decode_vin", args: map[string]any{"vins": []string{upstreamtest.KnownVIN, "ZZZZZZZZZZZZZZZZZ", "1FTMW1T88"}},
			path: "/v1/vins?vin=" + upstreamtest.KnownVIN + "&vin=ZZZZZZZZZZZZZZZZZ&vin=1FTMW1T88"},
		twinCase{tool: "decode_hin", args: map[string]any{"hin": "us-bwc 12345 l718"}, path: "/v1/hin/US-BWC12345L718"},
		twinCase{tool: "decode_hin", args: map[string]any{"hins": []string{"BWC12345L718", "BWC12O45L718", "BOA13579M84E"}},
			path: "/v1/hins?hin=BWC12345L718&hin=BWC12O45L718&hin=BOA13579M84E"},
		twinCase{tool: "vehicle_recalls", args: map[string]any{"type": "car", "uuid": car.UUID.String()}, path: "/v1/cars/" + car.UUID.String() + "/recalls"},
		twinCase{tool: "vehicle_recalls", args: map[string]any{"type": "motorcycle", "uuid": moto.UUID.String()}, path: "/v1/motorcycles/" + moto.UUID.String() + "/recalls"},
		twinCase{tool: "vehicle_complaints", args: map[string]any{"type": "car", "uuid": car.UUID.String(), "per_page": 3}, path: "/v1/cars/" + car.UUID.String() + "/complaints?per_page=3"},
		twinCase{tool: "vehicle_complaints", args: map[string]any{"type": "motorcycle", "uuid": moto.UUID.String()}, path: "/v1/motorcycles/" + moto.UUID.String() + "/complaints"},
	)
	// The car's own tire lookup is the REST twin of the make/model/year
	// one, with the car it was made for.
	withoutCar := func(body map[string]any, fromREST bool) {
		if fromREST {
			delete(body["data"].(map[string]any), "car")
		}
	}
	for _, c := range []catalog.Car{car, e.cat.Cars[len(e.cat.Cars)/2]} {
		cases = append(cases, twinCase{tool: "tire_sizes_for_vehicle",
			args: map[string]any{"make": c.Make, "model": c.Model, "year": c.Year},
			path: "/v1/cars/" + c.UUID.String() + "/tire-sizes", adjust: withoutCar})
	}
	cases = append(cases,
		twinCase{tool: "tire_geometry", args: map[string]any{"uuid": tire.UUID.String()}, path: "/v1/tire-sizes/" + tire.UUID.String() + "/geometry"},
		twinCase{tool: "tire_plus_sizes", args: map[string]any{"uuid": tire.UUID.String()}, path: "/v1/tire-sizes/" + tire.UUID.String() + "/plus-sizes"},
		twinCase{tool: "tire_plus_sizes", args: map[string]any{"uuid": tire.UUID.String(), "window": 1}, path: "/v1/tire-sizes/" + tire.UUID.String() + "/plus-sizes?window=1"},
		twinCase{tool: "tire_size_lookup", args: map[string]any{"size": tire.TireSize}, path: "/v1/tire-sizes/lookup?size=" + url.QueryEscape(tire.TireSize)},
		twinCase{tool: "tire_size_lookup", args: map[string]any{"size": "35x12.50R17 LT", "window": 5, "page": 2, "per_page": 1, "make": "jeep"},
			path: "/v1/tire-sizes/lookup?size=" + url.QueryEscape("35x12.50R17 LT") + "&window=5&page=2&per_page=1&make=jeep"},
		twinCase{tool: "my_garage", args: map[string]any{}, path: "/v1/lists"},
		twinCase{tool: "garage_recalls", args: map[string]any{}, path: "/v1/lists/recalls"},
		twinCase{tool: "account_usage", args: map[string]any{}, path: "/v1/me",
			// Each request takes a unit of the rate window and may straddle
			// the turn of a minute; the rest of /me must be equal.
			adjust: func(body map[string]any, _ bool) {
				rl := body["data"].(map[string]any)["rate_limit"].(map[string]any)
				delete(rl, "remaining")
				delete(rl, "reset")
			}},
	)
	// list_makes adds meta.total (TestListMakesLimitAndQ); data is REST's
	// while every make fits under the limit.
	withoutMeta := func(body map[string]any, fromREST bool) {
		if !fromREST {
			delete(body, "meta")
		}
	}
	for _, k := range catalog.Kinds {
		cases = append(cases,
			twinCase{tool: "list_makes", args: map[string]any{"type": string(k)}, path: "/v1/" + plural[k] + "/makes", adjust: withoutMeta})
	}
	cases = append(cases,
		twinCase{tool: "list_models", args: map[string]any{"type": "car", "make": strings.ToUpper(car.Make)}, path: "/v1/cars/models?make=" + url.QueryEscape(strings.ToUpper(car.Make))},
		twinCase{tool: "list_models", args: map[string]any{"type": "boat", "make": boat.Make}, path: "/v1/boats/models?make=" + url.QueryEscape(boat.Make)},
		twinCase{tool: "list_models", args: map[string]any{"type": "tire_size", "make": "No Such Make"}, path: "/v1/tire-sizes/models?make=No+Such+Make"},
	)
	return cases
}

// TestToolsMatchREST calls every tool over real HTTP, in both protocol
// revisions, and holds its structured content (and the JSON text copy)
// equal to the REST response body for the same query.
func TestToolsMatchREST(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := twinCases(e)
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.tool] = true
	}
	for _, tool := range mcptools.Tools(mcptools.Deps{}) {
		if !covered[tool.Def.Name] {
			t.Errorf("no REST comparison for tool %s: add one to twinCases", tool.Def.Name)
		}
	}
	for _, rev := range []string{modern, legacy} {
		t.Run(rev, func(t *testing.T) {
			c := e.client(t, e.tokens["dev"], rev)
			for i, tc := range cases {
				t.Run(fmt.Sprintf("%02d_%s", i, tc.tool), func(t *testing.T) {
					res := call(t, c, tc.tool, tc.args)
					if res.IsError {
						t.Fatalf("isError: %s", text(res))
					}
					resp, body := e.get(t, tc.path, e.tokens["dev"])
					if resp.StatusCode != 200 {
						t.Fatalf("REST %s: %d %s", tc.path, resp.StatusCode, body)
					}
					rest := decode(t, body).(map[string]any)
					structured := decode(t, mustJSON(t, res.StructuredContent)).(map[string]any)
					fromText := decode(t, []byte(text(res))).(map[string]any)
					if tc.adjust != nil {
						tc.adjust(rest, true)
						tc.adjust(structured, false)
						tc.adjust(fromText, false)
					}
					if !reflect.DeepEqual(structured, rest) {
						t.Errorf("structured content differs from REST %s\n tool: %s\n rest: %s", tc.path, mustJSON(t, structured), mustJSON(t, rest))
					}
					if !reflect.DeepEqual(fromText, structured) {
						t.Errorf("text content differs from structured content")
					}
				})
			}
		})
	}
}

// TestListMakesLimitAndQ: list_makes returns the first limit makes of
// REST's list, or those whose name contains q, and counts all that match.
func TestListMakesLimitAndQ(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client(t, e.tokens["dev"], modern)
	_, body := e.get(t, "/v1/motorcycles/makes", e.tokens["dev"])
	var rest struct{ Data []vehicle.MakeCount }
	if err := json.Unmarshal(body, &rest); err != nil || len(rest.Data) < 3 {
		t.Fatalf("REST makes: %v %s", err, body)
	}
	q := strings.ToUpper(rest.Data[1].Name[1:3])
	var matching []vehicle.MakeCount
	for _, m := range rest.Data {
		if strings.Contains(strings.ToUpper(m.Name), q) {
			matching = append(matching, m)
		}
	}
	for _, tc := range []struct {
		args  map[string]any
		want  []vehicle.MakeCount
		total int
	}{
		{map[string]any{"type": "motorcycle", "limit": 2}, rest.Data[:2], len(rest.Data)},
		{map[string]any{"type": "motorcycle", "q": q}, matching, len(matching)},
		{map[string]any{"type": "motorcycle", "q": "no make has this"}, []vehicle.MakeCount{}, 0},
	} {
		res := call(t, c, "list_makes", tc.args)
		var got struct {
			Data []vehicle.MakeCount
			Meta struct{ Total int }
		}
		if err := json.Unmarshal([]byte(text(res)), &got); err != nil || res.IsError {
			t.Fatalf("%v: %v %s", tc.args, err, text(res))
		}
		if !reflect.DeepEqual(got.Data, tc.want) || got.Meta.Total != tc.total {
			t.Errorf("%v: %d makes, total %d; want %d, total %d", tc.args, len(got.Data), got.Meta.Total, len(tc.want), tc.total)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestListTools checks what tools/list shows in both revisions: every
// tool of the registry, each with an input and output schema and all four
// annotations stated.
func TestListTools(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var want []string
	for _, tool := range mcptools.Tools(mcptools.Deps{}) {
		want = append(want, tool.Def.Name)
	}
	slices.Sort(want)
	for _, rev := range []string{modern, legacy} {
		t.Run(rev, func(t *testing.T) {
			c := e.client(t, e.tokens["dev"], rev)
			res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range res.Tools {
				got = append(got, tool.Name)
				a := tool.Annotations
				// Only the tools that ask NHTSA reach outside vds.
				openWorld := tool.Name == "decode_vin" || tool.Name == "vehicle_recalls" || tool.Name == "vehicle_complaints"
				if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint ||
					a.IdempotentHint == nil || !*a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint != openWorld {
					t.Errorf("%s: annotations %+v, want read-only, not destructive, idempotent, open-world %v", tool.Name, a, openWorld)
				}
				if tool.Description == "" || tool.Title == "" {
					t.Errorf("%s: no description or title", tool.Name)
				}
				if tool.OutputSchema.Type != "object" || tool.OutputSchema.Properties["data"] == nil {
					t.Errorf("%s: output schema %+v has no data member", tool.Name, tool.OutputSchema)
				}
				if tool.InputSchema.Type != "object" {
					t.Errorf("%s: input schema type %q", tool.Name, tool.InputSchema.Type)
				}
				for name, p := range tool.InputSchema.Properties {
					if d, _ := p.(map[string]any)["description"].(string); d == "" {
						t.Errorf("%s: argument %s has no description", tool.Name, name)
					}
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("tools/list shows %v, want %v", got, want)
			}
		})
	}
}

// TestInvalidArguments checks that bad arguments give an isError result
// whose text tells the model what to change, in both revisions.
func TestInvalidArguments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	car := e.cat.Cars[0]
	cases := []struct {
		name string
		tool string
		args map[string]any
		want []string
	}{
		{"wrong type", "search_vehicles", map[string]any{"type": "car", "year": "2020"},
			[]string{"year must be a whole number from 1886 to 2100 such as 2020, not a string", "call search_vehicles again"}},
		{"null", "search_vehicles", map[string]any{"type": "car", "make": "Toyota", "year": nil},
			[]string{"year must be a whole number", "not null", "leave the argument out"}},
		{"bad enum", "search_vehicles", map[string]any{"type": "truck", "make": "Ford"},
			[]string{"type must be one of car, motorcycle, boat, tire_size, not \"truck\""}},
		{"missing", "search_vehicles", map[string]any{"make": "Ford"},
			[]string{"type is required (one of car, motorcycle, boat, tire_size)"}},
		{"typo", "search_vehicles", map[string]any{"type": "car", "yaer": 2020},
			[]string{`there is no argument "yaer" (did you mean year?)`, "search_vehicles takes only type, make, model, year"}},
		{"out of range", "search_vehicles", map[string]any{"type": "car", "make": "Ford", "per_page": 50},
			[]string{"per_page must be a whole number from 1 to 10, not 50"}},
		{"too broad", "search_vehicles", map[string]any{"type": "car"},
			[]string{"query_too_broad: this query would list every one of the cars", "narrow by make, model, q or a filter"}},
		{"open-ended window", "search_vehicles", map[string]any{"type": "car", "year_min": 1990},
			[]string{"query_too_broad: year_min=1990 has no year_max: give both bounds"}},
		{"wide window", "search_vehicles", map[string]any{"type": "car", "year_min": 1990, "year_max": 2020},
			[]string{"query_too_broad: year_min=1990..year_max=2020 spans 31 model years"}},
		{"filter of another type", "search_vehicles", map[string]any{"type": "car", "make": "Ford", "hull_type": "Steel"},
			[]string{`unknown_parameter: unknown parameter "hull_type" for cars`}},
		{"bad tire size", "search_vehicles", map[string]any{"type": "tire_size", "tire_size": "huge"},
			[]string{"invalid_parameter: tire_size \"huge\" is not a tire size"}},
		{"unknown body", "search_vehicles", map[string]any{"type": "car", "body": "Truck"},
			[]string{`invalid_parameter: body "Truck" is not a value of body for cars (did you mean`, "accepted values are Sedan, Coupe, Hatchback"}},
		{"unknown drive", "search_vehicles", map[string]any{"type": "car", "make": "Toyota", "drive_type": "4x4"},
			[]string{"did you mean 4WD?", "accepted values are FWD, RWD, AWD, 4WD"}},
		{"unknown boat fuel", "search_vehicles", map[string]any{"type": "boat", "fuel_type": "petrol"},
			[]string{`invalid_parameter: fuel_type "petrol" is not a value of fuel_type for boats`, "accepted values are Gas, Diesel, Electric"}},
		{"NUL in a string", "search_vehicles", map[string]any{"type": "car", "make": "Toy\x00ota"},
			[]string{"invalid_parameter: make has control character U+0000 at byte 3"}},
		{"control character", "list_models", map[string]any{"type": "car", "make": "\x1b[31mToyota"},
			[]string{"invalid_parameter: make has control character U+001B at byte 0"}},
		{"line break", "tire_sizes_for_vehicle", map[string]any{"make": "Toyota", "model": "Cam\nry", "year": 2020},
			[]string{"invalid_parameter: model has control character U+000A at byte 3"}},
		{"malformed uuid", "get_vehicle", map[string]any{"type": "car", "uuid": "12345"},
			[]string{`invalid_uuid: uuid "12345" is not a UUID`}},
		{"uuid of another type", "get_vehicle", map[string]any{"type": "boat", "uuid": car.UUID.String()},
			[]string{"not_found: no boats with uuid " + car.UUID.String(), "check that type is the record's type"}},
		{"unknown fitment", "tire_geometry", map[string]any{"uuid": car.UUID.String()},
			[]string{"not_found: no tire fitments with uuid", "the uuid must be a tire fitment's"}},
		{"unknown fitment's plus sizes", "tire_plus_sizes", map[string]any{"uuid": car.UUID.String()},
			[]string{"not_found: no tire fitments with uuid", "the uuid must be a tire fitment's"}},
		{"window out of range", "tire_plus_sizes", map[string]any{"uuid": car.UUID.String(), "window": 9},
			[]string{"window must be"}},
		{"not a tire size", "tire_size_lookup", map[string]any{"size": "225/45"},
			[]string{`invalid_parameter: size "225/45" is not a tire size`, "225/45R17", "35x12.50R17LT"}},
		{"limit out of range", "list_makes", map[string]any{"type": "motorcycle", "limit": 0},
			[]string{"limit must be a whole number from 1 to 1000, not 0"}},
		{"empty make", "list_models", map[string]any{"type": "car", "make": " "},
			[]string{"missing_parameter: make is required"}},
		{"year out of range", "tire_sizes_for_vehicle", map[string]any{"make": "Toyota", "model": "Camry", "year": 1800},
			[]string{"year must be a whole number from 1886 to 2100 such as 2020, not 1800"}},
		{"arguments to a tool without any", "account_usage", map[string]any{"verbose": true},
			[]string{`there is no argument "verbose"`, "account_usage takes no arguments"}},
	}
	for _, rev := range []string{modern, legacy} {
		t.Run(rev, func(t *testing.T) {
			c := e.client(t, e.tokens["dev"], rev)
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					res := call(t, c, tc.tool, tc.args)
					if !res.IsError {
						t.Fatalf("not an error: %s", text(res))
					}
					msg := text(res)
					for _, w := range tc.want {
						if !strings.Contains(msg, w) {
							t.Errorf("message %q\nlacks %q", msg, w)
						}
					}
					if strings.Contains(msg, "schema validation failed") {
						t.Errorf("mcp-go's own message leaked: %q", msg)
					}
				})
			}
		})
	}
}

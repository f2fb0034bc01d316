package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/access/accesstest"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/httpapi/apitest"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/watch"
)

// routes returns the route table. Routes only builds handler closures, so a
// Handler without dependencies is enough to read it.
func routes() []httpapi.Route {
	return httpapi.New(nil, nil, nil, nil, nil, nil, httpapi.Options{}).Routes()
}

// buildDoc builds the document of the real route table.
func buildDoc(t testing.TB) []byte {
	t.Helper()
	doc, err := httpapi.BuildOpenAPI(routes())
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// validator checks against the document; loading and validating it takes
// seconds under the race detector, so the package's tests share one.
var validator = sync.OnceValues(func() (*apitest.Validator, error) {
	doc, err := httpapi.BuildOpenAPI(routes())
	if err != nil {
		return nil, err
	}
	return apitest.New(doc)
})

func sharedValidator(t testing.TB) *apitest.Validator {
	t.Helper()
	v, err := validator()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// loadDoc is the document as kin-openapi loads it for the validator.
func loadDoc(t testing.TB) *openapi3.T {
	t.Helper()
	return sharedValidator(t).Doc()
}

// rawDoc is the document as generic JSON, to look at exactly what was written.
func rawDoc(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(buildDoc(t), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// at walks a generic JSON value along keys.
func at(t testing.TB, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("at %v: %q is not under an object", keys, k)
		}
		if v, ok = m[k]; !ok {
			t.Fatalf("at %v: no %q", keys, k)
		}
	}
	return v
}

func TestOpenAPIDocumentValidates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	doc := loadDoc(t)
	if err := doc.Validate(ctx); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() || doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if doc.Info.Title != "vds API" || doc.Info.Version != "1.5.0" || doc.Info.Description == "" {
		t.Errorf("info = %+v", doc.Info)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "/" {
		t.Errorf("servers = %v, want one server at /", doc.Servers)
	}
	bearer := doc.Components.SecuritySchemes["bearerAuth"]
	if bearer == nil || bearer.Value.Type != "http" || bearer.Value.Scheme != "bearer" {
		t.Errorf("bearerAuth scheme = %+v", bearer)
	}
	if len(doc.Security) != 1 || doc.Security[0]["bearerAuth"] == nil {
		t.Errorf("security = %v, want bearerAuth globally", doc.Security)
	}
}

// TestOpenAPILint holds the document to what linters (Spectral, Redocly)
// check: every tag used is declared and every declared tag used, every
// component referenced, and info has contact and license.
func TestOpenAPILint(t *testing.T) {
	doc := rawDoc(t)
	used := map[string]bool{}
	for _, item := range at(t, doc, "paths").(map[string]any) {
		for _, op := range item.(map[string]any) {
			for _, tag := range at(t, op, "tags").([]any) {
				used[tag.(string)] = true
			}
		}
	}
	declared := map[string]bool{}
	for _, tag := range at(t, doc, "tags").([]any) {
		declared[at(t, tag, "name").(string)] = true
	}
	if !maps.Equal(used, declared) {
		t.Errorf("tags used %v, declared %v", slices.Sorted(maps.Keys(used)), slices.Sorted(maps.Keys(declared)))
	}
	refs := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if r, ok := v["$ref"].(string); ok {
				refs[r] = true
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
	for kind, entries := range at(t, doc, "components").(map[string]any) {
		for name := range entries.(map[string]any) {
			if kind == "securitySchemes" {
				continue // referred to by name in security (TestOpenAPIDocumentValidates)
			}
			if ref := "#/components/" + kind + "/" + name; !refs[ref] {
				t.Errorf("%s is never referred to", ref)
			}
		}
	}
	for _, field := range []string{"contact", "license"} {
		if at(t, doc, "info", field, "name") == "" {
			t.Errorf("info.%s has no name", field)
		}
	}
}

func TestOpenAPIIsDeterministic(t *testing.T) {
	t.Parallel()
	a, b := buildDoc(t), buildDoc(t)
	if string(a) != string(b) {
		t.Fatal("two builds of the document differ")
	}
}

// TestOpenAPIHasEveryRoute: every route is an operation with its method,
// a unique operationId, a tag, x-charged as the route says, and the
// responses every endpoint can give.
func TestOpenAPIHasEveryRoute(t *testing.T) {
	t.Parallel()
	doc := loadDoc(t)
	rts := routes()
	ids := map[string]bool{}
	ops := 0
	for path, item := range doc.Paths.Map() {
		ops += len(item.Operations())
		// HEAD is GET without a body: same parameters and statuses.
		if item.Get == nil || item.Head == nil || len(item.Operations()) != 2 {
			t.Errorf("%s: operations %v, want GET and HEAD", path, slices.Collect(maps.Keys(item.Operations())))
			continue
		}
		if !slices.Equal(slices.Sorted(maps.Keys(item.Get.Responses.Map())), slices.Sorted(maps.Keys(item.Head.Responses.Map()))) ||
			len(item.Get.Parameters) != len(item.Head.Parameters) || item.Get.Extensions["x-charged"] != item.Head.Extensions["x-charged"] {
			t.Errorf("%s: HEAD differs from GET in statuses, parameters or charge", path)
		}
		for status, r := range item.Head.Responses.Map() {
			if len(r.Value.Content) != 0 {
				t.Errorf("HEAD %s: response %s has a body", path, status)
			}
		}
	}
	if ops != 2*len(rts) {
		t.Errorf("document has %d operations, route table %d routes (each GET and HEAD)", ops, len(rts))
	}
	for _, rt := range rts {
		method, path, _ := strings.Cut(rt.Pattern, " ")
		item := doc.Paths.Value(path)
		if item == nil {
			t.Errorf("%s: path missing", rt.Pattern)
			continue
		}
		op := item.GetOperation(method)
		if op == nil {
			t.Errorf("%s: method missing", rt.Pattern)
			continue
		}
		if op.OperationID == "" || ids[op.OperationID] {
			t.Errorf("%s: operationId %q empty or repeated", rt.Pattern, op.OperationID)
		}
		ids[op.OperationID] = true
		if op.Summary == "" || len(op.Tags) != 1 {
			t.Errorf("%s: summary %q, tags %v", rt.Pattern, op.Summary, op.Tags)
		}
		if got := op.Extensions["x-charged"]; got != rt.Charged {
			t.Errorf("%s: x-charged = %v, want %v", rt.Pattern, got, rt.Charged)
		}
		// A public route passes no door: no 401, 403, 429 or 503, and an
		// empty security list that overrides the document's bearerAuth.
		guarded := []int{401, 403, 429, 503}
		for _, status := range append([]int{200, 400, 500}, guarded...) {
			want := !rt.Public || !slices.Contains(guarded, status)
			if got := op.Responses.Status(status) != nil; got != want {
				t.Errorf("%s: documents %d = %v, want %v", rt.Pattern, status, got, want)
			}
		}
		if public := op.Security != nil && len(*op.Security) == 0; public != rt.Public {
			t.Errorf("%s: security %v, public route %v", rt.Pattern, op.Security, rt.Public)
		}
		wantNotFound := strings.Contains(path, "{uuid}")
		if got := op.Responses.Status(404) != nil; got != wantNotFound {
			t.Errorf("%s: documents 404 = %v, want %v", rt.Pattern, got, wantNotFound)
		}
		if strings.Contains(path, "{uuid}") {
			p := op.Parameters.GetByInAndName("path", "uuid")
			if p == nil || !p.Required || p.Schema.Value.Format != "uuid" {
				t.Errorf("%s: uuid path parameter = %+v", rt.Pattern, p)
			}
		}
	}
}

// TestBuildOpenAPIRejectsDrift: a route without description, or a
// description without route, fails the build.
func TestBuildOpenAPIRejectsDrift(t *testing.T) {
	t.Parallel()
	rts := routes()
	for name, table := range map[string][]httpapi.Route{
		"undescribed route": append(slices.Clone(rts), httpapi.Route{Pattern: "GET /v1/trucks", Charged: true}),
		"removed route":     rts[1:],
		"non-GET route":     append(slices.Clone(rts), httpapi.Route{Pattern: "POST /v1/cars"}),
		"repeated route":    append(slices.Clone(rts), rts[0]),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := httpapi.BuildOpenAPI(table); err == nil {
				t.Fatal("BuildOpenAPI accepted a route table its descriptions do not match")
			}
		})
	}
}

// TestOpenAPIListParameters: each list operation documents exactly the
// parameters the vehicle service accepts, with the bounds of docs/api.md.
func TestOpenAPIListParameters(t *testing.T) {
	t.Parallel()
	doc := loadDoc(t)
	for path, kind := range map[string]catalog.Kind{
		"/v1/cars": catalog.KindCar, "/v1/motorcycles": catalog.KindMotorcycle,
		"/v1/boats": catalog.KindBoat, "/v1/tire-sizes": catalog.KindTireSize,
	} {
		t.Run(path, func(t *testing.T) {
			op := doc.Paths.Value(path).Get
			var names []string
			for _, p := range op.Parameters {
				if p.Value.In == "header" && p.Value.Name == "If-None-Match" {
					continue // every catalog operation has it (cache_test.go)
				}
				if p.Value.In != "query" {
					t.Errorf("%s is in %s", p.Value.Name, p.Value.In)
				}
				if p.Value.Required {
					t.Errorf("%s is required; list parameters are optional", p.Value.Name)
				}
				if p.Value.Description == "" {
					t.Errorf("%s has no description", p.Value.Name)
				}
				names = append(names, p.Value.Name)
			}
			slices.Sort(names)
			if want := vehicle.AcceptedParams(kind); !slices.Equal(names, want) {
				t.Errorf("parameters %v, want %v", names, want)
			}
			bounds := func(name string, lo, hi float64, def any) {
				t.Helper()
				s := op.Parameters.GetByInAndName("query", name).Schema.Value
				if !s.Type.Is("integer") || s.Min == nil || *s.Min != lo || s.Max == nil || *s.Max != hi || s.Default != def {
					t.Errorf("%s: type %v min %v max %v default %v, want integer %v..%v default %v",
						name, s.Type, s.Min, s.Max, s.Default, lo, hi, def)
				}
			}
			bounds("per_page", 1, 10, float64(10))
			bounds("page", 1, 40, float64(1))
			for _, y := range []string{"year", "year_min", "year_max"} {
				bounds(y, 1886, 2100, nil)
			}
		})
	}
	for _, path := range []string{"/v1/cars/models", "/v1/motorcycles/models", "/v1/boats/models", "/v1/tire-sizes/models"} {
		p := doc.Paths.Value(path).Get.Parameters.GetByInAndName("query", "make")
		if p == nil || !p.Required {
			t.Errorf("%s: make is not a required query parameter", path)
		}
	}
}

// TestOpenAPIFilterVocabulary: string filters name their values (as
// examples, since the server also takes other spellings).
func TestOpenAPIFilterVocabulary(t *testing.T) {
	t.Parallel()
	doc := loadDoc(t)
	for _, c := range []struct {
		path, param string
		values      []string
	}{
		{"/v1/cars", "body", catalog.Bodies},
		{"/v1/cars", "fuel_type", catalog.CarFuels},
		{"/v1/cars", "drive_type", catalog.Drives},
		{"/v1/motorcycles", "motorcycle_type", catalog.MotorcycleTypes},
		{"/v1/motorcycles", "vehicle_type", catalog.VehicleClasses},
		{"/v1/boats", "hull_type", catalog.HullTypes},
		{"/v1/boats", "fuel_type", catalog.BoatFuels},
		{"/v1/boats", "model_type", catalog.VesselCategories},
	} {
		p := doc.Paths.Value(c.path).Get.Parameters.GetByInAndName("query", c.param)
		for _, v := range c.values {
			if !strings.Contains(p.Description, v) || !slices.Contains(p.Schema.Value.Examples, any(v)) {
				t.Errorf("%s %s: value %q missing from description or examples", c.path, c.param, v)
			}
		}
		if len(p.Schema.Value.Enum) > 0 {
			t.Errorf("%s %s: a strict enum would reject spellings the server accepts", c.path, c.param)
		}
	}
}

// TestOpenAPIFieldTypes spot-checks how Go types map to component schemas:
// named structs by $ref, pointers nullable, slices never null.
func TestOpenAPIFieldTypes(t *testing.T) {
	t.Parallel()
	doc := rawDoc(t)
	prop := func(schema, field string) map[string]any {
		return at(t, doc, "components", "schemas", schema, "properties", field).(map[string]any)
	}
	for _, c := range []struct {
		schema, field string
		want          string
	}{
		{"Car", "uuid", `{"description":"The record's stable id (a UUIDv5 of its kind and natural key): the same record keeps it across imports.","format":"uuid","type":"string"}`},
		{"Car", "year", `{"description":"Model year.","type":"integer"}`},
		{"Car", "mpg_city", `{"description":"EPA city fuel economy, in miles per US gallon; MPGe (miles per gallon-equivalent) for electric and fuel-cell cars, the gasoline figure for plug-in hybrids. Null without an EPA match.","type":["null","number"],"x-unit":"mpg"}`},
		{"Car", "epa_range_miles", `{"description":"EPA driving range on a full charge of an electric car, or the total range of a plug-in hybrid; null for other cars and without an EPA match.","type":["null","integer"],"x-unit":"mi"}`},
		{"TireFitment", "alternate_sizes", `{"description":"Sizes whose diameter is within ±3% of tire_size (the front size when staggered).","items":{"type":"string"},"type":"array"}`},
		{"TireFitment", "rear_alternate_sizes", `{"description":"Sizes whose diameter is within ±3% of rear_tire_size; empty when not staggered.","items":{"type":"string"},"type":"array"}`},
		{"TireFitment", "load_index", `{"description":"Load index of the OEM tire (front when staggered), e.g. 109; null when unknown.","type":["null","integer"]}`},
		{"TireFitment", "speed_rating", `{"description":"Speed rating of the OEM tire (front when staggered), e.g. V; null when unknown.","type":["null","string"]}`},
		{"Meta", "truncated", `{"description":"True when more than 400 records match: narrow the query to see the rest.","type":"boolean"}`},
		{"MeAccount", "created_at", `{"description":"When the account was created (UTC).","format":"date-time","type":"string"}`},
		{"ListItem", "type", `{"description":"The record's kind: car, motorcycle, boat or tire_size; vin for a saved VIN.","enum":["car","motorcycle","boat","tire_size","vin"],"type":"string"}`},
		{"ListItem", "record", `{"anyOf":[{"$ref":"#/components/schemas/RecordRef"},{"type":"null"}],"description":"A summary of the saved record, or of a VIN's decode; null when it is missing or the VIN decoded to no vehicle."}`},
		{"FitmentGeometry", "rear", `{"anyOf":[{"$ref":"#/components/schemas/SizeGeometry"},{"type":"null"}],"description":"Geometry of the rear size of a staggered fitment; null otherwise."}`},
		{"Problem", "accepted", `{"description":"The accepted parameters, for unknown_parameter.","items":{"type":"string"},"type":"array"}`},
	} {
		got, _ := json.Marshal(prop(c.schema, c.field))
		if string(got) != c.want {
			t.Errorf("%s.%s = %s, want %s", c.schema, c.field, got, c.want)
		}
	}
	// Fixed sets are enums.
	for _, c := range []struct {
		schema, field string
		want          string
	}{
		{"Problem", "limit", `["rate_per_minute","monthly_quota"]`},
		{"CarTires", "match", `["exact_year","nearest_year","none"]`},
		{"RequestLine", "channel", `["rest","mcp"]`},
		{"EntryError", "code", `["invalid_vin","vin_not_decodable","upstream_error","upstream_unavailable","quota_exceeded","rate_limited"]`},
	} {
		got, _ := json.Marshal(prop(c.schema, c.field)["enum"])
		if string(got) != c.want {
			t.Errorf("%s.%s enum = %s, want %s", c.schema, c.field, got, c.want)
		}
	}
}

// TestOpenAPIProblemResponses: every error response is a problem document
// whose code enum is the codes of docs/api.md#errors for its status, with the
// headers that status carries.
func TestOpenAPIProblemResponses(t *testing.T) {
	t.Parallel()
	doc := rawDoc(t)
	want := map[string][]string{
		"Unauthorized":        {"unauthorized"},
		"Forbidden":           {"account_suspended", "insufficient_scope", "no_api_access"},
		"NotFound":            {"not_found"},
		"UnprocessableEntity": {"vin_not_decodable"},
		"TooManyRequests":     {"quota_exceeded", "rate_limited"},
		"BadGateway":          {"upstream_error"},
		"ServiceUnavailable":  {"service_unavailable", "upstream_unavailable"},
		"InternalError":       {"internal_error"},
	}
	wantHeaders := map[string][]string{
		"Unauthorized":    {"WWW-Authenticate", "X-Request-Id"},
		"TooManyRequests": {"Retry-After", "X-RateLimit-Limit", "X-Quota-Limit", "X-Request-Id"},
	}
	responses := at(t, doc, "components", "responses").(map[string]any)
	if len(responses) != len(want) {
		t.Errorf("%d shared responses, want %d", len(responses), len(want))
	}
	for name, codes := range want {
		content := at(t, responses, name, "content").(map[string]any)
		if _, ok := content["application/problem+json"]; !ok || len(content) != 1 {
			t.Errorf("%s: content types %v, want application/problem+json only", name, slices.Collect(maps.Keys(content)))
			continue
		}
		allOf := at(t, content, "application/problem+json", "schema", "allOf").([]any)
		var got []string
		for _, c := range at(t, allOf[1], "properties", "code", "enum").([]any) {
			got = append(got, c.(string))
		}
		if !slices.Equal(got, codes) {
			t.Errorf("%s: codes %v, want %v", name, got, codes)
		}
		headers := at(t, responses, name, "headers").(map[string]any)
		for _, h := range wantHeaders[name] {
			if _, ok := headers[h]; !ok {
				t.Errorf("%s: header %s not documented", name, h)
			}
		}
	}
	problem := at(t, doc, "components", "schemas", "Problem").(map[string]any)
	var req []string
	for _, r := range problem["required"].([]any) {
		req = append(req, r.(string))
	}
	slices.Sort(req)
	if want := []string{"code", "detail", "instance", "request_id", "status", "title", "type"}; !slices.Equal(req, want) {
		t.Errorf("Problem requires %v, want %v", req, want)
	}
	// Headers that must be present are required, so the validator checks them.
	for name, required := range map[string]bool{"X-Request-Id": true, "WWW-Authenticate": true, "Retry-After": true, "Link": false, "X-Quota-Limit": false} {
		if got := at(t, doc, "components", "headers", name, "required"); got != required {
			t.Errorf("header %s required = %v, want %v", name, got, required)
		}
	}
	// The 400 of each family names the codes its handler can produce.
	paths := at(t, doc, "paths").(map[string]any)
	for path, codes := range map[string][]string{
		"/v1/cars":             {"invalid_parameter", "query_too_broad", "unknown_parameter"},
		"/v1/cars/models":      {"invalid_parameter", "missing_parameter", "unknown_parameter"},
		"/v1/cars/{uuid}":      {"invalid_parameter", "invalid_uuid", "unknown_parameter"},
		"/v1/me":               {"invalid_parameter", "unknown_parameter"},
		"/v1/openapi.json":     {"invalid_parameter", "unknown_parameter"},
		"/v1/boats/{uuid}":     {"invalid_parameter", "invalid_uuid", "unknown_parameter"},
		"/v1/motorcycles":      {"invalid_parameter", "query_too_broad", "unknown_parameter"},
		"/v1/tire-sizes/makes": {"invalid_parameter", "unknown_parameter"},
		"/v1/vin/{vin}":        {"invalid_parameter", "invalid_vin", "unknown_parameter"},
		"/v1/vins":             {"invalid_parameter", "missing_parameter", "unknown_parameter"},
		"/v1/hin/{hin}":        {"invalid_hin", "invalid_parameter", "unknown_parameter"},
		"/v1/hins":             {"invalid_parameter", "missing_parameter", "unknown_parameter"},
	} {
		allOf := at(t, paths, path, "get", "responses", "400", "content", "application/problem+json", "schema", "allOf").([]any)
		var got []string
		for _, c := range at(t, allOf[1], "properties", "code", "enum").([]any) {
			got = append(got, c.(string))
		}
		if !slices.Equal(got, codes) {
			t.Errorf("%s 400 codes %v, want %v", path, got, codes)
		}
	}
	// 405 answers methods without an operation, so no operation refers to
	// it: the description says it, and Problem.code names it.
	if !strings.Contains(at(t, doc, "info", "description").(string), "405") {
		t.Error("the description does not document 405")
	}
	if !slices.Contains(at(t, doc, "components", "schemas", "Problem", "properties", "code", "enum").([]any), any("method_not_allowed")) {
		t.Error("Problem.code does not list method_not_allowed")
	}
}

// fixture is an in-process vds server over a SQLite store with the demo
// catalog, and tokens of accounts in every state the API distinguishes.
type fixture struct {
	url string
	cat *catalog.Catalog
	// tokens by account: dev (developer plan), free (free plan, to reach
	// the rate limit), internal (unlimited plan: no limit headers),
	// suspended, and noapi (a plan without API access).
	tokens map[string]string
	// goneCar is a car saved in dev's garage and then removed from the catalog.
	goneCar catalog.Car
	// nhtsa is the fake NHTSA the server's upstream URLs point at.
	nhtsa *upstreamtest.Fake
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	st, c := storetest.DemoSQLite(t, true)

	fake := upstreamtest.New(t)
	plans := maps.Clone(config.DefaultPlans)
	plans["internal"] = config.PlanLimits{APIAccess: true}
	plans["noapi"] = config.PlanLimits{RatePerMinute: 10, MonthlyQuota: 100}
	cfg := &config.Config{
		Server: config.Server{Addr: "127.0.0.1:0", CatalogPoll: time.Hour, UsageFlush: time.Hour,
			ShutdownTimeout: time.Second, ReadHeaderTimeout: time.Second, ReadTimeout: time.Second,
			WriteTimeout: 5 * time.Second, IdleTimeout: time.Second},
		Database: config.Database{URL: "sqlite:" + filepath.Join(t.TempDir(), "unused.db")},
		Upstream: config.Upstream{VPICURL: fake.URL, NHTSAURL: fake.URL, EPAURL: fake.URL, Timeout: 300 * time.Millisecond, CacheTTL: time.Hour},
		Log:      config.Log{Level: "info", Format: "json"},
		Plans:    plans,
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	f := &fixture{cat: c, tokens: map[string]string{}, nhtsa: fake}
	accounts := accesstest.Create(t, acc, map[string]string{"dev": "developer", "free": "free", "internal": "internal", "suspended": "developer", "noapi": "noapi"})
	for name, a := range accounts {
		f.tokens[name] = a.Token
	}
	if err := acc.SetSuspended(ctx, accounts["suspended"].ID, true); err != nil {
		t.Fatal(err)
	}
	// A garage with a VIN, a present record of each kind and one that
	// leaves the catalog, so /v1/lists shows a decode, a record summary
	// and a null one; a watch pass gives them their recall baselines.
	up := upstream.New(upstream.Config{VPICURL: fake.URL, NHTSAURL: fake.URL, Timeout: 5 * time.Second, CacheTTL: time.Hour}, nil, nil)
	vehicles, err := server.LoadVehicles(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	saved := lists.New(st)
	saved.SetVINDecoder(lookup.New(vehicles, up, "online", "").ListDecode)
	garage, err := saved.Default(ctx, accounts["dev"].ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := saved.AddVIN(ctx, accounts["dev"].ID, garage.ID, upstreamtest.KnownVIN, "Dana's F-150"); err != nil {
		t.Fatal(err)
	}
	f.goneCar = storetest.GarageWithGoneCar(t, st, c, accounts["dev"].ID, "saved by the test", storetest.FirstOfEachKind(c)...)
	vehicles, err = server.LoadVehicles(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := watch.New(st, vehicles, up, nil, nil, watch.Config{}, slog.New(slog.DiscardHandler)).Pass(ctx, watch.PassOptions{}); err != nil {
		t.Fatal(err)
	}

	srv, err := server.New(ctx, cfg, st, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	f.url = ts.URL
	return f
}

// exchange is one request of the end-to-end test and the status it must get.
type exchange struct {
	method, path, token string
	header              http.Header
	want                int
}

// TestEveryResponseMatchesDocument requests every route of the table, with
// valid parameters and with the errors clients typically make, from a
// real server, and holds every response against the document through the
// apitest transport. It is the proof that the document describes what the
// server sends.
func TestEveryResponseMatchesDocument(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	v := sharedValidator(t)
	client := &http.Client{Transport: v.Transport(t, nil)}

	car, moto, boat, tire := f.cat.Cars[0], f.cat.Motorcycles[0], f.cat.Boats[0], f.cat.TireSizes[0]
	// A staggered fitment, so geometry has a rear size, if the demo has one.
	staggered := tire
	for _, ts := range f.cat.TireSizes {
		if ts.RearTireSize != nil {
			staggered = ts
			break
		}
	}
	unknown := uuid.NewSHA1(uuid.NameSpaceURL, []byte("no such record")).String()
	dev := f.tokens["dev"]
	q := url.QueryEscape

	// One successful request per route at least; the loop below fails when
	// a route of the table has none, so a new route needs a sample here.
	ok := map[string][]string{
		"GET /v1/cars": {
			"/v1/cars?make=" + q(car.Make),
			"/v1/cars?make=" + q(car.Make) + "&model=" + q(car.Model) + "&year=" + strconv.Itoa(car.Year),
			"/v1/cars?year_min=2015&year_max=2024&per_page=5&page=2",
			"/v1/cars?body=suv&fuel_type=gas&drive_type=AWD",
			"/v1/cars?ev_only=1&per_page=10&page=40",
			"/v1/cars?q=" + q(strings.ToLower(car.Model)),
			"/v1/cars?make=NoSuchMake",
			"/v1/cars?make=Toyota&model=Camri",
			"/v1/cars?make=" + q(car.Make) + "&model=&per_page=&page=&year=", // empty values count as absent
		},
		"GET /v1/cars/makes":      {"/v1/cars/makes"},
		"GET /v1/cars/models":     {"/v1/cars/models?make=" + q(car.Make), "/v1/cars/models?make=NoSuchMake"},
		"GET /v1/cars/body-types": {"/v1/cars/body-types"},
		"GET /v1/cars/{uuid}":     {"/v1/cars/" + car.UUID.String(), "/v1/cars/" + strings.ToUpper(f.cat.Cars[1].UUID.String())},
		"GET /v1/cars/{uuid}/tire-sizes": {
			"/v1/cars/" + car.UUID.String() + "/tire-sizes",
			"/v1/cars/" + f.cat.Cars[len(f.cat.Cars)/2].UUID.String() + "/tire-sizes",
		},
		"GET /v1/motorcycles": {
			"/v1/motorcycles?make=" + q(moto.Make),
			"/v1/motorcycles?motorcycle_type=" + q("utv / sxs"),
			"/v1/motorcycles?vehicle_type=Motorcycle&year_min=2010&year_max=2019",
		},
		"GET /v1/motorcycles/makes":  {"/v1/motorcycles/makes"},
		"GET /v1/motorcycles/models": {"/v1/motorcycles/models?make=" + q(moto.Make)},
		"GET /v1/motorcycles/types":  {"/v1/motorcycles/types"},
		"GET /v1/motorcycles/{uuid}": {"/v1/motorcycles/" + moto.UUID.String()},
		"GET /v1/boats": {
			"/v1/boats?make=" + q(boat.Make),
			"/v1/boats?hull_type=aluminum&fuel_type=Gas&model_type=" + q("Center Console"),
			"/v1/boats?hp_min=200&hp_max=600&length_min=18.5&length_max=40",
		},
		"GET /v1/boats/makes":      {"/v1/boats/makes"},
		"GET /v1/boats/models":     {"/v1/boats/models?make=" + q(boat.Make)},
		"GET /v1/boats/hull-types": {"/v1/boats/hull-types"},
		"GET /v1/boats/{uuid}":     {"/v1/boats/" + boat.UUID.String()},
		"GET /v1/tire-sizes": {
			"/v1/tire-sizes?make=" + q(tire.Make),
			"/v1/tire-sizes?tire_size=" + q(tire.TireSize),
		},
		"GET /v1/tire-sizes/makes":  {"/v1/tire-sizes/makes"},
		"GET /v1/tire-sizes/models": {"/v1/tire-sizes/models?make=" + q(tire.Make)},
		"GET /v1/tire-sizes/{uuid}": {"/v1/tire-sizes/" + tire.UUID.String(), "/v1/tire-sizes/" + staggered.UUID.String()},
		"GET /v1/tire-sizes/{uuid}/geometry": {
			"/v1/tire-sizes/" + tire.UUID.String() + "/geometry",
			"/v1/tire-sizes/" + staggered.UUID.String() + "/geometry",
		},
		"GET /v1/tire-sizes/{uuid}/plus-sizes": {
			"/v1/tire-sizes/" + tire.UUID.String() + "/plus-sizes",
			"/v1/tire-sizes/" + staggered.UUID.String() + "/plus-sizes?window=1",
		},
		"GET /v1/tire-sizes/lookup": {
			"/v1/tire-sizes/lookup?size=" + q(tire.TireSize),
			"/v1/tire-sizes/lookup?size=" + q("35x12.50R17 LT") + "&window=5&page=2&per_page=1",
			"/v1/tire-sizes/lookup?size=" + q("p225/45 r17 91W") + "&make=toyota&year=2020&window=",
		},
		"GET /v1/vin/{vin}": {"/v1/vin/" + upstreamtest.KnownVIN, "/v1/vin/" + strings.ToLower(upstreamtest.KnownVIN)},
		"GET /v1/vins": {
			"/v1/vins?vin=" + upstreamtest.KnownVIN + "&vin=ZZZZZZZZZZZZZZZZZ&vin=not-a-vin&vin=" + upstreamtest.KnownVIN,
			"/v1/vins?vin=1FTMW1T88",
			"/v1/vins?vin=", // one entry per parameter: an empty one is an invalid_vin entry
		},
		"GET /v1/hin/{hin}": {"/v1/hin/BWC12345L718", "/v1/hin/us-bwc12345-l718", "/v1/hin/FR-BEN12345A606", "/v1/hin/ABC123450683",
			"/v1/hin/BOA13579M84E", "/v1/hin/FLZ12345A818"},
		"GET /v1/hins":                          {"/v1/hins?hin=BWC12345L718&hin=BWC12O45L718&hin=&hin=BWC12345L718", "/v1/hins?hin=short"},
		"GET /v1/cars/{uuid}/recalls":           {"/v1/cars/" + car.UUID.String() + "/recalls"},
		"GET /v1/motorcycles/{uuid}/recalls":    {"/v1/motorcycles/" + moto.UUID.String() + "/recalls"},
		"GET /v1/cars/{uuid}/complaints":        {"/v1/cars/" + car.UUID.String() + "/complaints?per_page=2"},
		"GET /v1/motorcycles/{uuid}/complaints": {"/v1/motorcycles/" + moto.UUID.String() + "/complaints"},
		"GET /v1/me":                            {"/v1/me"},
		"GET /v1/me/requests": {"/v1/me/requests", "/v1/me/requests?status=4xx&per_page=2&page=2",
			"/v1/me/requests?status=4XX", "/v1/me/requests?status=&page=&per_page=&request_id="},
		"GET /v1/lists":         {"/v1/lists"},
		"GET /v1/lists/recalls": {"/v1/lists/recalls"},
		"GET /v1/changelog":     {"/v1/changelog"},
		"GET /changelog":        {"/changelog"},
		"GET /v1/openapi.json":  {"/v1/openapi.json"},
	}
	bad := func(path string) exchange {
		return exchange{method: http.MethodGet, path: path, token: dev, want: http.StatusBadRequest}
	}
	var exchanges []exchange
	for _, rt := range routes() {
		paths := ok[rt.Pattern]
		if len(paths) == 0 {
			t.Errorf("route %s has no sample request in this test", rt.Pattern)
		}
		for _, p := range paths {
			exchanges = append(exchanges, exchange{method: http.MethodGet, path: p, token: dev, want: http.StatusOK})
		}
		if len(paths) == 0 {
			continue
		}
		// Every route answers HEAD, and refuses a query that is not plain
		// text (invalid_parameter) and an unknown parameter.
		sep := "?"
		if strings.Contains(paths[0], "?") {
			sep = "&"
		}
		exchanges = append(exchanges,
			exchange{method: http.MethodHead, path: paths[0], token: dev, want: http.StatusOK},
			exchange{method: http.MethodGet, path: paths[0] + sep + "x=%00", token: dev, want: http.StatusBadRequest},
			exchange{method: http.MethodGet, path: paths[0] + sep + "zz=1", token: dev, want: http.StatusBadRequest},
		)
		// A record's malformed uuid; a query route without its parameters
		// (too broad, or missing make or vin).
		_, path, _ := strings.Cut(rt.Pattern, " ")
		switch {
		case strings.Contains(path, "{uuid}"):
			exchanges = append(exchanges, bad(strings.Replace(path, "{uuid}", "12345", 1)))
		case rt.Query && path != "/v1/me/requests":
			exchanges = append(exchanges, bad(path))
		}
	}
	exchanges = append(exchanges,
		// 400: every code the handlers produce.
		bad("/v1/cars"),                             // query_too_broad
		bad("/v1/cars?year_min=1900"),               // open-ended bound
		bad("/v1/cars?year_min=2000&year_max=2015"), // window too wide
		bad("/v1/cars?make=Toyota&colour=red"),      // unknown_parameter
		bad("/v1/cars?make=Toyota&make=Honda"),      // repeated
		bad("/v1/cars?make=Toyota&per_page=11"),     // invalid_parameter
		bad("/v1/cars?make=Toyota&page=41"),         // invalid_parameter
		bad("/v1/cars?year=abc"),                    // invalid_parameter
		bad("/v1/cars?ev_only=maybe"),               // invalid_parameter
		bad("/v1/cars?body=Truck"),                  // a value outside the vocabulary
		bad("/v1/cars?make=Toyota&model=Camry;"),    // a pair that does not parse
		bad("/v1/boats?hp_min=500&hp_max=100"),      // swapped bounds
		bad("/v1/boats?length_min=NaN"),             // invalid_parameter
		bad("/v1/tire-sizes?tire_size=huge"),        // invalid_parameter
		bad("/v1/motorcycles?q="+q("!!!")),          // q without words
		bad("/v1/cars/models"),                      // missing_parameter
		bad("/v1/boats/models?make=A&make=B"),       // invalid_parameter
		bad("/v1/tire-sizes/models?make=X&model=Y"), // unknown_parameter
		bad("/v1/cars/6f1c1d1e-52a3"),               // invalid_uuid
		bad("/v1/boats/"+strings.ReplaceAll(boat.UUID.String(), "-", "")),
		bad("/v1/tire-sizes/12345/geometry"),                             // invalid_uuid
		bad("/v1/tire-sizes/"+tire.UUID.String()+"/plus-sizes?window=6"), // invalid_parameter
		bad("/v1/tire-sizes/lookup?size=225%2F45"),                       // invalid_parameter: no rim
		bad("/v1/tire-sizes/lookup?size=225/45R17&year=20"),              // invalid_parameter
		bad("/v1/tire-sizes/lookup?size=225/45R17&size=LT285/70R17"),     // repeated
		bad("/v1/cars/"+car.UUID.String()+"?full=1"),                     // unknown_parameter
		bad("/v1/cars/makes?page=2"),
		bad("/v1/me?verbose=1"),
		bad("/v1/me/requests?status=4x"),    // invalid_parameter
		bad("/v1/me/requests?per_page=101"), // invalid_parameter
		bad("/v1/me/requests?request=abc"),  // unknown_parameter
		bad("/v1/lists?x=1"),
		bad("/v1/lists/recalls?x=1"),
		bad("/v1/cars/"+car.UUID.String()+"/complaints?per_page=11"), // invalid_parameter
		bad("/v1/motorcycles/"+moto.UUID.String()+"/complaints?page=0"),
		bad("/v1/cars/"+car.UUID.String()+"/complaints?sort=date"), // unknown_parameter
		bad("/v1/motorcycles/"+moto.UUID.String()+"/complaints?x=1"),
		bad("/v1/cars/12345/complaints"), // invalid_uuid
		bad("/v1/motorcycles/12345/complaints"),
		bad("/v1/openapi.json?format=yaml"),
		bad("/changelog?since=1.0.0"),
		bad("/v1/vin/1FTMW1T88"),         // invalid_vin: too short
		bad("/v1/vin/1FTMW1T88MFAOOOO1"), // invalid_vin: letter O
		bad("/v1/vin/1FTMW1T88MFA0000%21"),
		bad("/v1/vin/"+upstreamtest.KnownVIN+"%0A"), // invalid_parameter: a VIN read with its newline
		bad("/v1/cars/makes?x=%00"),
		bad("/v1/hin/BWC12O45L718"),     // invalid_hin: letter O in the serial
		bad("/v1/hin/BWC12345L71"),      // invalid_hin: too short
		bad("/v1/hin/BWC12345L718?x=1"), // unknown_parameter
		bad("/v1/hins"),                 // missing_parameter
		bad("/v1/hins?hin=BWC12345L718&h=1"),
		bad("/v1/hins?"+strings.Repeat("hin=BWC12345L718&", 51)),              // invalid_parameter: over 50
		bad("/v1/vins"),                                                       // missing_parameter
		bad("/v1/vins?vin="+upstreamtest.KnownVIN+"&v=1"),                     // unknown_parameter
		bad("/v1/vins?"+strings.Repeat("vin="+upstreamtest.KnownVIN+"&", 51)), // invalid_parameter: over 50
		// 422: a well-formed VIN nobody can place.
		exchange{http.MethodGet, "/v1/vin/ZZZZZZZZZZZZZZZZZ", dev, nil, http.StatusUnprocessableEntity},
		exchange{http.MethodGet, "/v1/cars/" + unknown + "/recalls", dev, nil, http.StatusNotFound},
		// 404: unknown records, and unknown routes under /v1.
		exchange{http.MethodGet, "/v1/cars/" + unknown, dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/cars/" + f.goneCar.UUID.String(), dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/cars/" + unknown + "/tire-sizes", dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/motorcycles/" + unknown, dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/boats/" + unknown, dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/tire-sizes/" + unknown, dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/tire-sizes/" + unknown + "/geometry", dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/tire-sizes/" + unknown + "/plus-sizes", dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/trucks", dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/boats/types", dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/tire-sizes/xyz/geometry", dev, nil, http.StatusNotFound},
		exchange{http.MethodGet, "/v1/cars/" + car.UUID.String() + "/recalls/extra", dev, nil, http.StatusNotFound},
		// 401: no token, a malformed one, an unknown one; on routes and off them.
		exchange{http.MethodGet, "/v1/cars?make=Toyota", "", nil, http.StatusUnauthorized},
		exchange{http.MethodGet, "/v1/me", "not-a-vds-token", nil, http.StatusUnauthorized},
		exchange{http.MethodGet, "/v1/cars/" + car.UUID.String(), "vds_" + strings.Repeat("a", 32), nil, http.StatusUnauthorized},
		exchange{http.MethodGet, "/v1/openapi.json", "", nil, http.StatusOK}, // public
		exchange{http.MethodGet, "/changelog", "", nil, http.StatusUnauthorized},
		exchange{http.MethodGet, "/v1/nowhere", "", nil, http.StatusUnauthorized},
		// 403: a suspended account, a plan without API access.
		exchange{http.MethodGet, "/v1/cars/makes", f.tokens["suspended"], nil, http.StatusForbidden},
		exchange{http.MethodGet, "/v1/me", f.tokens["noapi"], nil, http.StatusForbidden},
		// 405: the API is read-only.
		exchange{http.MethodPost, "/v1/cars", dev, nil, http.StatusMethodNotAllowed},
		exchange{http.MethodDelete, "/v1/lists", dev, nil, http.StatusMethodNotAllowed},
		exchange{http.MethodPut, "/v1/nowhere", "", nil, http.StatusMethodNotAllowed},
		// HEAD is GET without a body; gzip when asked for; an unlimited plan
		// has no limit headers.
		exchange{http.MethodHead, "/v1/cars?make=" + q(car.Make), dev, nil, http.StatusOK},
		exchange{http.MethodGet, "/v1/boats?make=" + q(boat.Make), dev, http.Header{"Accept-Encoding": {"gzip"}}, http.StatusOK},
		exchange{http.MethodGet, "/v1/cars?make=" + q(car.Make), f.tokens["internal"], nil, http.StatusOK},
		exchange{http.MethodGet, "/v1/me", f.tokens["internal"], nil, http.StatusOK},
		// A caller's request id is echoed.
		exchange{http.MethodGet, "/v1/cars/makes", dev, http.Header{"X-Request-Id": {"test-123"}}, http.StatusOK},
	)
	// 429: the free plan allows 10 requests a minute; the 11th is refused.
	for range 10 {
		exchanges = append(exchanges, exchange{http.MethodGet, "/v1/tire-sizes/makes", f.tokens["free"], nil, http.StatusOK})
	}
	exchanges = append(exchanges,
		exchange{http.MethodGet, "/v1/tire-sizes/makes", f.tokens["free"], nil, http.StatusTooManyRequests},
		exchange{http.MethodGet, "/v1/nowhere", f.tokens["free"], nil, http.StatusTooManyRequests},
	)

	statuses := map[int]int{}
	// sent400 collects the 400 codes each operation answered with.
	sent400 := map[string][]string{}
	run := func(exchanges []exchange) {
		for _, ex := range exchanges {
			req, err := http.NewRequest(ex.method, f.url+ex.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			maps.Copy(req.Header, ex.header)
			if ex.token != "" {
				req.Header.Set("Authorization", "Bearer "+ex.token)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", ex.method, ex.path, err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != ex.want {
				t.Errorf("%s %s: status %d, want %d\n%s", ex.method, ex.path, resp.StatusCode, ex.want, body)
			}
			if id := ex.header.Get("X-Request-Id"); id != "" && resp.Header.Get("X-Request-Id") != id {
				t.Errorf("%s %s: X-Request-Id %q, want the caller's %q", ex.method, ex.path, resp.Header.Get("X-Request-Id"), id)
			}
			statuses[resp.StatusCode]++
			if resp.StatusCode == http.StatusBadRequest {
				var p struct{ Code string }
				if err := json.Unmarshal(body, &p); err != nil {
					t.Fatal(err)
				}
				if op := operationOf(t, v, req); op != "" {
					sent400[op] = append(sent400[op], p.Code)
				}
			}
		}
	}
	run(exchanges)
	// NHTSA failing with nothing cached: 503, and a garbage answer: 502.
	// Both are asked about vehicles not cached yet.
	f.nhtsa.SetMode(upstreamtest.Fail, 0)
	run([]exchange{{http.MethodGet, "/v1/cars/" + f.cat.Cars[5].UUID.String() + "/recalls", dev, nil, http.StatusServiceUnavailable}})
	f.nhtsa.SetMode(upstreamtest.Malformed, 0)
	run([]exchange{{http.MethodGet, "/v1/motorcycles/" + f.cat.Motorcycles[5].UUID.String() + "/recalls", dev, nil, http.StatusBadGateway}})
	f.nhtsa.SetMode(upstreamtest.Normal, 0)
	for _, st := range []int{200, 400, 401, 403, 404, 405, 422, 429, 502, 503} {
		if statuses[st] == 0 {
			t.Errorf("no response with status %d was checked", st)
		}
	}
	// The document lists exactly the 400 codes the corpus drew from each
	// operation: none is sent undocumented (the validator checks) or
	// documented but never sent.
	for path, item := range v.Doc().Paths.Map() {
		op := item.Get
		var codes []string
		for _, c := range op.Responses.Status(400).Value.Content.Get("application/problem+json").Schema.Value.AllOf[1].Value.Properties["code"].Value.Enum {
			codes = append(codes, c.(string))
		}
		got := slices.Compact(slices.Sorted(slices.Values(sent400["GET "+path])))
		if !slices.Equal(got, codes) {
			t.Errorf("GET %s: documents 400 codes %v, the corpus drew %v", path, codes, got)
		}
	}
	t.Logf("%d responses checked against the document: %v", len(exchanges), statuses)
}

// operationOf names the document's operation of req ("GET /v1/cars"), ""
// for none; HEAD is GET's.
func operationOf(t *testing.T, v *apitest.Validator, req *http.Request) string {
	t.Helper()
	router, err := gorillamux.NewRouter(v.Doc())
	if err != nil {
		t.Fatal(err)
	}
	get := req.Clone(req.Context())
	get.Method = http.MethodGet
	route, _, err := router.FindRoute(get)
	if err != nil {
		return ""
	}
	return "GET " + route.Path
}

// TestServedDocumentIsTheBuiltOne: /v1/openapi.json serves the document
// BuildOpenAPI makes of the route table, without a token, its server the
// address the client used.
func TestServedDocumentIsTheBuiltOne(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	resp, err := http.Get(f.url + "/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	want := strings.Replace(string(buildDoc(t)), `"servers":[{"url":"/"}]`, `"servers":[{"url":"`+f.url+`"}]`, 1)
	if string(body) != want {
		t.Fatalf("served document (%d bytes) differs from BuildOpenAPI(Routes()) with server %s", len(body), f.url)
	}
	for _, h := range []string{"X-RateLimit-Limit", "X-Quota-Limit", "RateLimit"} {
		if v := resp.Header.Get(h); v != "" {
			t.Errorf("the public document carries %s: %q; it is not rate-limited", h, v)
		}
	}
}

// TestServedDocumentServers: the served document's only server is an
// absolute origin, dashboard.public_url when set, else the request's scheme
// and Host, so generated clients build correct URLs; a client loads it.
func TestServedDocumentServers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, publicURL, host, proto, want string
	}{
		{"request host", "", "api.test:8080", "", "http://api.test:8080"},
		{"https proxy", "", "api.test", "https", "https://api.test"},
		{"public url", "https://vds.example.com/", "10.1.2.3:8080", "", "https://vds.example.com"},
		{"public url over proxy", "https://vds.example.com", "api.test", "http", "https://vds.example.com"},
		{"the client's entry before the proxy's", "", "api.test", "https, http", "http://api.test"},
		{"a Host that is no host name", "", "x](javascript:alert(1))", "", "/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			// The catalog routes tag their answers from the snapshot before the door.
			snap, err := vehicle.NewSnapshot(&catalog.Catalog{}, catalog.Version{})
			if err != nil {
				t.Fatal(err)
			}
			httpapi.New(vehicle.NewService(snap), nil, nil, nil, nil, nil, httpapi.Options{PublicURL: tc.publicURL}).Mount(mux)
			// The test client is a proxy on this host.
			srv := httptest.NewServer(edge.Observe(edge.Observer{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, mux))
			t.Cleanup(srv.Close)
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/openapi.json", nil)
			req.Host = tc.host
			if tc.proto != "" {
				req.Header.Set("X-Forwarded-Proto", tc.proto)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d without a token: %s", resp.StatusCode, body)
			}
			// Only servers differ between the cases: the whole document is
			// validated where the Host is hostile, the rest read as JSON.
			var doc struct {
				Servers []struct{ URL string }
				Paths   map[string]json.RawMessage
			}
			if err := json.Unmarshal(body, &doc); err != nil {
				t.Fatal(err)
			}
			if tc.want == "/" {
				d, err := openapi3.NewLoader().LoadFromData(body)
				if err != nil {
					t.Fatal(err)
				}
				if err := d.Validate(context.Background()); err != nil {
					t.Fatalf("served document does not validate: %v", err)
				}
			}
			if len(doc.Servers) != 1 || doc.Servers[0].URL != tc.want {
				t.Fatalf("servers = %v, want one at %s", doc.Servers, tc.want)
			}
			if cc := resp.Header.Get("Cache-Control"); (tc.publicURL == "") != (cc == "private, no-cache") ||
				(tc.publicURL == "") != strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "X-Forwarded-Proto") {
				t.Errorf("Cache-Control %q, Vary %q: a shared cache must not keep an origin taken from the request", cc, resp.Header.Values("Vary"))
			}
			// The paths carry /v1, so the server is the bare origin.
			if doc.Paths["/v1/cars"] == nil {
				t.Error("paths do not start with /v1: the server URL would need it")
			}
			// Every other route still needs a token.
			resp, err = http.Get(srv.URL + "/v1/cars/makes")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("/v1/cars/makes without a token: status %d, want 401", resp.StatusCode)
			}
		})
	}
}

// TestOpenAPIEveryFieldIsDescribed walks every schema of the document, in
// components and inline in operations, and fails on a property without a
// description: the reference renders each field with it.
func TestOpenAPIEveryFieldIsDescribed(t *testing.T) {
	var missing []string
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name, p := range props {
					if d, _ := p.(map[string]any)["description"].(string); strings.TrimSpace(d) == "" {
						missing = append(missing, path+".properties."+name)
					}
				}
			}
			for k, sub := range v {
				walk(sub, path+"."+k)
			}
		case []any:
			for i, sub := range v {
				walk(sub, path+"["+strconv.Itoa(i)+"]")
			}
		}
	}
	doc := rawDoc(t)
	walk(doc, "")
	if n := len(at(t, doc, "components", "schemas").(map[string]any)); n < 20 {
		t.Fatalf("only %d component schemas: the walk would prove little", n)
	}
	slices.Sort(missing)
	for _, m := range missing {
		t.Errorf("%s has no description", m)
	}
}

// TestCarFuelCodesListedOnce: the OpenAPI document and docs/api.md list the
// short fuel codes the service accepts (the README's MCP table is generated
// from the same list).
func TestCarFuelCodesListedOnce(t *testing.T) {
	codes := vehicle.CarFuelCodes()
	p := loadDoc(t).Paths.Value("/v1/cars").Get.Parameters.GetByInAndName("query", "fuel_type")
	if !strings.Contains(p.Description, "short codes "+strings.Join(codes, ", ")+" are accepted") {
		t.Errorf("OpenAPI fuel_type does not list the codes %v: %s", codes, p.Description)
	}
	api, err := os.ReadFile(filepath.Join("..", "..", "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "the short codes `" + strings.Join(codes, "`, `") + "`."; !strings.Contains(string(api), want) {
		t.Errorf("docs/api.md does not list the short fuel codes as %s", want)
	}
}

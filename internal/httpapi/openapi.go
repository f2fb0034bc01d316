package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/typeschema"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/vin"
)

// The OpenAPI document is built from the route table, the table below and
// the handlers' Go types, so BuildOpenAPI fails on drift.

type schema = map[string]any

// bodyShape is the envelope a 200 response wraps its data in.
type bodyShape int

const (
	// pageOf is a paged list: {"data": [T], "meta": Meta} plus a Link header.
	pageOf bodyShape = iota + 1
	// objectOf is one object: {"data": T}.
	objectOf
	// arrayOf is a complete, unpaged list: {"data": [T]}.
	arrayOf
	// rawDocument is a JSON document without envelope (the OpenAPI document).
	rawDocument
)

type opDoc struct {
	id, summary, desc, tag string
	shape                  bodyShape
	// data is the Go type of the response's data (of its items for lists);
	// an item may be an alt instead (a batch entry that failed).
	data, alt reflect.Type
	// kind, for list endpoints, documents vehicle.AcceptedParams(kind);
	// query and required are the query parameters of other endpoints.
	kind            catalog.Kind
	query, required []string
	// params describes query parameters of its own (else queryParam does).
	params map[string]paramDoc
	// own400 are the 400 codes its handler adds to those of every route
	// and of its path parameters (badRequestCodes); also adds statuses.
	own400 []string
	also   []int
	// upstream marks answers from NHTSA through the cache, whose 200 may
	// carry a Warning header when served stale.
	upstream bool
}

var (
	typeCar        = reflect.TypeFor[catalog.Car]()
	typeMotorcycle = reflect.TypeFor[catalog.Motorcycle]()
	typeBoat       = reflect.TypeFor[catalog.Boat]()
	typeTire       = reflect.TypeFor[catalog.TireFitment]()
)

// everyRoute400 are the 400 codes any route sends: the server refuses a
// path or query that is not plain text (invalid_parameter), and every
// route an unknown (unknown_parameter) or repeated (invalid_parameter) one.
var everyRoute400 = []string{vehicle.CodeInvalidParameter, vehicle.CodeUnknownParameter}

// badRequestCodes are the 400 codes of the route at path whose handler
// adds own; the corpus of TestEveryResponseMatchesDocument sends each.
func badRequestCodes(path string, own []string) ([]string, error) {
	codes := slices.Concat(everyRoute400, own)
	for _, name := range pathParams(path) {
		pd, ok := pathParam(name)
		if !ok {
			return nil, fmt.Errorf("path parameter %q has no description in pathParam", name)
		}
		codes = append(codes, pd.code)
	}
	slices.Sort(codes)
	return slices.Compact(codes), nil
}

func kindOps(ops map[string]opDoc, kind catalog.Kind, path, tag, noun, plural, opName string, rec reflect.Type) {
	ops["GET "+path] = opDoc{
		id: "list" + opName + "s", tag: tag, summary: "Search " + plural,
		desc: "Returns a page of " + plural + " matching every given filter. The request must narrow the dataset " +
			"(see the narrowing rule in the API description); unknown parameters are rejected with the list of accepted ones.",
		shape: pageOf, data: rec, kind: kind, own400: []string{vehicle.CodeQueryTooBroad},
	}
	ops["GET "+path+"/makes"] = opDoc{
		id: "list" + opName + "Makes", tag: tag, summary: "List the makes of " + plural,
		desc:  "Every make of " + plural + " with its record count, sorted by name; the first step of the make → model → records drill-down.",
		shape: arrayOf, data: reflect.TypeFor[vehicle.MakeCount](),
	}
	ops["GET "+path+"/models"] = opDoc{
		id: "list" + opName + "Models", tag: tag, summary: "List the models of one make of " + plural,
		desc: "The models of the make given (matched case-insensitively) with their record count and year range. " +
			"A make the catalog does not have gives an empty list; a request without make is a 400 missing_parameter.",
		shape: arrayOf, data: reflect.TypeFor[vehicle.ModelRange](), query: []string{"make"}, required: []string{"make"},
		own400: []string{vehicle.CodeMissingParameter},
	}
	ops["GET "+path+"/{uuid}"] = opDoc{
		id: "get" + opName, tag: tag, summary: "Get one " + noun,
		desc:  "One " + noun + " by its uuid. A uuid that is not in the catalog is a 404 not_found.",
		shape: objectOf, data: rec,
	}
}

func operations() map[string]opDoc {
	ops := map[string]opDoc{}
	kindOps(ops, catalog.KindCar, "/v1/cars", "Cars", "car", "cars", "Car", typeCar)
	kindOps(ops, catalog.KindMotorcycle, "/v1/motorcycles", "Motorcycles", "motorcycle-dataset record",
		"motorcycles (and ATVs, UTVs, snowmobiles, scooters, personal watercraft and golf carts)", "Motorcycle", typeMotorcycle)
	kindOps(ops, catalog.KindBoat, "/v1/boats", "Boats", "power boat", "power boats", "Boat", typeBoat)
	kindOps(ops, catalog.KindTireSize, "/v1/tire-sizes", "Tire sizes", "tire fitment", "tire fitments", "TireFitment", typeTire)

	ops["GET /v1/cars/body-types"] = opDoc{
		id: "listCarBodyTypes", tag: "Cars", summary: "List car body types",
		desc:  "Every body type with its record count: the known types first, zero counts included, then any other.",
		shape: arrayOf, data: reflect.TypeFor[vehicle.NameCount](),
	}
	ops["GET /v1/cars/{uuid}/tire-sizes"] = opDoc{
		id: "getCarTireSizes", tag: "Cars", summary: "Tire fitments of a car",
		desc: "The OEM and alternate tire fitments of the car's own make, model and powertrain (an electric car never " +
			"gets a combustion, hybrid or range-extender sibling's) with their geometry: the car's model year " +
			"(match exact_year), else the nearest year(s) at most two model years away (nearest_year); match none with " +
			"an empty list when no fitment qualifies, rather than another generation's sizes.",
		shape: objectOf, data: reflect.TypeFor[vehicle.CarTires](),
	}
	ops["GET /v1/cars/{uuid}/recalls"] = opDoc{
		id: "getCarRecalls", tag: "Cars", summary: "Recalls and crash ratings of a car",
		desc: "NHTSA's recall campaigns for the car's make, model and year, and the NCAP crash-test ratings (overall, " +
			"front, side, rollover; null when NHTSA has no rating) of each variant. Coverage: US (NHTSA). Cached 24 hours; " +
			"when NHTSA fails and an expired answer is cached, it is served with stale true and a Warning header, " +
			"otherwise the answer is a 502 upstream_error or 503 upstream_unavailable (not charged).",
		shape: objectOf, data: reflect.TypeFor[lookup.CarRecalls](),
		also: []int{http.StatusBadGateway}, upstream: true,
	}
	ops["GET /v1/motorcycles/{uuid}/recalls"] = opDoc{
		id: "getMotorcycleRecalls", tag: "Motorcycles", summary: "Recalls of a motorcycle",
		desc: "NHTSA's recall campaigns for the motorcycle's make, model and year. An empty list means no match was " +
			"found under NHTSA's naming, not a guarantee that there are none. Coverage: US (NHTSA). Cached 24 hours, " +
			"served stale when NHTSA fails, as for cars.",
		shape: objectOf, data: reflect.TypeFor[lookup.MotorcycleRecalls](),
		also: []int{http.StatusBadGateway}, upstream: true,
	}
	complaintsDesc := "Owners' safety complaints to NHTSA about the make, model and year, newest received first, paged " +
		"(page, per_page), with totals of complaints, crashes, fires, injuries and deaths and counts by component over " +
		"all pages. From the imported NHTSA complaint files or NHTSA's complaints API, as recalls.source says (source, " +
		"data_date). Coverage: US (NHTSA). Cached 24 hours, served stale when NHTSA fails, as for recalls."
	for _, k := range []struct{ path, id, tag, what string }{
		{"cars", "getCarComplaints", "Cars", "a car"}, {"motorcycles", "getMotorcycleComplaints", "Motorcycles", "a motorcycle"},
	} {
		ops["GET /v1/"+k.path+"/{uuid}/complaints"] = opDoc{
			id: k.id, tag: k.tag, summary: "Complaints about " + k.what, desc: complaintsDesc,
			shape: objectOf, data: reflect.TypeFor[lookup.Complaints](), query: complaintParams,
			also: []int{http.StatusBadGateway}, upstream: true,
		}
	}
	ops["GET /v1/vin/{vin}"] = opDoc{
		id: "decodeVIN", tag: "VIN", summary: "Decode a VIN",
		desc: "Checks the VIN locally first (exactly 17 characters of A-Z and 0-9 without I, O and Q; a bad one is a 400 " +
			"invalid_vin, not charged, never sent to a decoder), computes its check digit (advisory outside North America), " +
			"model-year candidates and WMI region and country, then decodes it with vPIC's rules: from the server's " +
			"imported vPIC snapshot when it has one, else live from NHTSA vPIC (cached 24 hours); source says which. " +
			"The answer has make (in the catalog's spelling), model, year, trim, series, body (the catalog's body type) " +
			"and vPIC's body_class, doors, engine, plant, manufacturer, vehicle type and vPIC's error codes, plus the " +
			"uuids of catalog cars and tire fitments of the same make, model and year. A VIN whose manufacturer nobody " +
			"knows is a 422 vin_not_decodable; it and a failed upstream (502, 503) still carry the local checks " +
			"(check_digit, wmi, model_year_candidates) in the problem document. Failures are not charged.",
		shape: objectOf, data: reflect.TypeFor[lookup.VINReport](),
		also: []int{http.StatusUnprocessableEntity, http.StatusBadGateway}, upstream: true,
	}
	ops["GET /v1/vins"] = opDoc{
		id: "decodeVINs", tag: "VIN", summary: "Decode up to 50 VINs",
		desc: "Decodes each vin parameter (repeat it, 1 to 50 times) as GET /v1/vin/{vin} does and answers one entry per " +
			"VIN, in the order given: the same report, or {vin, error: {code, detail}} with the code the single-VIN " +
			"endpoint would answer (invalid_vin, vin_not_decodable, upstream_error, upstream_unavailable). Charged once " +
			"per VIN decoded (a VIN repeated in the batch is decoded and charged once); an invalid VIN or one nobody " +
			"can decode costs nothing (VINs are charged after decoding, so it never holds a unit), so a batch of only those is a 200 with per-entry errors. The request counts " +
			"once against the per-minute rate. When the monthly quota runs out part-way, the VINs past that point carry " +
			"quota_exceeded (not decoded, not charged); when it is out before the first, the answer is a 429.",
		shape: arrayOf, data: reflect.TypeFor[lookup.VINReport](), alt: reflect.TypeFor[lookup.VINFailure](),
		query: []string{"vin"}, required: []string{"vin"},
		own400:   []string{vehicle.CodeMissingParameter},
		upstream: true,
	}
	ops["GET /v1/hin/{hin}"] = opDoc{
		id: "decodeHIN", tag: "HIN", summary: "Decode a boat's HIN",
		desc: "Decodes a boat's hull identification number by 33 CFR 181 subpart C, offline: the current 12-character " +
			"format, the two 1972-1984 formats (straight year, model year), State- and Coast Guard-issued codes, a US- " +
			"prefix, and the EU's 14-character CIN (ISO 10087) with its country code; spaces and hyphens are ignored. The " +
			"answer has the format, the manufacturer identification code with the company and address from the Coast " +
			"Guard's MIC list, the serial, the production month and year (its decade resolved from the model year), the " +
			"model year, numbered warnings (1 production date outside the model year, 2 code not in the list, 3 format not " +
			"in use at that date) and links.boats, the catalog's boats of the manufacturer's makes and the model year. An " +
			"invalid HIN is a 400 invalid_hin naming the position and the rule (position, rule), not charged.",
		shape: objectOf, data: reflect.TypeFor[lookup.HINReport](),
	}
	ops["GET /v1/hins"] = opDoc{
		id: "decodeHINs", tag: "HIN", summary: "Decode up to 50 HINs",
		desc: "Decodes each hin parameter (repeat it, 1 to 50 times) as GET /v1/hin/{hin} does and answers one entry per " +
			"HIN, in the order given: the same report, or {hin, error: {code, detail, position, rule}}. Charged once per " +
			"distinct HIN decoded (a HIN repeated in the batch is charged once); an invalid one costs nothing, so a batch of only those is a 200 with per-entry errors. The " +
			"request counts once against the per-minute rate. When the monthly quota runs out part-way, the HINs past " +
			"that point carry quota_exceeded (not decoded, not charged); when it is out before the first, the answer is a 429.",
		shape: arrayOf, data: reflect.TypeFor[lookup.HINReport](), alt: reflect.TypeFor[lookup.HINFailure](),
		query: []string{"hin"}, required: []string{"hin"},
		own400: []string{vehicle.CodeMissingParameter},
	}
	ops["GET /v1/motorcycles/types"] = opDoc{
		id: "listMotorcycleTypes", tag: "Motorcycles", summary: "List motorcycle riding types",
		desc:  "All riding types with their vehicle class and record count (which may be 0).",
		shape: arrayOf, data: reflect.TypeFor[vehicle.TypeCount](),
	}
	ops["GET /v1/boats/hull-types"] = opDoc{
		id: "listBoatHullTypes", tag: "Boats", summary: "List boat hull types",
		desc:  "Every hull material with its vessel count: the known types first, zero counts included, then any other.",
		shape: arrayOf, data: reflect.TypeFor[vehicle.NameCount](),
	}
	ops["GET /v1/tire-sizes/{uuid}/geometry"] = opDoc{
		id: "getTireFitmentGeometry", tag: "Tire sizes", summary: "Tire geometry of a fitment",
		desc: "Width, sidewall, overall diameter, circumference and revolutions per mile of the OEM size (and the rear " +
			"size of a staggered fitment), and of each alternate size with its diameter difference versus OEM. " +
			"within_window is true when the difference is within ±window_pct percent (3).",
		shape: objectOf, data: reflect.TypeFor[vehicle.FitmentGeometry](),
	}
	window := paramDoc{schema: schema{"type": "integer", "minimum": vehicle.MinPlusWindow, "maximum": vehicle.MaxPlusWindow,
		"default": vehicle.DefaultPlusWindow}, desc: "The diameter window, ± whole percent of the OEM diameter. Out of range is a 400, not a clamp."}
	ops["GET /v1/tire-sizes/{uuid}/plus-sizes"] = opDoc{
		id: "getTireFitmentPlusSizes", tag: "Tire sizes", summary: "Plus sizes of a fitment",
		desc: "Every metric size from 20 mm narrower to 40 mm wider than the OEM size (steps of 10), aspect ratio 25 to 85 " +
			"(steps of 5), on rims from 2 inches below to 3 above the OEM rim, whose overall diameter is within ±window " +
			"percent of the OEM's; grouped by rim and sorted by the size of the difference. Each carries its geometry, the " +
			"diameter and sidewall change, the speedometer reading at a true 60 mph and 100 km/h, the lowest load index " +
			"that carries the OEM tire's load (ISO 4000 table) and whether that needs a reinforced (XL) tire, and the " +
			"lowest speed rating allowed (the OEM's). A staggered fitment has a rear list too.",
		shape: objectOf, data: reflect.TypeFor[vehicle.FitmentPlusSizes](), query: []string{"window"},
		params: map[string]paramDoc{"window": window},
	}
	ops["GET /v1/tire-sizes/lookup"] = opDoc{
		id: "lookupTireSize", tag: "Tire sizes", summary: "Look up a tire size",
		desc: "The geometry and plus sizes of any size, and one page of the fitments that carry it as OEM or alternate " +
			"size, front or rear (from an index of every size), with counts by make and by year of all of them. size " +
			"takes any spelling the tire_size filter takes; a size that is not one is a 400 invalid_parameter naming the " +
			"format. make and year narrow the fitments, not the counts.",
		shape: objectOf, data: reflect.TypeFor[vehicle.SizeLookup](), query: lookupParams, required: []string{"size"},
		own400: []string{vehicle.CodeMissingParameter},
		params: map[string]paramDoc{
			"size": {schema: schema{"type": "string", "examples": anys("225/45R17", "LT285/70R17", "35x12.50R17LT")},
				desc: "The tire size: " + vehicle.SizeFormat + "; letter case and spaces are free, a load index and speed rating after it set the plus sizes' load and speed fields."},
			"window": window,
			"make":   {schema: schema{"type": "string", "examples": anys("Toyota")}, desc: "Only fitments of this make, matched case-insensitively; see facets.makes."},
			"year":   {schema: yearSchema(), desc: "Only fitments of this model year; see facets.years."},
		},
	}
	ops["GET /v1/me"] = opDoc{
		id: "getMe", tag: "Account", summary: "Plan and quota usage",
		desc: "The authenticated account, its plan, the per-minute rate limit and the monthly quota (calendar month, UTC) " +
			"with current usage, and the token used. Limits of unlimited plans are null. Not charged.",
		shape: objectOf, data: reflect.TypeFor[Me](),
	}
	ops["GET /v1/me/requests"] = opDoc{
		id: "listMyRequests", tag: "Account", summary: "The request log",
		desc: "The account's newest authenticated requests, REST and MCP (at most the last 1,000), newest first: " +
			"time, channel, route or tool, status, duration, request id and token prefix. A request id from an error " +
			"finds its line (request_id=...). Lines are written in batches, so another server's newest requests may " +
			"take a moment to appear; reading the log is not itself logged. Not charged.",
		shape: pageOf, data: reflect.TypeFor[RequestLine](), query: requestParams,
		params: map[string]paramDoc{
			"status": {schema: schema{"type": "string", "pattern": statusFilter, "examples": anys("404", "4xx")},
				desc: "Only requests with this status (404) or in this class (4xx)."},
			"request_id": {schema: schema{"type": "string", "examples": anys("5f0c2a9e41d8b7c3e6a1f024")},
				desc: "Only the request with this id (the X-Request-Id header, and request_id of a problem document)."},
			"per_page": {schema: schema{"type": "integer", "minimum": 1, "maximum": maxRequestsPerPage, "default": requestsPerPage},
				desc: "Lines per page. Out of range is a 400, not a clamp."},
			"page": {schema: schema{"type": "integer", "minimum": 1, "default": 1}, desc: "Page number; pages past the last are empty."},
		},
	}
	ops["GET /v1/lists"] = opDoc{
		id: "getLists", tag: "Account", summary: "Saved vehicle lists",
		desc: "The authenticated user's curated lists (the dashboard's garage). An item is a catalog record or a VIN " +
			"(type vin, with its decoded make, model and year as record and its catalog cars as links). An item whose " +
			"record has left the catalog stays, with missing true and record null. Cars, motorcycles and VINs carry " +
			"recalls, the status the recall watch keeps: open and new campaign numbers, the park-it, park-outside and " +
			"over-the-air flags, and checked_at.",
		shape: arrayOf, data: reflect.TypeFor[List](),
	}
	ops["GET /v1/lists/recalls"] = opDoc{
		id: "getListsRecalls", tag: "Account", summary: "Recalls of the saved vehicles",
		desc: "Every recall campaign affecting a car, motorcycle or VIN of the user's lists, grouped by item, with when " +
			"the recall watch first saw it on the item, NHTSA's flags and the user's status (open or dealt_with, set " +
			"in the dashboard). Campaigns open at an item's first check are its baseline and never new. One charged " +
			"call, however many items; answered from the watch's records, never from NHTSA.",
		shape: arrayOf, data: reflect.TypeFor[ItemRecalls](),
	}
	changelog := opDoc{
		tag: "About", summary: "API changelog",
		desc:  "The releases of the API, newest first. Also served at /changelog. Not charged.",
		shape: arrayOf, data: reflect.TypeFor[ChangelogEntry](),
	}
	changelog.id = "getChangelog"
	ops["GET /v1/changelog"] = changelog
	changelog.id = "getChangelogRoot"
	ops["GET /changelog"] = changelog
	ops["GET /v1/openapi.json"] = opDoc{
		id: "getOpenAPI", tag: "About", summary: "This OpenAPI document",
		desc:  "The OpenAPI 3.1 description of the API, as JSON. Not charged.",
		shape: rawDocument,
	}
	return ops
}

type paramDoc struct {
	schema schema
	desc   string
	// emptyOK: an empty value is accepted (an optional parameter's counts
	// as absent; an empty vin is a per-entry invalid_vin).
	emptyOK bool
	// code is a path parameter's 400 code; notFound adds a 404 (a record).
	code     string
	notFound bool
}

// yearSchema bounds a model year as the service does.
func yearSchema() schema {
	return schema{"type": "integer", "minimum": vehicle.MinQueryYear, "maximum": vehicle.MaxQueryYear, "examples": []any{2020}}
}

func oneOfText(values []string) string {
	return strings.Join(values, ", ")
}

// anys returns values as JSON array members, for examples and enums.
func anys(values ...string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// examples are a make and a model of each kind in the demo catalog, so
// the reference's curl examples find records.
var examples = map[catalog.Kind][2]string{
	catalog.KindCar: {"Toyota", "Camry"}, catalog.KindMotorcycle: {"Honda", "CB500F"},
	catalog.KindBoat: {"Yamaha", "AR190"}, catalog.KindTireSize: {"Toyota", "Camry"},
}

// exactText is how every closed filter matches; nameText how make and model do.
const (
	exactText = " Matches exactly but case-insensitively; any other value is refused (invalid_parameter with accepted_values and a suggestion)."
	nameText  = " Matches exactly but case-insensitively. A name no record has is not refused: the page is empty and meta.suggestions names the closest known ones."
)

// queryParam documents a query parameter of kind's list endpoint ("" for
// others). String filters list their vocabulary as examples, not enum: the
// service matches them case-insensitively.
func queryParam(kind catalog.Kind, name string) (paramDoc, bool) {
	str := func(desc string, ex ...string) (paramDoc, bool) {
		s := schema{"type": "string"}
		if len(ex) > 0 {
			s["examples"] = anys(ex...)
		}
		return paramDoc{schema: s, desc: desc}, true
	}
	switch name {
	case "vin":
		return paramDoc{schema: schema{"type": "array", "items": schema{"type": "string"}, "minItems": 1, "maxItems": lookup.MaxBatch,
			"examples": []any{[]any{"1FTMW1T88MFA00001", "5YJ3E1EA7KF000001"}}},
			desc: "A VIN to decode; repeat the parameter for each (vin=...&vin=..., at most 50). Invalid VINs, empty ones included, get a per-entry invalid_vin.", emptyOK: true}, true
	case "hin":
		return paramDoc{schema: schema{"type": "array", "items": schema{"type": "string"}, "minItems": 1, "maxItems": lookup.MaxBatch,
			"examples": []any{[]any{"BWC12345L718", "SER12345A919"}}},
			desc: "A HIN to decode; repeat the parameter for each (hin=...&hin=..., at most 50). Invalid HINs, empty ones included, get a per-entry invalid_hin.", emptyOK: true}, true
	case "make":
		if kind == "" {
			return str("The make whose models to list, as /makes returns it. Matches exactly but case-insensitively; an unknown make gives an empty list.", "Toyota")
		}
		return str("Manufacturer."+nameText, examples[kind][0])
	case "model":
		return str("Model."+nameText, examples[kind][1])
	case "year":
		return paramDoc{schema: yearSchema(), desc: "Exact model year."}, true
	case "year_min":
		return paramDoc{schema: yearSchema(), desc: "Lower bound of a model-year window (inclusive). Narrows the query on its own " +
			"only together with year_max and a window of at most 10 years (year_max - year_min <= 9)."}, true
	case "year_max":
		return paramDoc{schema: yearSchema(), desc: "Upper bound of a model-year window (inclusive); see year_min."}, true
	case "q":
		return str("Free-text search: every word must prefix-match a word of make, model, trim or type fields, case-insensitively; records whose make and model hold every word come first.", "civic hybrid")
	case "per_page":
		return paramDoc{schema: schema{"type": "integer", "minimum": 1, "maximum": vehicle.MaxPerPage, "default": vehicle.DefaultPerPage},
			desc: "Records per page. Out of range is a 400, not a clamp."}, true
	case "page":
		return paramDoc{schema: schema{"type": "integer", "minimum": 1, "maximum": vehicle.MaxPage, "default": 1},
			desc: "Page number. At most 40 pages of 10 (400 records) can be reached; meta.truncated says when more match."}, true
	}
	switch kind {
	case catalog.KindCar:
		switch name {
		case "body":
			return str("Body type, one of "+oneOfText(catalog.Bodies)+"."+exactText, catalog.Bodies...)
		case "fuel_type":
			return str("Fuel type, one of "+oneOfText(catalog.CarFuels)+"."+exactText+
				" The short codes "+oneOfText(vehicle.CarFuelCodes())+" are accepted too, in any case.",
				slices.Concat(catalog.CarFuels, vehicle.CarFuelCodes())...)
		case "drive_type":
			return str("Drivetrain, one of "+oneOfText(catalog.Drives)+"."+exactText, catalog.Drives...)
		case "ev_only":
			return paramDoc{schema: schema{"type": "string", "examples": anys("1", "true", "0", "false")},
				desc: "Send 1 (or true) to return only electrified cars: BEV, PHEV, HEV and FCEV. 0 (or false) is the default " +
					"and does not narrow the query. Case-insensitive."}, true
		}
	case catalog.KindMotorcycle:
		switch name {
		case "motorcycle_type":
			return str("Riding type, one of "+oneOfText(catalog.MotorcycleTypes)+"."+exactText, catalog.MotorcycleTypes...)
		case "vehicle_type":
			return str("Broad vehicle class, one of "+oneOfText(catalog.VehicleClasses)+"."+exactText, catalog.VehicleClasses...)
		}
	case catalog.KindBoat:
		hp := func(desc string) (paramDoc, bool) {
			return paramDoc{schema: schema{"type": "integer", "minimum": 0, "maximum": math.MaxInt32, "examples": []any{250}}, desc: desc}, true
		}
		feet := func(desc string) (paramDoc, bool) {
			return paramDoc{schema: schema{"type": "number", "minimum": 0, "examples": []any{20.5}}, desc: desc}, true
		}
		switch name {
		case "hull_type":
			return str("Hull material, one of "+oneOfText(catalog.HullTypes)+"."+exactText, catalog.HullTypes...)
		case "fuel_type":
			return str("Fuel type, one of "+oneOfText(catalog.BoatFuels)+"."+exactText, catalog.BoatFuels...)
		case "model_type":
			return str("Vessel category, one of "+oneOfText(catalog.VesselCategories)+"."+exactText, catalog.VesselCategories...)
		case "hp_min":
			return hp("Minimum total horsepower (inclusive).")
		case "hp_max":
			return hp("Maximum total horsepower (inclusive).")
		case "length_min":
			return feet("Minimum length in feet (inclusive).")
		case "length_max":
			return feet("Maximum length in feet (inclusive).")
		}
	case catalog.KindTireSize:
		if name == "tire_size" {
			return str("OEM tire size (front size of staggered fitments). Load index and speed rating are optional; "+
				"when given they must match too.", "225/45R17", "LT265/70R17", "33x12.50R15")
		}
	}
	return paramDoc{}, false
}

func pathParam(name string) (paramDoc, bool) {
	if name == "vin" {
		return paramDoc{schema: schema{"type": "string", "minLength": vin.Length, "maxLength": vin.Length, "pattern": "^[A-HJ-NPR-Za-hj-npr-z0-9]{17}$",
			"examples": []any{"1FTMW1T88MFA00001"}},
			desc: "A 17-character VIN; letters I, O and Q are never valid. Case-insensitive.", code: lookup.CodeInvalidVIN}, true
	}
	if name == "hin" {
		return paramDoc{schema: schema{"type": "string", "minLength": 12, "examples": []any{"BWC12345L718"}},
			desc: "A 12-character HIN (33 CFR 181.25), optionally with US- or an EU country code before it (a 14-character CIN); spaces, hyphens and letter case are ignored.",
			code: lookup.CodeInvalidHIN}, true
	}
	if name == "uuid" {
		return paramDoc{schema: schema{"type": "string", "format": "uuid"},
			desc: "Record uuid in its canonical 36-character form (either case). Any other value with a digit in it is a 400 invalid_uuid; " +
				"a word without digits (types, Toyota) is a path the API does not have, a 404 not_found.",
			code: vehicle.CodeInvalidUUID, notFound: true}, true
	}
	return paramDoc{}, false
}

// paramOrder puts the common list parameters first, in the order
// docs/api.md lists them; the type-specific filters follow, sorted.
var paramOrder = []string{"make", "model", "year", "year_min", "year_max", "q", "per_page", "page"}

func orderParams(names []string) []string {
	out := slices.Clone(names)
	rank := func(n string) int {
		if i := slices.Index(paramOrder, n); i >= 0 {
			return i
		}
		return len(paramOrder)
	}
	slices.SortStableFunc(out, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return out
}

// Names of the shared response components by status; apitest's unrouted
// map names them too.
var responseNames = map[int]string{
	http.StatusUnauthorized:        "Unauthorized",
	http.StatusForbidden:           "Forbidden",
	http.StatusNotFound:            "NotFound",
	http.StatusUnprocessableEntity: "UnprocessableEntity",
	http.StatusTooManyRequests:     "TooManyRequests",
	http.StatusInternalServerError: "InternalError",
	http.StatusBadGateway:          "BadGateway",
	http.StatusServiceUnavailable:  "ServiceUnavailable",
}

// limitHeaders are sent once the request passed authentication; they are
// optional because a window whose limit is 0 (unlimited) is left out.
var limitHeaders = []string{
	"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
	"X-Quota-Limit", "X-Quota-Used", "X-Quota-Remaining", "X-Quota-Reset",
	"RateLimit-Policy", "RateLimit",
}

func headerComponents() schema {
	integer := func(desc string, required bool) schema {
		return schema{"description": desc, "required": required, "schema": schema{"type": "integer", "minimum": 0}}
	}
	text := func(desc string, required bool) schema {
		return schema{"description": desc, "required": required, "schema": schema{"type": "string"}}
	}
	return schema{
		"X-Request-Id": schema{"description": "The request's id, also in the problem document's request_id. A caller's " +
			"own X-Request-Id (up to 64 letters, digits, '-', '_', '.') is kept.", "required": true,
			"schema": schema{"type": "string", "minLength": 1, "maxLength": 64}},
		"X-RateLimit-Limit":     integer("Requests allowed per minute. Absent when the plan has no per-minute limit.", false),
		"X-RateLimit-Remaining": integer("Requests left in the current minute.", false),
		"X-RateLimit-Reset":     integer("When the next unit of the per-minute window frees up (a minute after the oldest request in it), in Unix seconds, rounded up.", false),
		"X-Quota-Limit":         integer("Charged calls allowed per calendar month (UTC). Absent when the plan has no monthly quota.", false),
		"X-Quota-Used":          integer("Charged calls used this month, REST and agent tools together.", false),
		"X-Quota-Remaining":     integer("Charged calls left this month.", false),
		"X-Quota-Reset":         integer("When the month ends, in Unix seconds.", false),
		"RateLimit-Policy":      text(`IETF RateLimit-Policy field for both windows, e.g. "minute";q=300;w=60, "month";q=100000;w=2592000.`, false),
		"RateLimit":             text(`IETF RateLimit field for both windows, e.g. "minute";r=299;t=60, "month";r=99999;t=1209600.`, false),
		"Link":                  text(`RFC 8288 links to the first, prev, next and last pages, as absolute URLs, e.g. <https://vds.example.com/v1/cars?make=Toyota&page=2>; rel="next". Absent when nothing matches.`, false),
		"Retry-After":           integer("Seconds to wait before retrying.", true),
		"WWW-Authenticate":      text(`Bearer realm="vds", error="invalid_token"`, true),
		"Warning":               text(`110 vds "Response is Stale": NHTSA failed and an expired cached answer is served; the body says "stale": true.`, false),

		"ETag": schema{"description": `Strong validator of this answer: "v<catalog version>-<16 hex digits>". Send it back in If-None-Match to get a 304 that the monthly quota does not count.`,
			"required": true, "schema": schema{"type": "string", "pattern": `^"v[0-9]+-[0-9a-f]{16}"$`}},
		"Cache-Control": text("private, max-age=N on catalog answers (N is the server's setting, 60 by default); no-store on account answers.", true),
	}
}

// headersFor lists the headers of a response with status; limited says
// whether the route passes the door, which sends the limit headers.
func headersFor(status int, page, limited bool) schema {
	names := []string{"X-Request-Id"}
	switch status {
	case http.StatusUnauthorized:
		names = append(names, "WWW-Authenticate")
	case http.StatusForbidden:
		// Refused at authentication, before the limiter.
	case http.StatusTooManyRequests:
		names = append(names, "Retry-After")
		names = append(names, limitHeaders...)
	default:
		if limited {
			names = append(names, limitHeaders...)
		}
	}
	if page {
		names = append(names, "Link")
	}
	out := schema{}
	for _, n := range names {
		out[n] = schema{"$ref": "#/components/headers/" + n}
	}
	return out
}

var responseText = map[int]string{
	http.StatusBadRequest:          "Bad input: a malformed, unknown, repeated or missing parameter, or a list query that does not narrow the dataset. param names the parameter; accepted lists the accepted ones for unknown_parameter; accepted_values and suggestion list the values a filter takes and the closest one, for a value outside them.",
	http.StatusUnauthorized:        "The bearer token is missing, malformed, unknown or revoked.",
	http.StatusForbidden:           "The plan has no API access, the account is suspended, or the token lacks api:read.",
	http.StatusNotFound:            "No record with that uuid (or, outside the operations listed, no such endpoint).",
	http.StatusUnprocessableEntity: "A well-formed VIN whose manufacturer is unknown.",
	http.StatusTooManyRequests:     "The per-minute rate limit (rate_limited) or the monthly quota (quota_exceeded) is exhausted; limit says which, reset when it resets, retry_after and Retry-After how many seconds to wait.",
	http.StatusInternalServerError: "The server failed; the request id identifies the failure in its logs.",
	http.StatusBadGateway:          "An upstream service failed and nothing usable is cached.",
	http.StatusServiceUnavailable:  "A database or upstream service is unavailable; retry shortly.",
}

// problemContent is the application/problem+json content of a response
// with status, whose code is one of codes.
func problemContent(status int, codes []string) schema {
	return schema{"application/problem+json": schema{"schema": schema{
		"allOf": []any{
			schema{"$ref": "#/components/schemas/Problem"},
			schema{"properties": schema{
				"status": schema{"const": status, "description": "The HTTP status."},
				"code":   schema{"enum": anys(codes...), "description": "The codes this status comes with here."},
			}},
		},
	}}}
}

// codesByStatus inverts edge.APICodes, so the document lists exactly the codes
// the server can send with each status.
func codesByStatus() map[int][]string {
	out := map[int][]string{}
	for code, status := range edge.APICodes() {
		out[status] = append(out[status], code)
	}
	for _, codes := range out {
		slices.Sort(codes)
	}
	return out
}

func cacheHeaders(headers schema, rule cacheRule) schema {
	if rule == cacheCatalog {
		headers["ETag"] = schema{"$ref": "#/components/headers/ETag"}
	}
	if rule != cacheUnset {
		headers["Cache-Control"] = schema{"$ref": "#/components/headers/Cache-Control"}
	}
	return headers
}

var ifNoneMatch = schema{"name": "If-None-Match", "in": "header", "required": false,
	"description": "ETags of answers the client holds (W/ prefixes are compared weakly); * is ignored. When one is current the answer is a 304 " +
		"without a body, counted against the per-minute rate but not charged; a spent monthly quota is still a 429.",
	"schema": schema{"type": "string"}}

// alwaysStatuses are the error statuses of every guarded operation: 401,
// 403, 429 and 503 from guard, 500 from any handler.
var alwaysStatuses = []int{
	http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests,
	http.StatusInternalServerError, http.StatusServiceUnavailable,
}

const apiDescription = `Read-only vehicle data: cars (with EPA fuel economy), motorcycles and other powersports vehicles, power boats and tire fitments (with tire geometry), and the caller's plan, quota and saved lists.

**Authentication.** Every request but this document (GET /v1/openapi.json, public) needs ` + "`Authorization: Bearer <token>`" + ` with a ` + "`vds_`" + ` token of ability api:read. A missing or invalid token is a 401 (with WWW-Authenticate); a plan without API access, a suspended account or a token without api:read is a 403.

**Limits.** Each plan has a per-minute rate limit and a monthly quota (calendar month, UTC), reported on every authenticated response in X-RateLimit-*, X-Quota-*, RateLimit-Policy and RateLimit headers. A call is charged only when it succeeds (2xx); operations with x-charged false (/me, the changelog, this document) are free. Exceeding either limit is a 429 with Retry-After.

**Narrowing rule.** A list request (/cars, /motorcycles, /boats, /tire-sizes) must give make, model, q, a type-specific filter, year, or both year_min and year_max spanning at most 10 model years; a lone or open-ended year bound is rejected (400 query_too_broad). Empty values count as absent. per_page is 1..10 (default 10) and page 1..40 (default 1), so at most 400 records are reachable: meta.truncated says when more match. Unknown and repeated query parameters are rejected (400) on every endpoint.

**Responses.** Successful bodies are ` + "`{\"data\": ...}`" + `, with ` + "`meta`" + ` and a Link header for paged lists. Fields are never omitted: absent values are null. Errors are RFC 9457 ` + "`application/problem+json`" + ` documents with a stable snake_case code and the request_id (also sent as X-Request-Id on every response).

**Other paths and methods.** Any other path under /v1 is a 404 problem (not_found) after authentication. Methods other than GET and HEAD are answered with 405 (method_not_allowed) and an Allow header; HEAD is answered like GET without a body. Drill down with /{type}/makes, then /{type}/models?make=..., then the list endpoint with make and model.`

// BuildOpenAPI returns the OpenAPI 3.1 document of routes as JSON; it fails
// on a route, description or list parameter that has no counterpart.
func BuildOpenAPI(routes []Route) ([]byte, error) {
	ops := operations()
	responses, err := responseComponents()
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	c := typeschema.NewComponents()
	paths := map[string]schema{}
	seen := map[string]bool{}
	var errs []error
	for _, rt := range routes {
		method, path, ok := strings.Cut(rt.Pattern, " ")
		if !ok || method != http.MethodGet {
			errs = append(errs, fmt.Errorf("route %q: the document describes GET routes only", rt.Pattern))
			continue
		}
		d, ok := ops[rt.Pattern]
		if !ok {
			errs = append(errs, fmt.Errorf("route %q has no description in operations() (openapi.go)", rt.Pattern))
			continue
		}
		if seen[rt.Pattern] {
			errs = append(errs, fmt.Errorf("route %q is listed twice", rt.Pattern))
			continue
		}
		seen[rt.Pattern] = true
		op, err := buildOperation(c, path, d, rt)
		if err != nil {
			errs = append(errs, fmt.Errorf("route %q: %w", rt.Pattern, err))
			continue
		}
		if paths[path] == nil {
			paths[path] = schema{}
		}
		paths[path]["get"] = op
		paths[path]["head"] = headOperation(op, responses)
	}
	for pattern := range ops {
		if !seen[pattern] {
			errs = append(errs, fmt.Errorf("operations() describes %q, which Routes() does not have", pattern))
		}
	}
	// Problem is only referred to from the shared responses, so register it here.
	if _, err := c.Ref(reflect.TypeFor[edge.Problem]()); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	doc := struct {
		OpenAPI    string            `json:"openapi"`
		Info       schema            `json:"info"`
		Servers    []schema          `json:"servers"`
		Security   []schema          `json:"security"`
		Tags       []schema          `json:"tags"`
		Paths      map[string]schema `json:"paths"`
		Components schema            `json:"components"`
	}{
		OpenAPI: "3.1.0",
		Info: schema{
			"title": "vds API", "version": "1.5.0", "description": apiDescription,
			"contact": schema{"name": "vds", "url": "https://github.com/vds-dev/vds"},
			"license": schema{"name": "Proprietary"},
		},
		// Paths carry /v1, so the server is the origin, served as the client
		// sees it in place of "/" (splitServers).
		Servers:  []schema{{"url": "/"}},
		Security: []schema{{"bearerAuth": []any{}}},
		Tags: []schema{
			{"name": "Cars", "description": "Passenger cars and light trucks, with EPA fuel-economy fields."},
			{"name": "Motorcycles", "description": "Motorcycles, ATVs, UTVs, snowmobiles, scooters, personal watercraft and golf carts."},
			{"name": "Boats", "description": "Power boats."},
			{"name": "Tire sizes", "description": "Tire fitments: a vehicle's OEM size and alternate sizes, with geometry."},
			{"name": "VIN", "description": "VIN decoding: local checks, then vPIC's rules, with links to catalog records."},
			{"name": "HIN", "description": "Boats' hull identification numbers, decoded offline with the Coast Guard's manufacturer list, with links to catalog boats."},
			{"name": "Account", "description": "The caller's plan, quota and saved lists."},
			{"name": "About", "description": "The changelog and this document."},
		},
		Paths: paths,
		Components: schema{
			"securitySchemes": schema{"bearerAuth": schema{
				"type": "http", "scheme": "bearer",
				"description": "An API token (vds_...) created in the dashboard or with `vds tokens create`; ability api:read.",
			}},
			"schemas":   c.Schemas(),
			"headers":   headerComponents(),
			"responses": responses,
		},
	}
	return json.Marshal(doc)
}

const relativeServers = `"servers":[{"url":"/"}]`

// splitServers cuts doc around the URL of its servers entry, so that the
// handler writes each request's origin between the halves.
func splitServers(doc []byte) ([2][]byte, error) {
	before, after, ok := bytes.Cut(doc, []byte(relativeServers))
	if !ok {
		return [2][]byte{}, fmt.Errorf("openapi: the document has no %s", relativeServers)
	}
	open, closing, _ := strings.Cut(relativeServers, `"/"`)
	return [2][]byte{slices.Concat(before, []byte(open)), slices.Concat([]byte(closing), after)}, nil
}

// headOperation is get's HEAD twin: the same statuses and headers, no body.
func headOperation(get schema, components schema) schema {
	head := maps.Clone(get)
	id := get["operationId"].(string)
	head["operationId"] = "head" + strings.ToUpper(id[:1]) + id[1:]
	head["summary"] = get["summary"].(string) + " (headers only)"
	head["description"] = "Answers as GET does, with the same status and headers but no body."
	responses := schema{}
	for status, r := range get["responses"].(schema) {
		resp := r.(schema)
		if ref, ok := resp["$ref"].(string); ok {
			resp = components[strings.TrimPrefix(ref, "#/components/responses/")].(schema)
		}
		responses[status] = schema{"description": resp["description"], "headers": resp["headers"]}
	}
	head["responses"] = responses
	return head
}

func responseComponents() (schema, error) {
	out := schema{}
	for status, codes := range codesByStatus() {
		if status == http.StatusMethodNotAllowed || status == http.StatusBadRequest {
			// Each operation lists its own 400 codes; only methods without
			// an operation get a 405, which the description and
			// Problem.code name.
			continue
		}
		name, ok := responseNames[status]
		if !ok {
			return nil, fmt.Errorf("status %d (codes %v) has no response component name", status, codes)
		}
		out[name] = schema{
			"description": responseText[status],
			"headers":     headersFor(status, false, true),
			"content":     problemContent(status, codes),
		}
	}
	return out, nil
}

// publicStatuses are the error statuses of a public route, which no door
// guards: only its handler can fail.
var publicStatuses = []int{http.StatusInternalServerError}

func buildOperation(c *typeschema.Components, path string, d opDoc, rt Route) (schema, error) {
	var params []any
	for _, name := range pathParams(path) {
		pd, ok := pathParam(name)
		if !ok {
			return nil, fmt.Errorf("path parameter %q has no description in pathParam", name)
		}
		params = append(params, schema{"name": name, "in": "path", "required": true, "description": pd.desc, "schema": pd.schema})
	}
	query := d.query
	if d.kind != "" {
		query = vehicle.AcceptedParams(d.kind)
		if query == nil {
			return nil, fmt.Errorf("vehicle service has no list parameters for kind %q", d.kind)
		}
	}
	for _, name := range orderParams(query) {
		pd, ok := d.params[name]
		if !ok {
			pd, ok = queryParam(d.kind, name)
		}
		if !ok {
			return nil, fmt.Errorf("query parameter %q (kind %q) has no description in queryParam", name, d.kind)
		}
		p := schema{"name": name, "in": "query", "description": pd.desc, "schema": pd.schema}
		if pd.schema["type"] == "array" {
			p["style"], p["explode"] = "form", true
		}
		if slices.Contains(d.required, name) {
			p["required"] = true
		}
		if pd.emptyOK || !slices.Contains(d.required, name) {
			p["allowEmptyValue"] = true
		}
		params = append(params, p)
	}

	if rt.Cache == cacheCatalog {
		params = append(params, ifNoneMatch)
	}
	ok, err := okResponse(c, d, !rt.Public)
	if err != nil {
		return nil, err
	}
	cacheHeaders(ok["headers"].(schema), rt.Cache)
	byStatus := codesByStatus()
	codes400, err := badRequestCodes(path, d.own400)
	if err != nil {
		return nil, err
	}
	for _, c := range codes400 {
		if !slices.Contains(byStatus[http.StatusBadRequest], c) {
			return nil, fmt.Errorf("400 code %q is not a 400 code of edge.APICodes", c)
		}
	}
	responses := schema{
		"200": ok,
		"400": schema{
			"description": responseText[http.StatusBadRequest],
			"headers":     headersFor(http.StatusBadRequest, false, !rt.Public),
			"content":     problemContent(http.StatusBadRequest, codes400),
		},
	}
	if rt.Cache == cacheCatalog {
		responses["304"] = schema{
			"description": "Not modified: If-None-Match names the current ETag. No body, no Link; not charged.",
			"headers":     cacheHeaders(headersFor(http.StatusNotModified, false, true), rt.Cache),
		}
	}
	statuses := slices.Clone(alwaysStatuses)
	if rt.Public {
		statuses = slices.Clone(publicStatuses)
	}
	for _, name := range pathParams(path) {
		if pd, _ := pathParam(name); pd.notFound {
			statuses = append(statuses, http.StatusNotFound)
		}
	}
	for _, st := range append(statuses, d.also...) {
		name, ok := responseNames[st]
		if !ok || len(byStatus[st]) == 0 {
			return nil, fmt.Errorf("status %d has no shared response (no edge.APICodes code or responseNames entry)", st)
		}
		responses[strconv.Itoa(st)] = schema{"$ref": "#/components/responses/" + name}
	}
	op := schema{
		"operationId": d.id,
		"summary":     d.summary,
		"description": d.desc,
		"tags":        []any{d.tag},
		"responses":   responses,
		"x-charged":   rt.Charged,
	}
	if rt.Public {
		// An empty list overrides the document's bearerAuth: no token needed.
		op["security"] = []any{}
	}
	if len(params) > 0 {
		op["parameters"] = params
	}
	return op, nil
}

func pathParams(path string) []string {
	var out []string
	for seg := range strings.SplitSeq(path, "/") {
		if name, ok := strings.CutPrefix(seg, "{"); ok {
			out = append(out, strings.TrimSuffix(name, "}"))
		}
	}
	return out
}

func okResponse(c *typeschema.Components, d opDoc, limited bool) (schema, error) {
	headers := headersFor(http.StatusOK, d.shape == pageOf, limited)
	if d.upstream {
		headers["Warning"] = schema{"$ref": "#/components/headers/Warning"}
	}
	resp := schema{"description": "Success.", "headers": headers}
	if d.shape == rawDocument {
		resp["content"] = schema{"application/json": schema{"schema": schema{
			"type": "object", "required": []any{"openapi", "info", "paths"},
			"description": "An OpenAPI 3.1 document.",
		}}}
		return resp, nil
	}
	item, err := c.Ref(d.data)
	if err != nil {
		return nil, err
	}
	name := d.data.Name()
	if d.alt != nil {
		alt, err := c.Ref(d.alt)
		if err != nil {
			return nil, err
		}
		item = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{item, alt}}
		name += "Or" + d.alt.Name()
	}
	var env *jsonschema.Schema
	switch d.shape {
	case pageOf:
		meta, err := c.Ref(reflect.TypeFor[vehicle.Meta]())
		if err != nil {
			return nil, err
		}
		name += "Page"
		env = typeschema.Envelope(&jsonschema.Schema{Type: "array", Items: item}, meta)
		env.Description = "One page of a list query."
	case objectOf:
		name += "Envelope"
		env = typeschema.Envelope(item, nil)
	case arrayOf:
		name += "ArrayEnvelope"
		env = typeschema.Envelope(&jsonschema.Schema{Type: "array", Items: item}, nil)
		env.Description = "A complete list; not paged."
	default:
		return nil, fmt.Errorf("unknown body shape %d", d.shape)
	}
	if err := c.Add(name, env); err != nil {
		return nil, err
	}
	resp["content"] = schema{"application/json": schema{"schema": schema{"$ref": "#/components/schemas/" + name}}}
	return resp, nil
}

package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// vehicleTools call the vehicle.Service methods their REST twins call.
type vehicleTools struct {
	svc *vehicle.Service
}

// SearchVehiclesInput is the arguments of search_vehicles: the query
// parameters of GET /v1/{type}, validated alike by vehicle.Service.Search.
type SearchVehiclesInput struct {
	Type    string `json:"type" jsonschema:"Which records to search: car, motorcycle (also ATVs, UTVs, snowmobiles, scooters, personal watercraft, golf carts), boat (power boats) or tire_size (tire fitments: a vehicle with its OEM and alternate tire sizes)."`
	Make    string `json:"make,omitempty" jsonschema:"Manufacturer, matched exactly but case-insensitively, e.g. Toyota. list_makes gives the catalog's spellings; a make no record has gives no records and meta.suggestions."`
	Model   string `json:"model,omitempty" jsonschema:"Model, matched exactly but case-insensitively, e.g. Camry. list_models gives the models of a make; a model no record has gives no records and meta.suggestions."`
	Year    *int   `json:"year,omitempty" jsonschema:"Model year."`
	YearMin *int   `json:"year_min,omitempty" jsonschema:"First model year of a window; give year_max too. On its own a window narrows the query only when it spans at most 10 years (year_max - year_min <= 9)."`
	YearMax *int   `json:"year_max,omitempty" jsonschema:"Last model year of a window; give year_min too."`
	Q       string `json:"q,omitempty" jsonschema:"Free text: every word must prefix-match the make, model, trim or a type field, case-insensitively, e.g. 'f150 lariat'; records whose make and model hold every word come first."`
	Page    *int   `json:"page,omitempty" jsonschema:"Page to return, 1 to 40 (default 1). At most 400 records can be paged through; meta.truncated says when more matched."`
	PerPage *int   `json:"per_page,omitempty" jsonschema:"Records per page, 1 to 10 (default 10)."`

	Body      string `json:"body,omitempty"`
	FuelType  string `json:"fuel_type,omitempty"`
	DriveType string `json:"drive_type,omitempty"`
	EVOnly    *bool  `json:"ev_only,omitempty" jsonschema:"Cars only: true keeps battery-electric, plug-in hybrid and hybrid cars. false keeps every car and does not narrow the query."`

	MotorcycleType string `json:"motorcycle_type,omitempty"`
	VehicleType    string `json:"vehicle_type,omitempty"`

	HullType  string   `json:"hull_type,omitempty"`
	ModelType string   `json:"model_type,omitempty"`
	HPMin     *int     `json:"hp_min,omitempty" jsonschema:"Boats only: least total horsepower."`
	HPMax     *int     `json:"hp_max,omitempty" jsonschema:"Boats only: most total horsepower."`
	LengthMin *float64 `json:"length_min,omitempty" jsonschema:"Boats only: least length in feet, e.g. 20.5."`
	LengthMax *float64 `json:"length_max,omitempty" jsonschema:"Boats only: most length in feet."`

	// The filters above are described in searchVehicles, from the
	// catalog's lists of values, so the descriptions cannot go stale.

	TireSize string `json:"tire_size,omitempty" jsonschema:"Tire fitments only: OEM tire size such as 225/45R17, LT265/70R17 or 33x12.50R15; with a load index and speed rating (235/55R19 101V) those must match too."`
}

func searchVehicles() Tool {
	return newTool(toolSpec{
		name:  "search_vehicles",
		title: "Search vehicles",
		desc: "Search the catalog of cars, motorcycles, power boats or tire fitments. Give type and at least one of make, " +
			"model, q, a filter of that type, year, or year_min with year_max at most 10 years apart; broader queries are " +
			"refused with what to add. Filters of another type are refused too (body is for cars only). Results come in a " +
			"stable order (make, model, year descending) 10 per page, up to page 40. Returns " +
			"{\"data\": [records], \"meta\": {page, per_page, total, total_pages, max_page, truncated, suggestions?}}, the body of " +
			"GET /v1/cars, /v1/motorcycles, /v1/boats or /v1/tire-sizes with the same parameters. A make or model no record has " +
			"is not refused: no records come back, and meta.suggestions lists [{param, value, names}], the closest known names.",
		in: inputSchema[SearchVehiclesInput](map[string]prop{
			"type":     kindProp,
			"year":     yearProp,
			"year_min": yearProp,
			"year_max": yearProp,
			"page":     bounds(1, vehicle.MaxPage),
			"per_page": bounds(1, vehicle.MaxPerPage),
			"hp_min":   atLeast(0),
			"hp_max":   atLeast(0),
			"make":     {examples: []any{"Toyota"}},
			"model":    {examples: []any{"Camry"}},
			"length_min": func() prop {
				p := atLeast(0)
				p.examples = []any{20.5}
				return p
			}(),
			"length_max":      atLeast(0),
			"tire_size":       {examples: []any{"225/45R17"}},
			"body":            {desc: "Cars only: body type, one of " + orList(catalog.Bodies) + "." + closedText},
			"fuel_type":       {desc: "Cars: " + orList(catalog.CarFuels) + ", or one of the codes " + strings.Join(vehicle.CarFuelCodes(), ", ") + ". Boats: " + orList(catalog.BoatFuels) + "." + closedText},
			"drive_type":      {desc: "Cars only: " + orList(catalog.Drives) + "." + closedText},
			"motorcycle_type": {desc: "Motorcycles only: riding type, one of " + orList(catalog.MotorcycleTypes) + "." + closedText},
			"vehicle_type":    {desc: "Motorcycles only: vehicle class, " + orList(catalog.VehicleClasses) + "." + closedText},
			"hull_type":       {desc: "Boats only: hull material, " + orList(catalog.HullTypes) + "." + closedText},
			"model_type":      {desc: "Boats only: vessel category, one of " + orList(catalog.VesselCategories) + "." + closedText},
		}),
		out: envelope(&jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{AnyOf: recordSchemas()}},
			"The matching records of the page, each in the shape of its type (titled car, motorcycle, boat or tire_size).", true),
		charged: true,
		rest:    "GET /v1/cars, /v1/motorcycles, /v1/boats, /v1/tire-sizes",
		output:  "`{\"data\": [record, ...], \"meta\": {page, per_page, total, total_pages, max_page, truncated, suggestions?}}`",
		handler: handle(Deps.vehicleTools, vehicleTools.search),
	})
}

func (v vehicleTools) search(_ context.Context, in SearchVehiclesInput) (*mcp.CallToolResult, error) {
	kind, err := parseKind(in.Type)
	if err != nil {
		return serviceError(err, "")
	}
	page, err := v.svc.Search(in.query(kind))
	if err != nil {
		return serviceError(err, "")
	}
	b, err := json.Marshal(struct {
		Data []json.RawMessage `json:"data"`
		Meta vehicle.Meta      `json:"meta"`
	}{page.Raw, page.Meta})
	if err != nil {
		return nil, fmt.Errorf("encode page: %w", err)
	}
	return structured(b), nil
}

func (in SearchVehiclesInput) query(kind catalog.Kind) vehicle.Query {
	return vehicle.Query{
		Kind: kind, Make: in.Make, Model: in.Model, Q: in.Q,
		Year: in.Year, YearMin: in.YearMin, YearMax: in.YearMax, Page: in.Page, PerPage: in.PerPage,
		Filters: vehicle.Filters{
			Body: in.Body, FuelType: in.FuelType, DriveType: in.DriveType,
			MotorcycleType: in.MotorcycleType, VehicleType: in.VehicleType,
			HullType: in.HullType, ModelType: in.ModelType, TireSize: in.TireSize,
		},
		EVOnly: in.EVOnly, HPMin: in.HPMin, HPMax: in.HPMax, LengthMin: in.LengthMin, LengthMax: in.LengthMax,
	}
}

const closedText = " Matched case-insensitively; any other value is refused with the accepted values and the closest one."

func orList(vals []string) string {
	if len(vals) < 2 {
		return strings.Join(vals, "")
	}
	return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
}

// parseKind accepts exactly the type names the schemas list, which keeps a
// handler safe without the schema.
func parseKind(s string) (catalog.Kind, error) {
	k, err := catalog.ParseKind(s)
	if err != nil || string(k) != s {
		return "", &vehicle.Error{Code: vehicle.CodeInvalidParameter, Param: "type",
			Message: fmt.Sprintf("type %q is not a record type: use car, motorcycle, boat or tire_size", s)}
	}
	return k, nil
}

// GetVehicleInput is the arguments of get_vehicle.
type GetVehicleInput struct {
	Type string `json:"type" jsonschema:"The record's type: car, motorcycle, boat or tire_size, as the search it came from."`
	UUID string `json:"uuid" jsonschema:"The record's uuid from search_vehicles, list results or my_garage, in its 36-character form."`
}

func getVehicle() Tool {
	return newTool(toolSpec{
		name:  "get_vehicle",
		title: "Get a vehicle record",
		desc: "Fetch one catalog record by type and uuid with every field: for cars trim, body, fuel, drive, transmission, " +
			"engine and EPA fuel economy; for motorcycles riding type, class and engine; for boats length, beam, weight, " +
			"engines, horsepower and hull; for tire fitments the OEM, rear and alternate sizes. Returns {\"data\": record}, " +
			"the body of GET /v1/{cars|motorcycles|boats|tire-sizes}/{uuid}.",
		in: inputSchema[GetVehicleInput](map[string]prop{
			"type": kindProp,
			"uuid": {examples: []any{"6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41"}},
		}),
		out:     envelope(&jsonschema.Schema{AnyOf: recordSchemas()}, "The record, in the shape of its type.", false),
		charged: true,
		rest:    "GET /v1/cars/{uuid}, /v1/motorcycles/{uuid}, /v1/boats/{uuid}, /v1/tire-sizes/{uuid}",
		output:  "`{\"data\": record}`",
		handler: handle(Deps.vehicleTools, vehicleTools.get),
	})
}

// notFoundHint is what to do about a uuid the catalog does not have.
const notFoundHint = "check that type is the record's type (a tire fitment's uuid needs type tire_size) or find the uuid again with search_vehicles"

func (v vehicleTools) get(_ context.Context, in GetVehicleInput) (*mcp.CallToolResult, error) {
	kind, err := parseKind(in.Type)
	if err != nil {
		return serviceError(err, "")
	}
	id, err := vehicle.ParseUUID(in.UUID)
	if err != nil {
		return serviceError(err, "")
	}
	raw, err := v.svc.GetJSON(kind, id)
	if err != nil {
		return serviceError(err, notFoundHint)
	}
	return rawResult(raw), nil
}

// TireSizesForVehicleInput is the arguments of tire_sizes_for_vehicle.
type TireSizesForVehicleInput struct {
	Make  string `json:"make" jsonschema:"The vehicle's make, e.g. Toyota."`
	Model string `json:"model" jsonschema:"The vehicle's model, e.g. Camry; spacing and punctuation are ignored, so F150 finds F-150."`
	Year  int    `json:"year" jsonschema:"The vehicle's model year. Without fitments for that year, those of the nearest year(s) at most two years away are returned."`
}

func tireSizesForVehicle() Tool {
	return newTool(toolSpec{
		name:  "tire_sizes_for_vehicle",
		title: "Tire sizes for a vehicle",
		desc: "Find the OEM and alternate tire sizes of a vehicle by make, model and year, with the geometry of each size " +
			"(width, sidewall, diameter, circumference, revolutions per mile) and each alternate's diameter difference from " +
			"the OEM size and whether it stays within the ±3% fitment window. match says exact_year, nearest_year (no " +
			"fitment of that year, so those of the closest year at most two years away) or none (nothing that close). Returns {\"data\": {match, fitments}}, the body " +
			"of GET /v1/cars/{uuid}/tire-sizes without its car member.",
		in: inputSchema[TireSizesForVehicleInput](map[string]prop{
			"make":  {examples: []any{"Toyota"}},
			"model": {examples: []any{"Camry"}},
			"year":  yearProp,
		}),
		out:     envelope(dataOf[vehicle.VehicleTires](), "How the fitments matched the year, and each fitment with its geometry.", false),
		charged: true,
		rest:    "GET /v1/cars/{uuid}/tire-sizes (without its car member)",
		output:  "`{\"data\": {\"match\": ..., \"fitments\": [{fitment, oem, rear, alternates, rear_alternates, window_pct}, ...]}}`",
		handler: handle(Deps.vehicleTools, vehicleTools.tiresForVehicle),
	})
}

func (v vehicleTools) tiresForVehicle(_ context.Context, in TireSizesForVehicleInput) (*mcp.CallToolResult, error) {
	t, err := v.svc.TiresForVehicle(in.Make, in.Model, in.Year)
	if err != nil {
		return serviceError(err, "")
	}
	return jsonResult(t)
}

// TireGeometryInput is the arguments of tire_geometry.
type TireGeometryInput struct {
	UUID string `json:"uuid" jsonschema:"The uuid of a tire fitment (type tire_size), from search_vehicles or tire_sizes_for_vehicle."`
}

func tireGeometry() Tool {
	return newTool(toolSpec{
		name:  "tire_geometry",
		title: "Tire fitment geometry",
		desc: "Compute the geometry of one tire fitment's OEM size, its rear size when staggered, and each alternate size " +
			"with its diameter difference in inches and percent and whether it is within the ±3% window: front " +
			"alternates against the OEM size, rear alternates against the rear size. " +
			"Returns {\"data\": {fitment, oem, rear, alternates, rear_alternates, window_pct}}, the body of " +
			"GET /v1/tire-sizes/{uuid}/geometry.",
		in:      inputSchema[TireGeometryInput](map[string]prop{"uuid": {examples: []any{"6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41"}}}),
		out:     envelope(dataOf[vehicle.FitmentGeometry](), "The fitment and the geometry of its sizes.", false),
		charged: true,
		rest:    "GET /v1/tire-sizes/{uuid}/geometry",
		output:  "`{\"data\": {\"fitment\": ..., \"oem\": ..., \"rear\": ..., \"alternates\": [...], \"window_pct\": 3}}`",
		handler: handle(Deps.vehicleTools, vehicleTools.geometry),
	})
}

func (v vehicleTools) geometry(_ context.Context, in TireGeometryInput) (*mcp.CallToolResult, error) {
	id, err := vehicle.ParseUUID(in.UUID)
	if err != nil {
		return serviceError(err, "")
	}
	g, err := v.svc.Geometry(id)
	if err != nil {
		return serviceError(err, "the uuid must be a tire fitment's (type tire_size): find one with search_vehicles type tire_size or tire_sizes_for_vehicle")
	}
	return jsonResult(g)
}

// ListMakesInput is the arguments of list_makes.
type ListMakesInput struct {
	Type  string `json:"type" jsonschema:"Which records' makes to list: car, motorcycle, boat or tire_size."`
	Q     string `json:"q,omitempty" jsonschema:"Only makes whose name contains this text, ignoring case, e.g. harley."`
	Limit *int   `json:"limit,omitempty" jsonschema:"At most this many makes, 1 to 1000 (default 200); meta.total counts all that match."`
}

// Makes list_makes returns by default and at most: the powersports catalog
// has over 2,000, about 100 KB that an agent rarely needs whole.
const (
	defaultMakesLimit = 200
	maxMakesLimit     = 1000
)

// makesMeta is list_makes's meta.
type makesMeta struct {
	Total int `json:"total" jsonschema:"Makes that match, all of them: more than data holds when the list was cut at limit; narrow it with q."`
}

func listMakes() Tool {
	return newTool(toolSpec{
		name:  "list_makes",
		title: "List makes",
		desc: "List the makes of one record type with their record counts, sorted by name, to learn the catalog's exact " +
			"spelling before searching. At most limit makes (default 200) come back; meta.total says how many match, and " +
			"q narrows the list to makes whose name contains it (motorcycles alone have over 2,000 makes). " +
			"Returns {\"data\": [{name, count}], \"meta\": {total}}; data is the body of GET /v1/{type}/makes when all fit.",
		in: inputSchema[ListMakesInput](map[string]prop{
			"type":  kindProp,
			"q":     {examples: []any{"harley"}},
			"limit": bounds(1, maxMakesLimit),
		}),
		out:     envelopeWith(dataOf[[]vehicle.MakeCount](), "The makes that match, at most limit, with their record counts.", dataOf[makesMeta]()),
		charged: true,
		rest:    "GET /v1/cars/makes, /v1/motorcycles/makes, /v1/boats/makes, /v1/tire-sizes/makes",
		output:  "`{\"data\": [{\"name\": ..., \"count\": ...}, ...], \"meta\": {\"total\": ...}}`",
		handler: handle(Deps.vehicleTools, vehicleTools.makes),
	})
}

func (v vehicleTools) makes(_ context.Context, in ListMakesInput) (*mcp.CallToolResult, error) {
	kind, err := parseKind(in.Type)
	if err != nil {
		return serviceError(err, "")
	}
	makes := v.svc.Makes(kind)
	if q := strings.ToLower(strings.TrimSpace(in.Q)); q != "" {
		makes = slices.DeleteFunc(makes, func(m vehicle.MakeCount) bool { return !strings.Contains(strings.ToLower(m.Name), q) })
	}
	total := len(makes)
	b, err := json.Marshal(struct {
		Data []vehicle.MakeCount `json:"data"`
		Meta makesMeta           `json:"meta"`
	}{makes[:min(total, orDefault(in.Limit, defaultMakesLimit))], makesMeta{Total: total}})
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return structured(b), nil
}

// ListModelsInput is the arguments of list_models.
type ListModelsInput struct {
	Type string `json:"type" jsonschema:"Which records' models to list: car, motorcycle, boat or tire_size."`
	Make string `json:"make" jsonschema:"The make, matched case-insensitively, e.g. Toyota. An unknown make gives an empty list."`
}

func listModels() Tool {
	return newTool(toolSpec{
		name:  "list_models",
		title: "List models of a make",
		desc: "List the models of one make and record type with their record counts and year ranges, sorted by name. " +
			"Returns {\"data\": [{name, count, year_min, year_max}]}, the body of GET /v1/{type}/models?make=...",
		in: inputSchema[ListModelsInput](map[string]prop{
			"type": kindProp,
			"make": {examples: []any{"Toyota"}},
		}),
		out:     envelope(dataOf[[]vehicle.ModelRange](), "The models of the make with their record counts and year ranges.", false),
		charged: true,
		rest:    "GET /v1/cars/models, /v1/motorcycles/models, /v1/boats/models, /v1/tire-sizes/models",
		output:  "`{\"data\": [{\"name\": ..., \"count\": ..., \"year_min\": ..., \"year_max\": ...}, ...]}`",
		handler: handle(Deps.vehicleTools, vehicleTools.models),
	})
}

func (v vehicleTools) models(_ context.Context, in ListModelsInput) (*mcp.CallToolResult, error) {
	kind, err := parseKind(in.Type)
	if err != nil {
		return serviceError(err, "")
	}
	models, err := v.svc.Models(kind, in.Make)
	if err != nil {
		return serviceError(err, "")
	}
	return jsonResult(models)
}

package mcptools

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/vehicle"
)

// TirePlusSizesInput is the arguments of tire_plus_sizes.
type TirePlusSizesInput struct {
	UUID   string `json:"uuid" jsonschema:"The uuid of a tire fitment (type tire_size), from search_vehicles, tire_sizes_for_vehicle or tire_size_lookup."`
	Window *int   `json:"window,omitempty" jsonschema:"The diameter window in whole percent of the OEM diameter, 1 to 5 (default 3)."`
}

func tirePlusSizes() Tool {
	return newTool(toolSpec{
		name:  "tire_plus_sizes",
		title: "Plus sizes of a tire fitment",
		desc: "List the plus sizes of a tire fitment's OEM size (and rear size when staggered): every metric size from 20 mm " +
			"narrower to 40 mm wider, aspect ratio 25 to 85, on rims 2 inches below to 3 above the OEM rim, whose overall " +
			"diameter is within ±window percent of the OEM's, grouped by rim offset and sorted by the size of the difference. " +
			"Each has its geometry, the diameter and sidewall change, the speedometer reading at a true 60 mph and 100 km/h, " +
			"min_load_index (the lowest load index carrying the OEM load), reinforced_needed (an XL tire is needed for it) and " +
			"min_speed_rating (the OEM's). Returns {\"data\": {fitment, window_pct, front, rear}}, the body of " +
			"GET /v1/tire-sizes/{uuid}/plus-sizes.",
		in: inputSchema[TirePlusSizesInput](map[string]prop{
			"uuid":   {examples: []any{"6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41"}},
			"window": windowProp(),
		}),
		out:     envelope(dataOf[vehicle.FitmentPlusSizes](), "The fitment and the plus sizes of its OEM (and rear) size, by rim.", false),
		charged: true,
		rest:    "GET /v1/tire-sizes/{uuid}/plus-sizes",
		output:  "`{\"data\": {\"fitment\": ..., \"window_pct\": 3, \"front\": {\"oem\": ..., \"rims\": [...]}, \"rear\": null}}`",
		handler: handle(Deps.vehicleTools, vehicleTools.plusSizes),
	})
}

func windowProp() prop {
	p := bounds(vehicle.MinPlusWindow, vehicle.MaxPlusWindow)
	p.examples = []any{3}
	return p
}

func (v vehicleTools) plusSizes(_ context.Context, in TirePlusSizesInput) (*mcp.CallToolResult, error) {
	id, err := vehicle.ParseUUID(in.UUID)
	if err != nil {
		return serviceError(err, "")
	}
	p, err := v.svc.PlusSizes(id, orDefault(in.Window, vehicle.DefaultPlusWindow))
	if err != nil {
		return serviceError(err, "the uuid must be a tire fitment's (type tire_size): find one with search_vehicles type tire_size, tire_sizes_for_vehicle or tire_size_lookup")
	}
	return jsonResult(p)
}

// TireSizeLookupInput is the arguments of tire_size_lookup.
type TireSizeLookupInput struct {
	Size    string `json:"size" jsonschema:"The tire size in any spelling: 225/45R17, P225/45R17 94W, LT285/70R17 or 35x12.50R17LT; a load index and speed rating after it set the plus sizes' load and speed fields."`
	Window  *int   `json:"window,omitempty" jsonschema:"The plus-size diameter window in whole percent, 1 to 5 (default 3)."`
	Make    string `json:"make,omitempty" jsonschema:"Only fitments of this make, matched case-insensitively; facets.makes lists the makes carrying the size."`
	Year    *int   `json:"year,omitempty" jsonschema:"Only fitments of this model year; facets.years lists the years carrying the size."`
	Page    *int   `json:"page,omitempty" jsonschema:"Page of fitments to return, 1 to 40 (default 1)."`
	PerPage *int   `json:"per_page,omitempty" jsonschema:"Fitments per page, 1 to 10 (default 10)."`
}

func tireSizeLookup() Tool {
	return newTool(toolSpec{
		name:  "tire_size_lookup",
		title: "Look up a tire size",
		desc: "Look up one tire size in any spelling (LT and flotation sizes too): its geometry, its plus sizes, and a page " +
			"of the fitments that carry it as OEM or alternate size, front or rear (roles says which), with counts of all of " +
			"them by make and by year (facets) to narrow with make and year. A size that is not one is an invalid_parameter " +
			"error naming the format. Returns {\"data\": {size, window_pct, plus_sizes, fitments, meta, facets}}, the body of " +
			"GET /v1/tire-sizes/lookup.",
		in: inputSchema[TireSizeLookupInput](map[string]prop{
			"size":     {examples: []any{"225/45R17", "35x12.50R17LT"}},
			"window":   windowProp(),
			"year":     yearProp,
			"page":     bounds(1, vehicle.MaxPage),
			"per_page": bounds(1, vehicle.MaxPerPage),
		}),
		out:     envelope(dataOf[vehicle.SizeLookup](), "The size's geometry and plus sizes, a page of the fitments carrying it, and their counts by make and year.", false),
		charged: true,
		rest:    "GET /v1/tire-sizes/lookup",
		output:  "`{\"data\": {\"size\": ..., \"plus_sizes\": ..., \"fitments\": [{\"roles\": [...], \"fitment\": ...}], \"meta\": ..., \"facets\": {\"makes\": [...], \"years\": [...]}}}`",
		handler: handle(Deps.vehicleTools, vehicleTools.sizeLookup),
	})
}

func (v vehicleTools) sizeLookup(_ context.Context, in TireSizeLookupInput) (*mcp.CallToolResult, error) {
	l, err := v.svc.LookupSize(vehicle.SizeQuery{Size: in.Size, Window: orDefault(in.Window, vehicle.DefaultPlusWindow),
		Make: in.Make, Year: orDefault(in.Year, 0), Page: orDefault(in.Page, 1), PerPage: orDefault(in.PerPage, vehicle.DefaultPerPage)})
	if err != nil {
		return serviceError(err, "")
	}
	return jsonResult(l)
}

func orDefault(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

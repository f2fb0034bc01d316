package mcptools

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
)

// lookupTools are the tools of the lookup service, as /v1/vin/{vin},
// /v1/hin/{hin} and the recalls endpoints: all but decode_hin ask NHTSA.
type lookupTools struct{ svc *lookup.Service }

// DecodeVINInput is the arguments of decode_vin: one VIN, or a batch.
type DecodeVINInput struct {
	VIN  string   `json:"vin,omitempty" jsonschema:"One 17-character vehicle identification number, as printed on the vehicle or its title. Letters I, O and Q never appear in a VIN. Give vin or vins."`
	VINs []string `json:"vins,omitempty" jsonschema:"Up to 50 VINs to decode in one call; the answer has one entry per VIN, in order. Give vin or vins."`
}

func decodeVIN() Tool {
	in := inputSchema[DecodeVINInput](map[string]prop{
		"vin":  {examples: []any{"1FTMW1T88MFA00001"}},
		"vins": {examples: []any{[]any{"1FTMW1T88MFA00001", "5YJ3E1EA7KF000001"}}},
	})
	in.Properties["vins"].MinItems, in.Properties["vins"].MaxItems = jsonschema.Ptr(1), jsonschema.Ptr(lookup.MaxBatch)
	entry := &jsonschema.Schema{AnyOf: []*jsonschema.Schema{dataOf[lookup.VINReport](), dataOf[lookup.VINFailure]()}}
	return newTool(toolSpec{
		name:  "decode_vin",
		title: "Decode VINs",
		desc: "Decode a 17-character VIN (vin), or up to 50 (vins): the check digit, model-year candidates and maker's " +
			"region and country computed locally, then, with NHTSA vPIC's rules (from the server's vPIC snapshot, or live " +
			"vPIC), make, model, year, trim, series, body, engine, plant and manufacturer, and the uuids of catalog cars " +
			"and tire fitments of the same make, model and year (use them with get_vehicle, vehicle_recalls and " +
			"tire_geometry). Returns {\"data\": report}, the body of GET /v1/vin/{vin}, for vin; for vins, {\"data\": " +
			"[...]}, the body of GET /v1/vins: one entry per VIN, the report or {\"vin\", \"error\": {\"code\", " +
			"\"detail\"}}. Charged once per VIN decoded; invalid and undecodable VINs are free.",
		in: in,
		out: envelope(&jsonschema.Schema{AnyOf: []*jsonschema.Schema{dataOf[lookup.VINReport](), {Type: "array", Items: entry}}},
			"For vin, the decoded VIN with its catalog links; for vins, one entry per VIN, in order.", false),
		charged:   true,
		perItem:   true,
		openWorld: true,
		rest:      "GET /v1/vin/{vin}, GET /v1/vins",
		output:    "`{\"data\": {\"vin\", \"make\", \"model\", \"year\", ..., \"check_digit\", \"model_year_candidates\", \"wmi\", \"links\": {\"cars\", \"car_matches\", \"tire_sizes\"}, \"source\", \"stale\"}}`, or `{\"data\": [...]}` for vins",
		handler:   handle(Deps.lookupTools, lookupTools.decode),
	})
}

func (l lookupTools) decode(ctx context.Context, in DecodeVINInput) (*mcp.CallToolResult, error) {
	m := meterFrom(ctx)
	if (in.VIN == "") == (len(in.VINs) == 0) {
		return serviceError(&vehicle.Error{Code: vehicle.CodeInvalidParameter, Param: "vin",
			Message: "give either vin (one VIN) or vins (up to 50), not both and not neither"}, "")
	}
	raws := in.VINs
	if in.VIN != "" {
		raws = []string{in.VIN} // one VIN is a batch of one, charged as one call
	}
	entries, _, err := l.svc.DecodeVINs(ctx, raws, m.meter)
	switch {
	case err != nil:
		return m.failed(err)
	case in.VIN == "":
		return jsonResult(entries)
	case entries[0].Err != nil:
		return serviceError(entries[0].Err, "")
	}
	return jsonResult(entries[0].Report)
}

// VehicleRecallsInput is the arguments of vehicle_recalls.
type VehicleRecallsInput struct {
	Type string `json:"type" jsonschema:"The record's type: car (recalls and crash-test ratings) or motorcycle (recalls)."`
	UUID string `json:"uuid" jsonschema:"The record's uuid, from search_vehicles, get_vehicle or decode_vin."`
}

func vehicleRecalls() Tool {
	return newTool(toolSpec{
		name:  "vehicle_recalls",
		title: "Recalls and crash ratings",
		desc: "List NHTSA's recall campaigns for a catalog car or motorcycle (campaign number, component, summary, " +
			"consequence, remedy, report date, park-it and park-outside advice, over-the-air remedy) and, for a car, its " +
			"NCAP crash-test ratings (overall, front, side, rollover; null when not rated). US coverage only; for a " +
			"motorcycle an empty list means no match under NHTSA's naming, not a guarantee of none. Returns " +
			"{\"data\": ...}, the body of GET /v1/cars/{uuid}/recalls or GET /v1/motorcycles/{uuid}/recalls.",
		in: inputSchema[VehicleRecallsInput](map[string]prop{
			"type": {enum: []string{"car", "motorcycle"}},
			"uuid": {examples: []any{"6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41"}},
		}),
		out: envelope(&jsonschema.Schema{AnyOf: []*jsonschema.Schema{dataOf[lookup.CarRecalls](), dataOf[lookup.MotorcycleRecalls]()}},
			"The recalls (and, for a car, the ratings) of the vehicle.", false),
		charged:   true,
		openWorld: true,
		rest:      "GET /v1/cars/{uuid}/recalls, /v1/motorcycles/{uuid}/recalls",
		output:    "`{\"data\": {\"car\" or \"motorcycle\", \"coverage\", \"recalls\": [...], \"ratings\": [...] (cars), \"stale\"}}`",
		handler:   handle(Deps.lookupTools, lookupTools.recalls),
	})
}

func (l lookupTools) recalls(ctx context.Context, in VehicleRecallsInput) (*mcp.CallToolResult, error) {
	id, err := vehicle.ParseUUID(in.UUID)
	if err != nil {
		return serviceError(err, "")
	}
	const hint = "the uuid must be a car's or a motorcycle's of the catalog, with the matching type; find one with search_vehicles"
	switch in.Type {
	case "car":
		rep, _, err := l.svc.CarRecalls(ctx, id)
		if err != nil {
			return serviceError(err, hint)
		}
		return jsonResult(rep)
	case "motorcycle":
		rep, _, err := l.svc.MotorcycleRecalls(ctx, id)
		if err != nil {
			return serviceError(err, hint)
		}
		return jsonResult(rep)
	}
	return serviceError(&vehicle.Error{Code: vehicle.CodeInvalidParameter, Param: "type",
		Message: "type " + in.Type + " has no recalls: use car or motorcycle"}, "")
}

// VehicleComplaintsInput is the arguments of vehicle_complaints.
type VehicleComplaintsInput struct {
	Type    string `json:"type" jsonschema:"The record's type: car or motorcycle."`
	UUID    string `json:"uuid" jsonschema:"The record's uuid, from search_vehicles, get_vehicle or decode_vin."`
	Page    *int   `json:"page,omitempty" jsonschema:"Page of complaints to return, 1 to 40 (default 1)."`
	PerPage *int   `json:"per_page,omitempty" jsonschema:"Complaints per page, 1 to 10 (default 10)."`
}

func vehicleComplaints() Tool {
	return newTool(toolSpec{
		name:  "vehicle_complaints",
		title: "Owner complaints",
		desc: "List owners' safety complaints to NHTSA about a catalog car's or motorcycle's make, model and year, " +
			"newest received first and paged (ODI number, components, crash, fire, injuries, deaths, incident and " +
			"received dates, summary), with totals of complaints, crashes, fires, injuries and deaths and counts by " +
			"component over all pages. US coverage only. Returns {\"data\": ...}, the body of " +
			"GET /v1/cars/{uuid}/complaints or GET /v1/motorcycles/{uuid}/complaints.",
		in: inputSchema[VehicleComplaintsInput](map[string]prop{
			"type":     {enum: []string{"car", "motorcycle"}},
			"uuid":     {examples: []any{"6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41"}},
			"page":     bounds(1, vehicle.MaxPage),
			"per_page": bounds(1, vehicle.MaxPerPage),
		}),
		out:       envelope(dataOf[lookup.Complaints](), "A page of the vehicle's complaints, with totals and counts by component.", false),
		charged:   true,
		openWorld: true,
		rest:      "GET /v1/cars/{uuid}/complaints, /v1/motorcycles/{uuid}/complaints",
		output:    "`{\"data\": {\"vehicle\", \"complaints\": [...], \"meta\", \"totals\", \"by_component\", \"source\", \"data_date\"}}`",
		handler:   handle(Deps.lookupTools, lookupTools.complaints),
	})
}

func (l lookupTools) complaints(ctx context.Context, in VehicleComplaintsInput) (*mcp.CallToolResult, error) {
	id, err := vehicle.ParseUUID(in.UUID)
	if err != nil {
		return serviceError(err, "")
	}
	pg := lookup.ComplaintPage{Page: orDefault(in.Page, 1), PerPage: orDefault(in.PerPage, vehicle.DefaultPerPage)}
	var rep lookup.Complaints
	switch in.Type {
	case "car":
		rep, _, err = l.svc.CarComplaints(ctx, id, pg)
	case "motorcycle":
		rep, _, err = l.svc.MotorcycleComplaints(ctx, id, pg)
	default:
		return serviceError(&vehicle.Error{Code: vehicle.CodeInvalidParameter, Param: "type",
			Message: "type " + in.Type + " has no complaints: use car or motorcycle"}, "")
	}
	if err != nil {
		return serviceError(err, "the uuid must be a car's or a motorcycle's of the catalog, with the matching type; find one with search_vehicles")
	}
	return jsonResult(rep)
}

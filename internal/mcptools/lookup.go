package mcptools

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
)

// lookupTools are the tools that ask NHTSA, through the same lookup service
// as /v1/vin/{vin} and the recalls endpoints.
type lookupTools struct{ svc *lookup.Service }

// DecodeVINInput is the arguments of decode_vin.
type DecodeVINInput struct {
	VIN string `json:"vin" jsonschema:"The 17-character vehicle identification number, as printed on the vehicle or its title. Letters I, O and Q never appear in a VIN."`
}

func (l lookupTools) decodeVIN() Tool {
	return newTool(toolSpec{
		name:  "decode_vin",
		title: "Decode a VIN",
		desc: "Decode a 17-character VIN: the check digit, model-year candidates and maker's region and country computed " +
			"locally, then make, model, model year, trim, body, engine, plant and manufacturer from NHTSA vPIC, and the " +
			"uuids of catalog cars and tire fitments of the same make, model and year (use them with get_vehicle, " +
			"vehicle_recalls and tire_geometry). Returns {\"data\": report}, the body of GET /v1/vin/{vin}.",
		in:        inputSchema[DecodeVINInput](map[string]prop{"vin": {examples: []any{"1FTMW1T88MFA00001"}}}),
		out:       envelope(dataOf[lookup.VINReport](), "The decoded VIN with its catalog links.", false),
		charged:   true,
		openWorld: true,
		rest:      "GET /v1/vin/{vin}",
		output:    "`{\"data\": {\"vin\", \"make\", \"model\", \"model_year\", ..., \"check_digit\", \"model_year_candidates\", \"wmi\", \"links\": {\"cars\", \"tire_sizes\"}, \"stale\"}}`",
		handler:   typed("decode_vin", l.decode),
	})
}

func (l lookupTools) decode(ctx context.Context, in DecodeVINInput) (*mcp.CallToolResult, error) {
	rep, _, err := l.svc.DecodeVIN(ctx, in.VIN)
	if err != nil {
		return serviceError(err, "")
	}
	return jsonResult(rep)
}

// VehicleRecallsInput is the arguments of vehicle_recalls.
type VehicleRecallsInput struct {
	Type string `json:"type" jsonschema:"The record's type: car (recalls and crash-test ratings) or motorcycle (recalls)."`
	UUID string `json:"uuid" jsonschema:"The record's uuid, from search_vehicles, get_vehicle or decode_vin."`
}

func (l lookupTools) vehicleRecalls() Tool {
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
		handler:   typed("vehicle_recalls", l.recalls),
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

package mcptools

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
)

// DecodeHINInput is the arguments of decode_hin: one HIN, or a batch.
type DecodeHINInput struct {
	HIN  string   `json:"hin,omitempty" jsonschema:"One boat hull identification number: 12 characters as on the transom, optionally after US- or an EU country code (a 14-character CIN); spaces and hyphens are ignored. Give hin or hins."`
	HINs []string `json:"hins,omitempty" jsonschema:"Up to 50 HINs to decode in one call; the answer has one entry per HIN, in order. Give hin or hins."`
}

func decodeHIN() Tool {
	in := inputSchema[DecodeHINInput](map[string]prop{
		"hin":  {examples: []any{"BWC12345L718"}},
		"hins": {examples: []any{[]any{"BWC12345L718", "SER12345A919"}}},
	})
	in.Properties["hins"].MinItems, in.Properties["hins"].MaxItems = jsonschema.Ptr(1), jsonschema.Ptr(lookup.MaxBatch)
	entry := &jsonschema.Schema{AnyOf: []*jsonschema.Schema{dataOf[lookup.HINReport](), dataOf[lookup.HINFailure]()}}
	return newTool(toolSpec{
		name:  "decode_hin",
		title: "Decode boat HINs",
		desc: "Decode a boat's hull identification number (hin), or up to 50 (hins), by 33 CFR 181 (current, 1972-1984 " +
			"straight-year and model-year formats, State- and Coast Guard-issued codes) or as an EU CIN (ISO 10087): the " +
			"manufacturer from the Coast Guard's MIC list with its address, the serial, the production month and year, " +
			"the model year, numbered warnings, and the uuids of catalog boats of that maker and model year (use them " +
			"with get_vehicle, type boat). Returns {\"data\": report}, the body of GET /v1/hin/{hin}, for hin; for hins, " +
			"{\"data\": [...]}, the body of GET /v1/hins: one entry per HIN, the report or {\"hin\", \"error\": {\"code\", " +
			"\"detail\", \"position\", \"rule\"}}. Charged once per HIN decoded; invalid HINs are free.",
		in: in,
		out: envelope(&jsonschema.Schema{AnyOf: []*jsonschema.Schema{dataOf[lookup.HINReport](), {Type: "array", Items: entry}}},
			"For hin, the decoded HIN with its catalog links; for hins, one entry per HIN, in order.", false),
		charged: true,
		perItem: true,
		rest:    "GET /v1/hin/{hin}, GET /v1/hins",
		output:  "`{\"data\": {\"hin\", \"country\", \"format\", \"mic\", \"manufacturer\", \"issuer\", \"serial\", \"production_month\", \"production_year\", \"model_year\", \"warnings\", \"links\": {\"makes\", \"boats\"}, \"source\"}}`, or `{\"data\": [...]}` for hins",
		handler: handle(Deps.lookupTools, lookupTools.decodeHINs),
	})
}

func (l lookupTools) decodeHINs(ctx context.Context, in DecodeHINInput) (*mcp.CallToolResult, error) {
	m := meterFrom(ctx)
	if (in.HIN == "") == (len(in.HINs) == 0) {
		return serviceError(&vehicle.Error{Code: vehicle.CodeInvalidParameter, Param: "hin",
			Message: "give either hin (one HIN) or hins (up to 50), not both and not neither"}, "")
	}
	raws := in.HINs
	if in.HIN != "" {
		raws = []string{in.HIN} // one HIN is a batch of one, charged as one call
	}
	entries, err := l.svc.DecodeHINs(ctx, raws, m.meter)
	switch {
	case err != nil:
		return m.failed(err)
	case in.HIN == "":
		return jsonResult(entries)
	case entries[0].Err != nil:
		return serviceError(entries[0].Err.Err, "")
	}
	return jsonResult(entries[0].Report)
}

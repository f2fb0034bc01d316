package mcptools

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/views"
)

// GarageURI is the garage as a resource: the body of my_garage.
const GarageURI = "vds://garage"

var errGarageUnavailable = errors.New("service_unavailable: the account database is unavailable; retry shortly")

// garageResource reads the user's lists with their recall status, charged
// as my_garage is: one unit, given back when the read fails.
func garageResource(d Deps, g *guard) (mcp.Resource, server.ResourceHandlerFunc) {
	res := mcp.NewResource(GarageURI, "My garage",
		mcp.WithResourceDescription("The user's saved vehicles with their recall status, the body of my_garage and GET /v1/lists; one charged call per read."),
		mcp.WithMIMEType("application/json"))
	return res, func(ctx context.Context, _ mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		log := g.log.With("resource", GarageURI, "request_id", edge.RequestID(ctx))
		m, err := g.itemMeter(ctx, log)
		if err != nil {
			return nil, err
		}
		commit, err := m.meter.Charge(ctx)
		if err != nil {
			return nil, err
		}
		p, _ := principal(ctx)
		saved, _, err := views.ReadLists(ctx, d.Lists, d.Vehicles, p.Account.ID)
		if err != nil {
			commit(false)
			log.Error("read lists", "err", err)
			return nil, errGarageUnavailable
		}
		body, err := json.Marshal(map[string]any{"data": saved})
		commit(err == nil)
		if err != nil {
			return nil, err
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: GarageURI, MIMEType: "application/json", Text: string(body)}}, nil
	}
}

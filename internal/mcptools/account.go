package mcptools

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/views"
)

// accountTools answer about the caller's own account, named by the bearer
// token of the request.
type accountTools struct {
	svc   *vehicle.Service
	lists ListSource
	usage UsageSource
	log   *slog.Logger
}

// NoInput is the arguments of the tools that take none.
type NoInput struct{}

// errNoPrincipal means the handler ran outside Handler, which
// authenticates every request: a wiring bug, never the caller's fault.
var errNoPrincipal = errors.New("mcptools: no authenticated principal in the request context")

func principal(ctx context.Context) (access.Principal, error) {
	p, ok := edge.PrincipalFrom(ctx)
	if !ok {
		return p, errNoPrincipal
	}
	return p, nil
}

func myGarage() Tool {
	return newTool(toolSpec{
		name:  "my_garage",
		title: "My garage",
		desc: "Read the user's saved vehicles: every list of the account (the default one is \"My garage\"), the same " +
			"set curated in the dashboard, each item with its type, uuid, note, when it was added and a make, model and " +
			"year summary (record null and missing true when the record has left the catalog). An item of type vin is a " +
			"saved VIN with its decoded make, model and year and its catalog cars in links. Cars, motorcycles and VINs " +
			"carry recalls: open and new campaign numbers, park_it, park_outside and ota flags, checked_at (garage_recalls " +
			"gives the campaigns). Use get_vehicle with an item's type and uuid for the full record. Returns " +
			"{\"data\": [lists]}, the body of GET /v1/lists.",
		in:      inputSchema[NoInput](nil),
		out:     envelope(dataOf[[]views.List](), "The account's lists with their items.", false),
		charged: true,
		rest:    "GET /v1/lists",
		output:  "`{\"data\": [{\"id\", \"name\", \"is_default\", \"created_at\", \"items\": [{\"type\", \"uuid\", \"note\", \"added_at\", \"missing\", \"vin\", \"record\", \"links\", \"recalls\"}]}]}`",
		handler: handle(Deps.accountTools, accountTools.garage),
	})
}

func (a accountTools) garage(ctx context.Context, _ NoInput) (*mcp.CallToolResult, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	saved, _, err := views.ReadLists(ctx, a.lists, a.svc, p.Account.ID)
	if err != nil {
		// Not the server's bug but an outage: a result the model can relay
		// (and that is not charged) rather than an internal error.
		a.log.Error("my_garage: read lists", "request_id", edge.RequestID(ctx), "err", err)
		return serviceError(views.Unavailable("account"), "")
	}
	return jsonResult(saved)
}

func garageRecalls() Tool {
	return newTool(toolSpec{
		name:  "garage_recalls",
		title: "Recalls of my garage",
		desc: "Read every NHTSA recall campaign affecting a car, motorcycle or VIN of the user's lists, grouped by item: " +
			"the campaign (number, component, summary, consequence, remedy, park_it, park_outside, ota_update), when the " +
			"recall watch first saw it on the item, baseline (already open at the item's first check), new, and the " +
			"user's status (open or dealt_with, with a note). Answered from the watch's records, one charged call. " +
			"Returns {\"data\": [items]}, the body of GET /v1/lists/recalls.",
		in:      inputSchema[NoInput](nil),
		out:     envelope(dataOf[[]views.ItemRecalls](), "The watched items with their recall campaigns.", false),
		charged: true,
		rest:    "GET /v1/lists/recalls",
		output:  "`{\"data\": [{\"list_id\", \"type\", \"uuid\", \"vin\", \"record\", \"checked_at\", \"campaigns\": [{\"campaign_number\", ..., \"first_seen_at\", \"new\", \"status\"}]}]}`",
		handler: handle(Deps.accountTools, accountTools.recalls),
	})
}

func (a accountTools) recalls(ctx context.Context, _ NoInput) (*mcp.CallToolResult, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	saved, sightings, err := views.ReadLists(ctx, a.lists, a.svc, p.Account.ID)
	if err != nil {
		a.log.Error("garage_recalls: read lists", "request_id", edge.RequestID(ctx), "err", err)
		return serviceError(views.Unavailable("account"), "")
	}
	return jsonResult(views.NewItemRecalls(saved, sightings))
}

func accountUsage() Tool {
	return newTool(toolSpec{
		name:  "account_usage",
		title: "Account usage",
		desc: "Show the account, its plan, the per-minute rate limit and the monthly quota (limit, used, remaining, " +
			"reset time; limits null when unlimited) and the token in use. Tool calls and REST calls share the quota. " +
			"This tool is free, like GET /v1/me, and works when the quota is used up. Returns {\"data\": {account, plan, " +
			"rate_limit, quota, token}}, the body of GET /v1/me.",
		in:      inputSchema[NoInput](nil),
		out:     envelope(dataOf[views.Me](), "The account, plan, limit windows and token.", false),
		charged: false,
		rest:    "GET /v1/me",
		output:  "`{\"data\": {\"account\", \"plan\", \"rate_limit\", \"quota\", \"token\"}}`",
		handler: handle(Deps.accountTools, accountTools.me),
	})
}

func (a accountTools) me(ctx context.Context, _ NoInput) (*mcp.CallToolResult, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	st, err := a.usage.State(ctx, p.Account.ID, p.Plan)
	if err != nil {
		return nil, fmt.Errorf("read usage: %w", err)
	}
	return jsonResult(views.NewMe(p, st))
}

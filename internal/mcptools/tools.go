package mcptools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/textcheck"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/views"
)

// Tool is one MCP tool of vds: the definition tools/list shows, the
// handler that answers tools/call, and what the quota and the generated
// docs need to know about it.
type Tool struct {
	// Def is the definition: name, description, schemas and annotations.
	Def mcp.Tool
	// Handler answers tools/call. It is called with validated arguments
	// and a context carrying the request's principal.
	Handler server.ToolHandlerFunc
	// Charged calls count against the monthly quota, as their REST twin does.
	Charged bool
	// PerItem tools are charged once per item they answer (a VIN of a
	// batch) by their handler, through the meter guard gives it.
	PerItem bool
	// REST names the endpoint whose response body the structured content equals.
	REST string
	// Output describes the structured content, for the docs.
	Output string

	in    *jsonschema.Schema
	check *checker
	bind  binder
}

// binder makes the handler of the named tool on the services of d.
type binder func(tool string, d Deps) server.ToolHandlerFunc

// ListSource reads an account's saved lists as stored, and the recall
// sightings on their items; *lists.Service is one.
type ListSource = views.Saved

// UsageSource reports an account's standing in its limit windows without
// counting a request; *limits.Limiter is one.
type UsageSource interface {
	State(ctx context.Context, accountID string, plan account.Plan) (limits.State, error)
}

// Deps are what the tools call. They are the services the REST handlers
// call, so a tool and its REST twin answer from the same code.
type Deps struct {
	Vehicles *vehicle.Service
	// Lookup answers the tools that ask NHTSA (decode_vin, vehicle_recalls).
	Lookup *lookup.Service
	Lists  ListSource
	Usage  UsageSource
	// Charger charges tools/call to the monthly quota; only NewServer uses it.
	Charger Charger
	// Log receives tool failures; nil discards them.
	Log *slog.Logger
	// Calls counts tool calls; nil counts none. Only NewServer uses it.
	Calls CallObserver
	// Garage, when set, lets sessions subscribe to vds://garage. Only NewServer uses it.
	Garage *GarageWatchers
}

func (d Deps) logger() *slog.Logger {
	if d.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return d.Log
}

func (d Deps) vehicleTools() vehicleTools { return vehicleTools{svc: d.Vehicles} }

func (d Deps) accountTools() accountTools {
	return accountTools{svc: d.Vehicles, lists: d.Lists, usage: d.Usage, log: d.logger()}
}

func (d Deps) lookupTools() lookupTools { return lookupTools{svc: d.Lookup} }

// definitions are the tools without handlers. Their schemas and checkers
// derive from types alone, so they are built once per process and shared
// by every server.
var definitions = sync.OnceValue(func() []Tool {
	return []Tool{
		searchVehicles(),
		getVehicle(),
		tireSizesForVehicle(),
		myGarage(),
		garageRecalls(),
		decodeVIN(),
		decodeHIN(),
		vehicleRecalls(),
		vehicleComplaints(),
		tireGeometry(),
		tirePlusSizes(),
		tireSizeLookup(),
		listMakes(),
		listModels(),
		accountUsage(),
	}
})

// Tools returns every tool in the order the docs list them. Handlers only
// touch d when called, so Tools(Deps{}) is enough to read the definitions.
func Tools(d Deps) []Tool {
	tools := slices.Clone(definitions())
	for i := range tools {
		tools[i].Handler = tools[i].bind(tools[i].Def.Name, d)
	}
	return tools
}

// ServerTools converts tools for server.MCPServer.AddTools.
func ServerTools(tools []Tool) []server.ServerTool {
	out := make([]server.ServerTool, len(tools))
	for i, t := range tools {
		out[i] = server.ServerTool{Tool: t.Def, Handler: t.Handler}
	}
	return out
}

// instructions tell a model how the tools fit together; clients show them
// to the model once per connection.
const instructions = `vds answers questions about cars, motorcycles (and ATVs, UTVs, snowmobiles, scooters, personal watercraft, golf carts), power boats and tire fitments from one catalog.
Find exact spellings with list_makes and list_models, then search_vehicles with make and model (and year); every list query must be narrowed by make, model, q, a type filter, year, or a year window of at most 10 years. get_vehicle returns one record by uuid; tire_sizes_for_vehicle and tire_geometry give OEM and alternate tire sizes with their geometry; tire_plus_sizes lists the plus sizes of a fitment, and tire_size_lookup answers any tire size with the fitments that carry it. my_garage reads the user's saved vehicles with their recall status (also the resource vds://garage), garage_recalls their recall campaigns; account_usage shows the plan, the per-minute rate limit and the monthly quota, which tool calls share with the REST API.`

// NewServer returns an MCP server with every tool registered, input and
// output validated, panics recovered and quota charged per tools/call.
func NewServer(d Deps, version string) *server.MCPServer {
	tools := Tools(d)
	byName := make(map[string]*Tool, len(tools))
	for i := range tools {
		byName[tools[i].Def.Name] = &tools[i]
	}
	g := &guard{tools: byName, charger: d.Charger, calls: d.Calls, log: d.logger()}
	hooks := &server.Hooks{}
	hooks.AddAfterCallTool(g.explainInvalidArguments)
	logOperations(hooks, byName)
	if d.Garage != nil {
		d.Garage.hook(hooks)
	}
	s := server.NewMCPServer("vds", version,
		server.WithInstructions(instructions),
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(d.Garage != nil, false),
		// Middleware runs outermost first: mcp-go's recovery is a backstop
		// for the guard, which recovers itself so it can refund the call
		// and keep the panic value out of the answer.
		server.WithRecovery(),
		server.WithToolHandlerMiddleware(g.middleware),
		server.WithInputSchemaValidation(),
		server.WithOutputSchemaValidation(),
		server.WithHooks(hooks),
	)
	s.AddTools(ServerTools(tools)...)
	s.AddResource(garageResource(d, g))
	return s
}

// toolSpec is what a constructor says about its tool; newTool turns it
// into a Tool with schemas, annotations and a checker.
type toolSpec struct {
	name, title, desc string
	in, out           *jsonschema.Schema
	charged, perItem  bool
	// openWorld marks a tool that reaches outside vds (NHTSA); the
	// catalog and account tools do not.
	openWorld    bool
	rest, output string
	handler      binder
}

func newTool(s toolSpec) Tool {
	in, out := rawSchema(s.in), rawSchema(s.out)
	def := mcp.NewTool(s.name,
		mcp.WithDescription(s.desc),
		mcp.WithRawInputSchema(in),
		mcp.WithRawOutputSchema(out),
		// mcp.NewTool defaults to destructive and open-world, so all four
		// hints are stated: every vds tool only reads, and only the ones
		// that ask NHTSA (decode_vin, vehicle_recalls, vehicle_complaints) reach outside.
		mcp.WithToolAnnotation(mcp.ToolAnnotation{
			Title:           s.title,
			ReadOnlyHint:    mcp.ToBoolPtr(true),
			DestructiveHint: mcp.ToBoolPtr(false),
			IdempotentHint:  mcp.ToBoolPtr(true),
			OpenWorldHint:   mcp.ToBoolPtr(s.openWorld),
		}),
	)
	def.Title = s.title
	// mcp.NewTool starts from an empty structured input schema; with a raw
	// one set, the structured one must be unset or the tool cannot be encoded.
	def.InputSchema = mcp.ToolInputSchema{}
	return Tool{
		Def: def, Charged: s.charged, PerItem: s.perItem, REST: s.rest, Output: s.output,
		in: s.in, check: newChecker(s.name, in, out, s.in), bind: s.handler,
	}
}

// handle binds fn, a method of the tools value of(d) that takes decoded
// arguments (see typed).
func handle[R, T any](of func(Deps) R, fn func(R, context.Context, T) (*mcp.CallToolResult, error)) binder {
	return func(tool string, d Deps) server.ToolHandlerFunc {
		r := of(d)
		return typed(tool, func(ctx context.Context, in T) (*mcp.CallToolResult, error) { return fn(r, ctx, in) })
	}
}

// typed adapts a handler that takes decoded arguments. mcp-go has already
// validated them against the input schema, so decoding fails only for
// values the schema allows and Go cannot hold (2020.0 for an int). String
// arguments must be plain text, as REST's query values must.
func typed[T any](tool string, fn func(context.Context, T) (*mcp.CallToolResult, error)) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if msg := notPlainText(req.GetArguments()); msg != "" {
			return mcp.NewToolResultError(msg), nil
		}
		var in T
		if err := req.BindArguments(&in); err != nil {
			return mcp.NewToolResultError(fmt.Sprintf(
				"Invalid arguments for %s: %v. Send the arguments as the input schema describes them (whole numbers without a decimal point).",
				tool, err)), nil
		}
		return fn(ctx, in)
	}
}

// notPlainText returns the error text for the first string argument, by
// name, that is not plain text (textcheck.Line), or "" when all are: a NUL
// byte or a control character must never reach a store or an index.
// Decoding JSON already replaced invalid UTF-8 with U+FFFD.
func notPlainText(args map[string]any) string {
	for _, name := range slices.Sorted(maps.Keys(args)) {
		s, ok := args[name].(string)
		if !ok {
			continue
		}
		if err := textcheck.Line(s); err != nil {
			return fmt.Sprintf("%s: %s has %v: send plain text, without control characters or line breaks.", vehicle.CodeInvalidParameter, name, err)
		}
	}
	return ""
}

// structured wraps the JSON of a REST body as a tool result: as structured
// content, and as text for clients that read only text content (the MCP
// specification asks for both).
func structured(body json.RawMessage) *mcp.CallToolResult {
	return mcp.NewToolResultStructured(body, string(body))
}

// jsonResult encodes v inside {"data": v}, the envelope of REST's bodies.
func jsonResult(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(struct {
		Data any `json:"data"`
	}{v})
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return structured(b), nil
}

// rawResult wraps JSON encoded in advance (a record of the snapshot) in
// the data envelope without decoding it.
func rawResult(raw json.RawMessage) *mcp.CallToolResult {
	b := make([]byte, 0, len(raw)+10)
	b = append(b, `{"data":`...)
	b = append(b, raw...)
	b = append(b, '}')
	return structured(b)
}

// serviceError turns a service error into a tool result. A *vehicle.Error
// is the caller's to fix, so it becomes an isError result whose text is the
// service's message (written to say what to change) after its code; hint,
// when given, is added for not_found, the one error whose fix depends on
// the tool. Anything else is the server's failure and stays an error.
func serviceError(err error, hint string) (*mcp.CallToolResult, error) {
	var ve *vehicle.Error
	if !errors.As(err, &ve) {
		return nil, err
	}
	msg := ve.Code + ": " + ve.Message
	if ve.Code == vehicle.CodeNotFound && hint != "" {
		msg += "; " + hint
	}
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return mcp.NewToolResultError(msg), nil
}

package mcptools

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/requestlog"
)

// logOperations names each MCP request in the request log: its method, or
// a known tool with the status its outcome would have over REST.
func logOperations(hooks *server.Hooks, tools map[string]*Tool) {
	hooks.AddBeforeAny(func(ctx context.Context, _ any, method mcp.MCPMethod, _ any) {
		edge.SetOperation(ctx, string(method), 0)
	})
	// mcp-go calls this before it looks the tool up: a name the client
	// made up is never logged.
	hooks.AddBeforeCallTool(func(ctx context.Context, _ any, req *mcp.CallToolRequest) {
		name := req.Params.Name
		if tools[name] == nil {
			name = requestlog.Unknown
		}
		edge.SetOperation(ctx, name, 0)
	})
	hooks.AddAfterCallTool(func(ctx context.Context, _ any, _ *mcp.CallToolRequest, result any) {
		edge.SetOperation(ctx, "", resultStatus(result))
	})
	hooks.AddOnError(func(ctx context.Context, _ any, _ mcp.MCPMethod, _ any, err error) {
		var unparsable *server.UnparsableMessageError
		switch {
		case errors.Is(err, server.ErrToolNotFound):
			edge.SetOperation(ctx, "", http.StatusNotFound)
		case errors.As(err, &unparsable):
			edge.SetOperation(ctx, "", http.StatusBadRequest)
		default:
			edge.SetOperation(ctx, "", http.StatusInternalServerError)
		}
	})
}

// resultStatus is 200 for a result, and for an error result the status of
// the code it starts with ("not_found: ..."), else 400 (bad arguments).
func resultStatus(result any) int {
	res, ok := result.(*mcp.CallToolResult)
	if !ok || res == nil || !res.IsError {
		return http.StatusOK
	}
	if len(res.Content) > 0 {
		if text, ok := textOf(res.Content[0]); ok {
			if code, _, ok := strings.Cut(text, ":"); ok && edge.KnownCode(code) {
				return edge.Status(code)
			}
		}
	}
	return http.StatusBadRequest
}

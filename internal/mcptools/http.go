package mcptools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/vehicle"
)

// MaxBodyBytes bounds a POST /mcp body. One JSON-RPC message per request
// (the revisions served have no batches) with small arguments fits many
// times over; mcp-go itself reads bodies without a limit.
const MaxBodyBytes = 1 << 20

// Handler serves the streamable HTTP transport of srv at POST /mcp,
// stateless, so any replica answers any request. Before mcp-go reads a
// byte of JSON-RPC, a request passes cross-origin protection (403), the
// method check (405 but for POST), the REST API's door (401, 403, 429 or
// 503; one unit of the rate window per HTTP request) and the body limit
// (413). Errors, mcp-go's included, are problem documents, and every
// admitted response carries the limit headers, computed when the status is
// written. NewServer's middleware charges the quota per tools/call.
//
// mcp-go's DNS-rebinding protection stays on: a reverse proxy on the same
// host must forward Host as localhost, or listen on a non-loopback address.
func Handler(srv *server.MCPServer, auth *access.Authenticator, lim *limits.Limiter, log *slog.Logger) http.Handler {
	h := &handler{
		mcp: server.NewStreamableHTTPServer(srv,
			server.WithStateLess(true),
			// Without this a GET would open an event stream that never
			// closes; Handler answers GET itself, this is belt and braces.
			server.WithDisableStreaming(true),
			server.WithStreamableHTTPLogger(log),
		),
		door: edge.Door{Auth: auth, Limiter: lim,
			NoToken: "Send the header Authorization: Bearer <token> with a vds_ token, the same token as for the REST API."},
	}
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		edge.WriteCode(w, r, edge.CodeCrossOriginRequest, "",
			"Cross-origin requests from a browser are refused: connect an MCP client from a server or a desktop application, not from a web page.")
	}))
	return cop.Handler(h)
}

type handler struct {
	mcp  http.Handler
	door edge.Door
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		edge.WriteCode(w, r, edge.CodeMethodNotAllowed, "",
			"The MCP endpoint takes JSON-RPC messages by POST only; it keeps no sessions and opens no event streams.")
		return
	}
	// One request is one unit of the rate window, whatever it carries; the
	// quota is charged per tools/call, later.
	r, ticket, _, ok := h.door.Admit(w, r, false)
	if !ok {
		return
	}
	defer ticket.Refund() // a no-op for an uncharged ticket, but the contract
	p, _ := edge.PrincipalFrom(r.Context())
	lw := edge.BeforeStatus(w, func(int) {
		// After the tool call was committed or refunded, so the headers count it.
		st, err := h.door.Limiter.State(context.WithoutCancel(r.Context()), p.Account.ID, p.Plan)
		if err == nil {
			edge.SetLimitHeaders(w.Header(), st, time.Now())
		}
	})
	body, err := io.ReadAll(http.MaxBytesReader(lw, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			edge.WriteCode(lw, r, edge.CodeRequestTooLarge, "",
				fmt.Sprintf("The request body is larger than %d bytes; send one JSON-RPC message with smaller arguments.", MaxBodyBytes))
			return
		}
		edge.WriteCode(lw, r, edge.CodeInvalidRequest, "", "The request body could not be read.")
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	tw := &textErrorWriter{ResponseWriter: lw}
	h.mcp.ServeHTTP(tw, r)
	if tw.status != 0 {
		edge.WriteProblem(lw, r, edge.NewProblem(r, transportCode(tw.status), transportDetail(tw.body.String())).WithStatus(tw.status))
	}
}

// textErrorWriter holds back the plain-text errors mcp-go's transport
// writes (an unsupported MCP-Protocol-Version, a wrong Content-Type, a
// Host refused by its DNS-rebinding protection), so that Handler can send
// them as problem documents like every other error of vds. Anything else
// passes through untouched.
type textErrorWriter struct {
	http.ResponseWriter
	status int // the held-back error's status; 0 when passing through
	passed bool
	body   bytes.Buffer
}

// maxTransportDetail bounds the text kept of a transport error.
const maxTransportDetail = 512

func (w *textErrorWriter) WriteHeader(status int) {
	if w.status != 0 || w.passed {
		return
	}
	if status >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = status
		return
	}
	w.passed = true
	w.ResponseWriter.WriteHeader(status)
}

func (w *textErrorWriter) Write(b []byte) (int, error) {
	if w.status == 0 && !w.passed {
		w.WriteHeader(http.StatusOK)
	}
	if w.status != 0 {
		if room := maxTransportDetail - w.body.Len(); room > 0 {
			w.body.Write(b[:min(len(b), room)])
		}
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *textErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// transportCode names a transport error by its status.
func transportCode(status int) string {
	switch status {
	case http.StatusForbidden:
		return edge.CodeForbidden
	case http.StatusNotFound:
		return vehicle.CodeNotFound
	case http.StatusMethodNotAllowed:
		return edge.CodeMethodNotAllowed
	}
	if status >= 500 {
		return edge.CodeInternalError
	}
	return edge.CodeInvalidRequest
}

// transportDetail turns mcp-go's text into a problem detail: its first
// line, valid UTF-8, ending in a full stop.
func transportDetail(text string) string {
	line, _, _ := strings.Cut(strings.ToValidUTF8(text, ""), "\n")
	line = strings.TrimSpace(line)
	if line == "" {
		return "The MCP transport refused the request."
	}
	if !strings.HasSuffix(line, ".") {
		line += "."
	}
	return line
}

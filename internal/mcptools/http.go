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

// MaxBodyBytes bounds a POST /mcp body (one JSON-RPC message, no batches);
// mcp-go itself reads bodies without a limit.
const MaxBodyBytes = 1 << 20

// Handler serves srv's stateless streamable HTTP transport at POST /mcp,
// behind cross-origin protection, edge.Door and MaxBodyBytes, errors as
// problems. mcp-go's DNS-rebinding protection stays on.
func Handler(srv *server.MCPServer, auth *access.Authenticator, lim *limits.Limiter, log *slog.Logger) http.Handler {
	h := &handler{
		mcp: server.NewStreamableHTTPServer(srv,
			server.WithStateLess(true),
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
	// One unit of the rate window per request; the quota is charged per tools/call.
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

// textErrorWriter holds back the plain-text errors of mcp-go's transport
// (protocol version, Content-Type, Host), which Handler sends as problems.
type textErrorWriter struct {
	http.ResponseWriter
	status int // the held-back error's status; 0 when passing through
	passed bool
	body   bytes.Buffer
}

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

func (w *textErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

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

// transportDetail is the first line of mcp-go's text, as a sentence.
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

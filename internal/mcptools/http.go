package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/vehicle"
)

// MaxBodyBytes bounds a POST /mcp body (one JSON-RPC message, no batches);
// mcp-go itself reads bodies without a limit.
const MaxBodyBytes = 1 << 20

// SessionIdleTTL is how long a session is kept after its last request or
// event: a GET stream's heartbeat keeps it, while the sessions of clients
// that initialize for every call go soon.
const SessionIdleTTL = 5 * time.Minute

// Handler serves srv's streamable HTTP transport at /mcp, behind
// cross-origin protection, edge.Door and MaxBodyBytes, errors as problems.
// A POST needs no session: initialize mints an id, but any replica accepts
// any id. GET opens the session's event stream (for resource updates) and
// DELETE ends it. mcp-go's DNS-rebinding protection stays on.
func Handler(srv *server.MCPServer, auth *access.Authenticator, lim *limits.Limiter, log *slog.Logger) http.Handler {
	h := &handler{
		mcp: server.NewStreamableHTTPServer(srv,
			server.WithSessionIdManager(&optionalSessions{}),
			server.WithSessionIdleTTL(SessionIdleTTL),
			server.WithHeartbeatInterval(heartbeat),
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
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet, http.MethodDelete:
		var ticket limits.Ticket
		r, ok := h.door.Admit(w, r, false, &ticket)
		if !ok {
			return
		}
		defer ticket.Refund()
		tw := &textErrorWriter{ResponseWriter: w}
		h.mcp.ServeHTTP(streamIf(r.Method == http.MethodGet, tw), r)
		if tw.status != 0 {
			edge.WriteProblem(w, r, edge.NewProblem(r, transportCode(tw.status), transportDetail(tw.body.String())).WithStatus(tw.status))
		}
		return
	default:
		w.Header().Set("Allow", allowed)
		edge.WriteCode(w, r, edge.CodeMethodNotAllowed, "",
			"The MCP endpoint takes JSON-RPC messages by POST, opens a session's event stream by GET and ends a session by DELETE.")
		return
	}
	// One unit of the rate window per request; the quota is charged per tools/call.
	var ticket limits.Ticket
	r, ok := h.door.Admit(w, r, false, &ticket)
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
	var msg struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(body, &msg) // mcp-go answers a body that is not JSON
	h.mcp.ServeHTTP(streamIf(msg.Method == string(mcp.MethodSubscriptionsListen), tw), r)
	if tw.status != 0 {
		edge.WriteProblem(lw, r, edge.NewProblem(r, transportCode(tw.status), transportDetail(tw.body.String())).WithStatus(tw.status))
	}
}

// optionalSessions mints a session id at initialize and accepts any
// well-formed one, from any replica, or none: a POST needs no session.
type optionalSessions struct {
	server.StatelessGeneratingSessionIdManager
}

func (m *optionalSessions) Validate(id string) (bool, error) {
	if id == "" {
		return false, nil
	}
	return m.StatelessGeneratingSessionIdManager.Validate(id)
}

const allowed = "GET, POST, DELETE"

// heartbeat keeps an idle event stream open through proxies.
const heartbeat = 25 * time.Second

// streamIf gives mcp-go a writer it can stream events on (a GET stream, a
// subscriptions/listen answer), with no write deadline: the stream lasts
// as long as the client listens. Other answers are never streams, as
// their writer is no http.Flusher.
func streamIf(stream bool, w http.ResponseWriter) http.ResponseWriter {
	if !stream {
		return w
	}
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	return flusher{w}
}

type flusher struct{ http.ResponseWriter }

func (f flusher) Flush() { _ = http.NewResponseController(f.ResponseWriter).Flush() }

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

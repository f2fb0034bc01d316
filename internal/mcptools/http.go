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
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/views"
)

// MaxBodyBytes bounds a POST /mcp body. One JSON-RPC message per request
// (the revisions served have no batches) with small arguments fits many
// times over; mcp-go itself reads bodies without a limit.
const MaxBodyBytes = 1 << 20

// Handler serves the streamable HTTP transport of srv at POST /mcp,
// stateless, so any replica answers any request. Before mcp-go reads a
// byte of JSON-RPC, every request passes, in order:
//
//   - cross-origin protection: a browser's cross-origin request is a 403
//     (the MCP specification asks servers to check Origin);
//   - the method: only POST, else 405 with Allow: POST (no sessions to
//     delete, no event stream to open);
//   - authentication with the REST API's bearer token: 401 with
//     WWW-Authenticate, or 403 for a suspended account, a plan without API
//     access or a token without api:read;
//   - the per-minute rate window, counted once per HTTP request whatever
//     its message: a burst over the limit is a 429 with Retry-After;
//   - the body limit, MaxBodyBytes: a 413.
//
// Errors are problem documents, as in the REST API, mcp-go's own transport
// errors included (see textErrorWriter). Every authenticated
// response carries the rate-limit and quota headers, computed when the
// status is written so that they include the call the response answers.
// The monthly quota is charged per tools/call by NewServer's middleware,
// not here.
//
// mcp-go's DNS-rebinding protection stays on: a request that arrives on a
// loopback address with a Host header that is not a loopback name is a
// 403. A reverse proxy on the same host must therefore forward Host as
// localhost (or 127.0.0.1), or listen on a non-loopback address.
func Handler(srv *server.MCPServer, auth *access.Authenticator, lim *limits.Limiter, log *slog.Logger) http.Handler {
	h := &handler{
		mcp: server.NewStreamableHTTPServer(srv,
			server.WithStateLess(true),
			// Without this a GET would open an event stream that never
			// closes; Handler answers GET itself, this is belt and braces.
			server.WithDisableStreaming(true),
			server.WithStreamableHTTPLogger(log),
		),
		auth: auth, lim: lim, log: log, now: time.Now,
	}
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, r, http.StatusForbidden, "cross_origin_request",
			"Cross-origin requests from a browser are refused: connect an MCP client from a server or a desktop application, not from a web page.")
	}))
	return cop.Handler(h)
}

type handler struct {
	mcp  http.Handler
	auth *access.Authenticator
	lim  *limits.Limiter
	log  *slog.Logger
	now  func() time.Time
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeProblem(w, r, http.StatusMethodNotAllowed, "method_not_allowed",
			"The MCP endpoint takes JSON-RPC messages by POST only; it keeps no sessions and opens no event streams.")
		return
	}
	p, ok := h.authenticate(w, r)
	if !ok {
		return
	}
	ctx := httpapi.WithPrincipal(r.Context(), p)
	r = r.WithContext(ctx)
	h.lim.Touch(p.TokenID, h.now())

	// One request is one unit of the rate window, whatever it carries;
	// charge=false because the quota is charged per tools/call, later.
	ticket, _, err := h.lim.Admit(ctx, p.Account.ID, p.Plan, false)
	if err != nil {
		h.refuse(w, r, err)
		return
	}
	defer ticket.Refund() // a no-op for an uncharged ticket, but the contract

	lw := &limitWriter{ResponseWriter: w, before: func() {
		// Read when the status is written, after the tool call has been
		// committed or refunded, so the headers count it.
		st, err := h.lim.State(context.WithoutCancel(ctx), p.Account.ID, p.Plan)
		if err == nil {
			views.SetLimitHeaders(w.Header(), st, h.now())
		}
	}}
	body, err := io.ReadAll(http.MaxBytesReader(lw, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeProblem(lw, r, http.StatusRequestEntityTooLarge, "request_too_large",
				fmt.Sprintf("The request body is larger than %d bytes; send one JSON-RPC message with smaller arguments.", MaxBodyBytes))
			return
		}
		writeProblem(lw, r, http.StatusBadRequest, "invalid_request", "The request body could not be read.")
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	tw := &textErrorWriter{ResponseWriter: lw}
	h.mcp.ServeHTTP(tw, r)
	if tw.status != 0 {
		writeProblem(lw, r, tw.status, transportCode(tw.status), transportDetail(tw.body.String()))
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
	case http.StatusBadRequest:
		return "invalid_request"
	case http.StatusForbidden:
		return "forbidden"
	case http.StatusNotFound:
		return "not_found"
	case http.StatusMethodNotAllowed:
		return "method_not_allowed"
	}
	if status >= 500 {
		return "internal_error"
	}
	return "invalid_request"
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

// authenticate checks the bearer token as the REST API does; on failure
// it writes the 401, 403 or 503.
func (h *handler) authenticate(w http.ResponseWriter, r *http.Request) (access.Principal, bool) {
	secret, ok := access.BearerSecret(r.Header.Get("Authorization"))
	if !ok {
		unauthorized(w, r, "Send the header Authorization: Bearer <token> with a vds_ token, the same token as for the REST API.")
		return access.Principal{}, false
	}
	p, err := h.auth.Authenticate(r.Context(), secret)
	switch {
	case err == nil:
		return p, true
	case errors.Is(err, access.ErrUnauthorized):
		unauthorized(w, r, "The bearer token is unknown or revoked.")
	case errors.Is(err, access.ErrAccountSuspended):
		writeProblem(w, r, http.StatusForbidden, "account_suspended", "The account is suspended; contact the operator.")
	case errors.Is(err, access.ErrNoAPIAccess):
		writeProblem(w, r, http.StatusForbidden, "no_api_access", fmt.Sprintf("The %s plan has no API access; upgrade the plan.", p.Account.Plan))
	case errors.Is(err, access.ErrInsufficientScope):
		writeProblem(w, r, http.StatusForbidden, "insufficient_scope", "The token lacks the api:read ability.")
	default:
		h.logger(r).Error("authenticate", "err", err)
		unavailable(w, r, "account")
	}
	return p, false
}

func unauthorized(w http.ResponseWriter, r *http.Request, detail string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="vds", error="invalid_token"`)
	writeProblem(w, r, http.StatusUnauthorized, "unauthorized", detail)
}

// refuse answers a failed admission: a 429 when the rate window is full,
// else a 503 (the usage store failed).
func (h *handler) refuse(w http.ResponseWriter, r *http.Request, err error) {
	var refusal *limits.Refusal
	if !errors.As(err, &refusal) {
		h.logger(r).Error("admit", "err", err)
		unavailable(w, r, "usage")
		return
	}
	views.SetLimitHeaders(w.Header(), refusal.State, h.now())
	retry := limits.RetryAfterSeconds(refusal.RetryAfter)
	w.Header().Set("Retry-After", strconv.Itoa(retry))
	p := newProblem(r, http.StatusTooManyRequests, refusal.Reason, refusal.Error())
	p.RetryAfter = retry
	if refusal.Reason == limits.CodeQuotaExceeded {
		// Admit(charge=false) never refuses for the quota; kept complete
		// in case a caller changes that.
		p.Limit, p.Reset = "monthly_quota", refusal.State.QuotaReset.Format(time.RFC3339)
	} else {
		p.Limit, p.Reset = "rate_per_minute", refusal.State.RateReset.Format(time.RFC3339)
	}
	encodeProblem(w, p)
}

func (h *handler) logger(r *http.Request) *slog.Logger {
	return h.log.With("request_id", httpapi.RequestID(r.Context()))
}

// limitWriter runs before once, just before the status is written.
type limitWriter struct {
	http.ResponseWriter
	before func()
	wrote  bool
}

func (w *limitWriter) WriteHeader(status int) {
	if w.wrote {
		return
	}
	w.wrote = true
	w.before()
	w.ResponseWriter.WriteHeader(status)
}

func (w *limitWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer. The
// writer deliberately does not implement http.Flusher: mcp-go then never
// upgrades a response to an event stream, which a stateless server has
// no use for.
func (w *limitWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// newProblem builds an RFC 9457 problem in the REST API's shape.
func newProblem(r *http.Request, status int, code, detail string) *httpapi.Problem {
	return &httpapi.Problem{
		Type:      "urn:vds:problem:" + code,
		Title:     http.StatusText(status),
		Status:    status,
		Detail:    detail,
		Instance:  r.URL.Path,
		Code:      code,
		RequestID: httpapi.RequestID(r.Context()),
	}
}

// unavailable answers a request the database failed as the REST API does:
// 503 with views.Unavailable.
func unavailable(w http.ResponseWriter, r *http.Request, what string) {
	e := views.Unavailable(what)
	writeProblem(w, r, http.StatusServiceUnavailable, e.Code, e.Message)
}

func writeProblem(w http.ResponseWriter, r *http.Request, status int, code, detail string) {
	encodeProblem(w, newProblem(r, status, code, detail))
}

func encodeProblem(w http.ResponseWriter, p *httpapi.Problem) {
	b, err := json.Marshal(p)
	if err != nil {
		http.Error(w, `{"title":"Internal Server Error","status":500}`, http.StatusInternalServerError)
		return
	}
	b = append(b, '\n')
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(p.Status)
	_, _ = w.Write(b)
}

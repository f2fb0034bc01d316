package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/views"
)

// Envelope is the body of every successful response: {"data": ...}, with
// "meta" for paged lists.
type Envelope struct {
	Data any           `json:"data"`
	Meta *vehicle.Meta `json:"meta,omitempty"`
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON encodes v into a pooled buffer first, so an encoding failure can
// still become a clean 500 instead of half a body, and Content-Length is set.
func writeJSON(w http.ResponseWriter, status int, contentType string, v any) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, `{"title":"Internal Server Error","status":500}`, http.StatusInternalServerError)
		return
	}
	send(w, status, contentType, buf)
}

// send writes a finished body with its Content-Type and Content-Length.
func send(w http.ResponseWriter, status int, contentType string, buf *bytes.Buffer) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// ok writes a 200 envelope.
func ok(w http.ResponseWriter, data any) {
	writeJSON(w, http.StatusOK, "application/json", Envelope{Data: data})
}

// Problem is an RFC 9457 problem document with vds's extensions.
type Problem struct {
	Type           string   `json:"type"`
	Title          string   `json:"title"`
	Status         int      `json:"status"`
	Detail         string   `json:"detail"`
	Instance       string   `json:"instance"`
	Code           string   `json:"code" jsonschema:"Stable snake_case error code."`
	RequestID      string   `json:"request_id"`
	Param          string   `json:"param,omitempty" jsonschema:"The offending query parameter, for 400s about one."`
	Accepted       []string `json:"accepted,omitempty" jsonschema:"The accepted parameters, for unknown_parameter."`
	AcceptedValues []string `json:"accepted_values,omitempty" jsonschema:"The values the filter named by param accepts, for a value outside them."`
	Suggestion     string   `json:"suggestion,omitempty" jsonschema:"The accepted value closest to the one sent, with accepted_values."`
	Limit          string   `json:"limit,omitempty" jsonschema:"Which limit a 429 hit: rate_per_minute or monthly_quota."`
	Reset          string   `json:"reset,omitempty" jsonschema:"When that limit resets (RFC 3339)."`
	RetryAfter     int      `json:"retry_after,omitempty" jsonschema:"Seconds to wait, as in Retry-After."`
}

func (Problem) SchemaDescription() string {
	return "An RFC 9457 problem document with vds's extensions code and request_id."
}

// problemTypeBase prefixes problem type URIs; a URN needs no host.
const problemTypeBase = "urn:vds:problem:"

// statusOf maps a problem code to its HTTP status; docs/api.md#errors
// lists them with when each is sent.
var statusOf = map[string]int{
	vehicle.CodeInvalidParameter:   http.StatusBadRequest,
	vehicle.CodeUnknownParameter:   http.StatusBadRequest,
	vehicle.CodeMissingParameter:   http.StatusBadRequest,
	vehicle.CodeQueryTooBroad:      http.StatusBadRequest,
	vehicle.CodeInvalidUUID:        http.StatusBadRequest,
	lookup.CodeInvalidVIN:          http.StatusBadRequest,
	"unauthorized":                 http.StatusUnauthorized,
	"no_api_access":                http.StatusForbidden,
	"account_suspended":            http.StatusForbidden,
	"insufficient_scope":           http.StatusForbidden,
	vehicle.CodeNotFound:           http.StatusNotFound,
	"method_not_allowed":           http.StatusMethodNotAllowed,
	lookup.CodeVINNotDecodable:     http.StatusUnprocessableEntity,
	"rate_limited":                 http.StatusTooManyRequests,
	"quota_exceeded":               http.StatusTooManyRequests,
	lookup.CodeUpstreamError:       http.StatusBadGateway,
	lookup.CodeUpstreamUnavailable: http.StatusServiceUnavailable,
	views.CodeServiceUnavailable:   http.StatusServiceUnavailable,
	"internal_error":               http.StatusInternalServerError,
}

// problem builds a problem for code; the request fills instance and id.
func problem(r *http.Request, code, detail string) *Problem {
	status := statusOf[code]
	if status == 0 {
		status = http.StatusInternalServerError
	}
	return &Problem{
		Type:      problemTypeBase + code,
		Title:     http.StatusText(status),
		Status:    status,
		Detail:    detail,
		Instance:  r.URL.Path,
		Code:      code,
		RequestID: RequestID(r.Context()),
	}
}

// writeProblem writes p. It is the one place errors leave the server, so it
// also logs server-side failures.
func writeProblem(w http.ResponseWriter, r *http.Request, p *Problem) {
	if p.Status >= 500 {
		logger(r.Context()).Error("request failed", "code", p.Code, "detail", p.Detail)
	}
	writeJSON(w, p.Status, "application/problem+json", p)
}

// WriteProblem answers r with the problem document of code, about the
// parameter param when it is not "", for the parts of the server outside
// the API (its fallback) that answer as it does.
func WriteProblem(w http.ResponseWriter, r *http.Request, code, param, detail string) {
	p := problem(r, code, detail)
	p.Param = param
	writeProblem(w, r, p)
}

// writeError turns a service error into a problem. Errors that are not the
// caller's fault become a 500 whose detail hides the cause (logged instead).
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ve *vehicle.Error
	if errors.As(err, &ve) {
		p := problem(r, ve.Code, ve.Message)
		p.Param, p.Accepted = ve.Param, ve.Accepted
		p.AcceptedValues, p.Suggestion = ve.AcceptedValues, ve.Suggestion
		writeProblem(w, r, p)
		return
	}
	logger(r.Context()).Error("internal error", "err", err)
	writeProblem(w, r, problem(r, "internal_error", "The server failed to answer; the request id identifies it in the logs."))
}

// unavailable answers a request whose database call failed: the cause is
// logged, the caller gets views.Unavailable (503 service_unavailable).
func unavailable(w http.ResponseWriter, r *http.Request, what string, err error) {
	logger(r.Context()).Error("database call failed", "data", what, "err", err)
	writeError(w, r, views.Unavailable(what))
}

// logger returns the request's logger.
func logger(ctx interface{ Value(any) any }) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

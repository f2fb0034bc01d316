package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/views"
)

// Problem is an RFC 9457 problem document with vds's extensions.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Instance  string `json:"instance"`
	Code      string `json:"code"`
	RequestID string `json:"request_id"`
	// Param names the offending query parameter, for 400s about one.
	Param string `json:"param,omitempty"`
	// Accepted lists the accepted parameters, for unknown_parameter.
	Accepted []string `json:"accepted,omitempty"`
	// AcceptedValues lists the values a filter (param) accepts, and
	// Suggestion the one closest to the value sent, for a value outside them.
	AcceptedValues []string `json:"accepted_values,omitempty"`
	Suggestion     string   `json:"suggestion,omitempty"`
	// Limit, Reset and RetryAfter describe a 429: which limit, when it resets.
	Limit      string `json:"limit,omitempty"`
	Reset      string `json:"reset,omitempty"`
	RetryAfter int    `json:"retry_after,omitempty"`
}

// Codes the edge sends itself; the services define theirs (vehicle.Code*,
// lookup.Code*, limits.Code*, views.Code*).
const (
	CodeUnauthorized            = "unauthorized"
	CodeNoAPIAccess             = "no_api_access"
	CodeAccountSuspended        = "account_suspended"
	CodeInsufficientScope       = "insufficient_scope"
	CodeMethodNotAllowed        = "method_not_allowed"
	CodeInternalError           = "internal_error"
	CodeInvalidRequest          = "invalid_request"
	CodeForbidden               = "forbidden"
	CodeCrossOriginRequest      = "cross_origin_request"
	CodeRequestTooLarge         = "request_too_large"
	CodeHeadersTooLarge         = "headers_too_large"
	CodeNotImplemented          = "not_implemented"
	CodeHTTPVersionNotSupported = "http_version_not_supported"
)

// code is an entry of the code table. api marks the codes an operation of
// the REST API answers with, which its OpenAPI document lists; the others
// come from reading the request (net/http) or from the MCP transport.
type code struct {
	status int
	api    bool
}

// codes maps every problem code to its status; docs/api.md#errors says
// when each is sent.
var codes = map[string]code{
	vehicle.CodeInvalidParameter:   {http.StatusBadRequest, true},
	vehicle.CodeUnknownParameter:   {http.StatusBadRequest, true},
	vehicle.CodeMissingParameter:   {http.StatusBadRequest, true},
	vehicle.CodeQueryTooBroad:      {http.StatusBadRequest, true},
	vehicle.CodeInvalidUUID:        {http.StatusBadRequest, true},
	lookup.CodeInvalidVIN:          {http.StatusBadRequest, true},
	CodeInvalidRequest:             {http.StatusBadRequest, false},
	CodeUnauthorized:               {http.StatusUnauthorized, true},
	CodeNoAPIAccess:                {http.StatusForbidden, true},
	CodeAccountSuspended:           {http.StatusForbidden, true},
	CodeInsufficientScope:          {http.StatusForbidden, true},
	CodeForbidden:                  {http.StatusForbidden, false},
	CodeCrossOriginRequest:         {http.StatusForbidden, false},
	vehicle.CodeNotFound:           {http.StatusNotFound, true},
	CodeMethodNotAllowed:           {http.StatusMethodNotAllowed, true},
	CodeRequestTooLarge:            {http.StatusRequestEntityTooLarge, false},
	lookup.CodeVINNotDecodable:     {http.StatusUnprocessableEntity, true},
	limits.CodeRateLimited:         {http.StatusTooManyRequests, true},
	limits.CodeQuotaExceeded:       {http.StatusTooManyRequests, true},
	CodeHeadersTooLarge:            {http.StatusRequestHeaderFieldsTooLarge, false},
	CodeInternalError:              {http.StatusInternalServerError, true},
	CodeNotImplemented:             {http.StatusNotImplemented, false},
	lookup.CodeUpstreamError:       {http.StatusBadGateway, true},
	lookup.CodeUpstreamUnavailable: {http.StatusServiceUnavailable, true},
	views.CodeServiceUnavailable:   {http.StatusServiceUnavailable, true},
	CodeHTTPVersionNotSupported:    {http.StatusHTTPVersionNotSupported, false},
}

// Status returns the status of code, 500 for a code outside the table.
func Status(code string) int {
	if c, ok := codes[code]; ok {
		return c.status
	}
	return http.StatusInternalServerError
}

// APICodes lists the codes a REST operation can answer with, by status.
func APICodes() map[string]int {
	out := map[string]int{}
	for name, c := range codes {
		if c.api {
			out[name] = c.status
		}
	}
	return out
}

// problemTypeBase prefixes problem type URIs; a URN needs no host.
const problemTypeBase = "urn:vds:problem:"

const internalDetail = "The server failed to answer; the request id identifies it in the logs."

// NewProblem builds the problem of code, with the status of the table;
// r fills instance and request id, and may be nil before a request exists.
func NewProblem(r *http.Request, code, detail string) *Problem {
	p := (&Problem{Type: problemTypeBase + code, Detail: detail, Code: code}).WithStatus(Status(code))
	if r != nil {
		p.Instance, p.RequestID = r.URL.Path, RequestID(r.Context())
	}
	return p
}

// WithStatus sets p's status and title, for an error relayed from net/http
// or mcp-go, whose status comes before its code.
func (p *Problem) WithStatus(status int) *Problem {
	p.Status, p.Title = status, http.StatusText(status)
	return p
}

// WriteProblem writes p. Errors leave the server here, so it also logs the
// server-side ones.
func WriteProblem(w http.ResponseWriter, r *http.Request, p *Problem) {
	if p.Status >= 500 {
		Logger(r.Context()).Error("request failed", "code", p.Code, "detail", p.Detail)
	}
	WriteJSON(w, p.Status, "application/problem+json", p)
}

// WriteCode answers r with the problem of code, about the parameter param
// when it is not "".
func WriteCode(w http.ResponseWriter, r *http.Request, code, param, detail string) {
	p := NewProblem(r, code, detail)
	p.Param = param
	WriteProblem(w, r, p)
}

// WriteError turns a service error into a problem. Errors that are not the
// caller's fault become a 500 whose detail hides the cause (logged instead).
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var ve *vehicle.Error
	if errors.As(err, &ve) {
		p := NewProblem(r, ve.Code, ve.Message)
		p.Param, p.Accepted = ve.Param, ve.Accepted
		p.AcceptedValues, p.Suggestion = ve.AcceptedValues, ve.Suggestion
		WriteProblem(w, r, p)
		return
	}
	Logger(r.Context()).Error("internal error", "err", err)
	WriteProblem(w, r, NewProblem(r, CodeInternalError, internalDetail))
}

// Unavailable answers a request whose database call failed: the cause is
// logged, the caller gets views.Unavailable (503 service_unavailable).
func Unavailable(w http.ResponseWriter, r *http.Request, what string, err error) {
	Logger(r.Context()).Error("database call failed", "data", what, "err", err)
	WriteError(w, r, views.Unavailable(what))
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// WriteJSON encodes v into a pooled buffer first, so an encoding failure
// can still become a clean 500 instead of half a body.
func WriteJSON(w http.ResponseWriter, status int, contentType string, v any) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if err := encode(buf, v); err != nil {
		http.Error(w, `{"title":"Internal Server Error","status":500}`, http.StatusInternalServerError)
		return
	}
	Send(w, status, contentType, buf.Bytes())
}

// Marshal encodes p as WriteProblem sends it, for a response written by hand.
func Marshal(p *Problem) []byte {
	var buf bytes.Buffer
	_ = encode(&buf, p) // a Problem always encodes
	return buf.Bytes()
}

// encode writes v and a newline, leaving <, > and & as they are.
func encode(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Send writes a finished body with its Content-Type and Content-Length.
func Send(w http.ResponseWriter, status int, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

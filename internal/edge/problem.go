package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/views"
	"github.com/vds-dev/vds/internal/vin"
)

// Problem is an RFC 9457 problem document with vds's extensions.
type Problem struct {
	Type      string `json:"type" jsonschema:"A URI naming the problem type: urn:vds:problem: followed by code."`
	Title     string `json:"title" jsonschema:"A short summary of the problem type."`
	Status    int    `json:"status" jsonschema:"The HTTP status."`
	Detail    string `json:"detail" jsonschema:"What went wrong with this request, and what to do."`
	Instance  string `json:"instance" jsonschema:"The request path the problem is about."`
	Code      string `json:"code" jsonschema:"Stable snake_case error code."`
	RequestID string `json:"request_id" jsonschema:"The request's id, also in X-Request-Id; quote it when reporting a problem."`
	// The extensions below appear where they apply (docs/api.md#errors).
	Param          string   `json:"param,omitempty" jsonschema:"The offending query parameter, for 400s about one."`
	Accepted       []string `json:"accepted,omitempty" jsonschema:"The accepted parameters, for unknown_parameter."`
	AcceptedValues []string `json:"accepted_values,omitempty" jsonschema:"The values the filter named by param accepts, for a value outside them."`
	Suggestion     string   `json:"suggestion,omitempty" jsonschema:"The accepted value closest to the one sent, with accepted_values."`
	Limit          string   `json:"limit,omitempty" jsonschema:"Which limit a 429 hit: rate_per_minute or monthly_quota."`
	Reset          string   `json:"reset,omitempty" jsonschema:"When that limit resets (RFC 3339)."`
	RetryAfter     int      `json:"retry_after,omitempty" jsonschema:"Seconds to wait, as in Retry-After."`
	// A well-formed VIN nobody could decode still gets its local checks.
	CheckDigit          *vin.CheckDigit `json:"check_digit,omitempty" jsonschema:"The VIN's check digit verdict, when no decoder could answer."`
	WMI                 *lookup.WMI     `json:"wmi,omitempty" jsonschema:"The VIN's manufacturer code, region and country, when no decoder could answer."`
	ModelYearCandidates []int           `json:"model_year_candidates,omitempty" jsonschema:"The model years position 10 can mean, when no decoder could answer."`
	// An invalid HIN names where and why.
	Position int    `json:"position,omitempty" jsonschema:"For invalid_hin: the 1-based position of the offending character in the HIN without spaces and hyphens; absent for a wrong length."`
	Rule     string `json:"rule,omitempty" jsonschema:"For invalid_hin: the rule of 33 CFR 181.25 (or ISO 10087) the HIN breaks."`
}

// SchemaDescription describes Problem in the OpenAPI document.
func (Problem) SchemaDescription() string {
	return "An RFC 9457 problem document with vds's extensions code and request_id."
}

// The limits a 429 names in limit.
const (
	LimitRate  = "rate_per_minute"
	LimitQuota = "monthly_quota"
)

// SchemaEnums: code is one of the API's codes, limit one of the limits.
func (Problem) SchemaEnums() map[string][]string {
	return map[string][]string{"code": slices.Sorted(maps.Keys(APICodes())), "limit": {LimitRate, LimitQuota}}
}

// Codes the edge sends itself; services define theirs as Code* constants.
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
	CodeExpectationFailed       = "expectation_failed"
	CodeHeadersTooLarge         = "headers_too_large"
	CodeNotImplemented          = "not_implemented"
	CodeHTTPVersionNotSupported = "http_version_not_supported"
)

// row is a row of the code table; api marks the codes REST operations
// answer with.
type row struct {
	status int
	api    bool
}

// codes maps every problem code to its status (docs/api.md#errors).
var codes = map[string]row{
	vehicle.CodeInvalidParameter:   {http.StatusBadRequest, true},
	vehicle.CodeUnknownParameter:   {http.StatusBadRequest, true},
	vehicle.CodeMissingParameter:   {http.StatusBadRequest, true},
	vehicle.CodeQueryTooBroad:      {http.StatusBadRequest, true},
	vehicle.CodeInvalidUUID:        {http.StatusBadRequest, true},
	lookup.CodeInvalidVIN:          {http.StatusBadRequest, true},
	lookup.CodeInvalidHIN:          {http.StatusBadRequest, true},
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
	CodeExpectationFailed:          {http.StatusExpectationFailed, false},
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

// KnownCode reports whether code is in the table of codes.
func KnownCode(code string) bool {
	_, ok := codes[code]
	return ok
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

const problemTypeBase = "urn:vds:problem:"

const internalDetail = "The server failed to answer; the request id identifies it in the logs."

// NewProblem builds the problem of code; r (nil before a request exists)
// fills instance and request id.
func NewProblem(r *http.Request, code, detail string) *Problem {
	p := (&Problem{Type: problemTypeBase + code, Detail: detail, Code: code}).WithStatus(Status(code))
	if r != nil {
		p.Instance, p.RequestID = r.URL.Path, RequestID(r.Context())
	}
	return p
}

// WithStatus overrides the status, for an error relayed from net/http or mcp-go.
func (p *Problem) WithStatus(status int) *Problem {
	p.Status, p.Title = status, http.StatusText(status)
	return p
}

// WriteProblem writes p, logging server-side failures.
func WriteProblem(w http.ResponseWriter, r *http.Request, p *Problem) {
	if st := requestFrom(r.Context()); st != nil {
		st.code, st.detail = p.Code, p.Detail
	}
	if p.Status >= 500 {
		Logger(r.Context()).Error("request failed", "code", p.Code, "detail", p.Detail)
	}
	WriteJSON(w, p.Status, "application/problem+json", p)
}

// WriteCode answers r with the problem of code, about param unless "".
func WriteCode(w http.ResponseWriter, r *http.Request, code, param, detail string) {
	p := NewProblem(r, code, detail)
	p.Param = param
	WriteProblem(w, r, p)
}

// WriteError turns a service error into a problem; any other error is a
// logged 500 whose detail hides the cause.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var ve *vehicle.Error
	if errors.As(err, &ve) {
		p := NewProblem(r, ve.Code, ve.Message)
		p.Param, p.Accepted = ve.Param, ve.Accepted
		p.AcceptedValues, p.Suggestion = ve.AcceptedValues, ve.Suggestion
		var vinErr *lookup.VINError
		if errors.As(err, &vinErr) {
			c := vinErr.Checks
			p.CheckDigit, p.WMI, p.ModelYearCandidates = &c.CheckDigit, &c.WMI, c.ModelYearCandidates
		}
		if hinErr, ok := errors.AsType[*lookup.HINError](err); ok {
			p.Position, p.Rule = hinErr.Position, hinErr.Rule
		}
		WriteProblem(w, r, p)
		return
	}
	Logger(r.Context()).Error("internal error", "err", err)
	WriteProblem(w, r, NewProblem(r, CodeInternalError, internalDetail))
}

// Unavailable logs a failed database call and answers 503 views.Unavailable.
func Unavailable(w http.ResponseWriter, r *http.Request, what string, err error) {
	Logger(r.Context()).Error("database call failed", "data", what, "err", err)
	WriteError(w, r, views.Unavailable(what))
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// WriteJSON encodes v before writing, so a failure is a clean 500, not half a body.
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

// Marshal encodes p as WriteProblem sends it.
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

// Shared Content-Type values (see AddVary).
var (
	jsonType    = []string{"application/json"}
	problemType = []string{"application/problem+json"}
)

// Send writes a finished body with Content-Type and Content-Length.
func Send(w http.ResponseWriter, status int, contentType string, body []byte) {
	send(w, status, contentType, body, []string{strconv.Itoa(len(body))})
}

func send(w http.ResponseWriter, status int, contentType string, body []byte, length []string) {
	h := w.Header()
	switch contentType {
	case jsonType[0]:
		h["Content-Type"] = jsonType
	case problemType[0]:
		h["Content-Type"] = problemType
	default:
		h.Set("Content-Type", contentType)
	}
	h["Content-Length"] = length
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

package httpapi

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/textfmt"
	"github.com/vds-dev/vds/internal/vehicle"
)

// RequestLine is one request of the caller's request log.
type RequestLine struct {
	At      time.Time `json:"at" jsonschema:"When the answer was sent (UTC)."`
	Channel string    `json:"channel" jsonschema:"rest or mcp."`
	// Operation is the route pattern or the MCP tool.
	Operation  string  `json:"operation" jsonschema:"The route of a REST request (GET /v1/cars/{uuid}); the tool of an MCP tools/call (unknown for a tool that does not exist), or its JSON-RPC method (initialize, tools/list). At most 128 characters of printable ASCII other than quotes, backslash, <, > and &."`
	Status     int     `json:"status" jsonschema:"The HTTP status; for a tool call, the status of its REST twin's answer (a tool error not_found is 404)."`
	DurationMS float64 `json:"duration_ms" jsonschema:"Time spent answering, in milliseconds." unit:"ms"`
	RequestID  string  `json:"request_id" jsonschema:"The X-Request-Id of the answer, which its problem document carries too."`
	// TokenPrefix names the token used.
	TokenPrefix string `json:"token_prefix" jsonschema:"The public prefix of the token used (empty once the token is deleted)."`
	Query       string `json:"query" jsonschema:"The query string as sent (empty for none), the values of parameters named like a secret (token, key, password...) or holding a vds token replaced by REDACTED. Cut to 128 characters (ending ...); bytes other than printable ASCII, quotes, backslash, < and > show as ?."`
	Code        string `json:"code" jsonschema:"The code of the problem a failed request answered (invalid_parameter), or empty."`
	Detail      string `json:"detail" jsonschema:"The detail of that problem, or empty: cut to 128 characters (ending ...), double quotes shown as backticks and other bytes outside printable ASCII (or quotes, backslash, <, >, &) as ?."`
}

func (RequestLine) SchemaDescription() string {
	return "One request of the account's request log."
}

func (RequestLine) SchemaEnums() map[string][]string {
	return map[string][]string{"channel": {requestlog.REST, requestlog.MCP}}
}

// Request log paging: the whole log (requestlog.Keep lines) fits in 10 pages.
const (
	requestsPerPage    = 50
	maxRequestsPerPage = 100
	maxRequestsPage    = requestlog.Keep
)

var requestParams = []string{"page", "per_page", "request_id", "status"}

// statusFilter is the form of the status parameter, the document's pattern
// too: a status (404) or a class (4xx, 4XX).
const statusFilter = "^([1-5][0-9][0-9]|[1-5][xX][xX])$"

var statusFilterRE = regexp.MustCompile(statusFilter)

func (h *Handler) requests(w http.ResponseWriter, r *http.Request) {
	// Reading the log is not logged: a follower would read its own polls.
	edge.Unlisted(r)
	p, _ := edge.PrincipalFrom(r.Context())
	q := query(r)
	f, page, perPage, err := requestFilter(q)
	if err != nil {
		edge.WriteError(w, r, err)
		return
	}
	entries, total, err := h.requestLog.Requests(r.Context(), p.Account.ID, f)
	if err != nil {
		edge.Unavailable(w, r, "account", err)
		return
	}
	lines := make([]RequestLine, len(entries))
	for i, e := range entries {
		lines[i] = NewRequestLine(e)
	}
	pages := (total + perPage - 1) / perPage
	meta := vehicle.Meta{Page: page, PerPage: perPage, Total: total, TotalPages: pages, MaxPage: pages}
	if link := linkHeader(r, h.publicURL, q, meta); link != "" {
		w.Header().Set("Link", link)
	}
	edge.WriteJSON(w, http.StatusOK, "application/json", Envelope{Data: lines, Meta: &meta})
}

// NewRequestLine is the API's form of a stored log line.
func NewRequestLine(e requestlog.Entry) RequestLine {
	return RequestLine{At: e.At.UTC(), Channel: e.Channel, Operation: e.Operation, Status: e.Status,
		DurationMS: float64(e.Duration.Microseconds()) / 1000, RequestID: e.RequestID, TokenPrefix: e.TokenPrefix,
		Query: e.Query, Code: e.Code, Detail: e.Detail}
}

func requestFilter(q url.Values) (requestlog.Filter, int, int, error) {
	var f requestlog.Filter
	if err := checkParams(q, requestParams, "the request log"); err != nil {
		return f, 0, 0, err
	}
	page, err := intParam(q, "page", 1, maxRequestsPage, 1)
	if err != nil {
		return f, 0, 0, err
	}
	perPage, err := intParam(q, "per_page", 1, maxRequestsPerPage, requestsPerPage)
	if err != nil {
		return f, 0, 0, err
	}
	f.Offset, f.Limit = (page-1)*perPage, perPage
	var ok bool
	status := q.Get("status")
	if f.StatusMin, f.StatusMax, ok = requestlog.StatusRange(status); !ok || (status != "" && !statusFilterRE.MatchString(status)) {
		return f, 0, 0, invalidParam("status", "status %s is not a status: give one such as 404, or a class such as 4xx", vehicle.Echo(q.Get("status")))
	}
	f.RequestID = strings.TrimSpace(q.Get("request_id"))
	return f, page, perPage, nil
}

// checkParams refuses a parameter not in accepted, naming the closest,
// and one given twice.
func checkParams(q url.Values, accepted []string, what string) error {
	for name, vals := range q {
		if !slices.Contains(accepted, name) {
			msg := fmt.Sprintf("unknown parameter %s for %s", vehicle.Echo(name), what)
			if s := textfmt.Closest(name, accepted); s != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", s)
			}
			return &vehicle.Error{Code: vehicle.CodeUnknownParameter, Param: vehicle.Clip(name),
				Message: msg + ": accepted parameters are " + strings.Join(accepted, ", "), Accepted: accepted}
		}
		if len(vals) > 1 {
			return invalidParam(name, "%s is given %d times: give each parameter at most once", name, len(vals))
		}
	}
	return nil
}

func intParam(q url.Values, name string, lo, hi, def int) (int, error) {
	s := strings.TrimSpace(q.Get(name))
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, invalidParam(name, "%s must be a whole number from %d to %d, not %s", name, lo, hi, vehicle.Echo(s))
	}
	return n, nil
}

func invalidParam(name, format string, args ...any) error {
	return &vehicle.Error{Code: vehicle.CodeInvalidParameter, Param: name, Message: fmt.Sprintf(format, args...)}
}

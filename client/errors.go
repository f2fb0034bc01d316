package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Problem codes the server sends in the "code" member of its problem
// documents (and so in APIError.Code). They are stable: switch on them
// rather than on Detail, which is prose.
const (
	CodeInvalidParameter    = "invalid_parameter"
	CodeUnknownParameter    = "unknown_parameter"
	CodeMissingParameter    = "missing_parameter"
	CodeQueryTooBroad       = "query_too_broad"
	CodeInvalidUUID         = "invalid_uuid"
	CodeInvalidVIN          = "invalid_vin"
	CodeUnauthorized        = "unauthorized"
	CodeNoAPIAccess         = "no_api_access"
	CodeAccountSuspended    = "account_suspended"
	CodeInsufficientScope   = "insufficient_scope"
	CodeNotFound            = "not_found"
	CodeMethodNotAllowed    = "method_not_allowed"
	CodeVINNotDecodable     = "vin_not_decodable"
	CodeRateLimited         = "rate_limited"
	CodeQuotaExceeded       = "quota_exceeded"
	CodeUpstreamError       = "upstream_error"
	CodeUpstreamUnavailable = "upstream_unavailable"
	CodeInternalError       = "internal_error"
)

// ErrInvalidUUID is returned, without a request being made, when a record
// uuid is not in the 36-character form the server accepts. Checking
// locally matters beyond saving a round trip: a value such as "makes"
// would otherwise address a different endpoint (/cars/makes) and fail
// with a confusing decoding error.
var ErrInvalidUUID = errors.New("vds: not a UUID in its 36-character form")

// APIError is a non-2xx answer from the server. Retrieve it with
// errors.As; the Is* helpers cover the common checks.
//
// When the body is a problem document (RFC 9457) its members fill the
// fields; otherwise (a proxy's HTML error page, say) Title is the status
// text and Detail a short excerpt of the body.
type APIError struct {
	// Status is the HTTP status code of the response.
	Status int
	// Code is the stable problem code, one of the Code* constants; empty
	// when the body was not a vds problem document.
	Code string
	// Title is the short, status-level summary.
	Title string
	// Detail says what went wrong and what to change, for people.
	Detail string
	// Type is the problem type URI, e.g. "urn:vds:problem:not_found".
	Type string
	// Instance is the request path the problem is about.
	Instance string
	// RequestID identifies the request in the server's logs.
	RequestID string
	// Param names the offending query parameter, when there is one.
	Param string
	// Accepted lists the accepted parameters, for unknown_parameter.
	Accepted []string
	// AcceptedValues lists the values the filter named by Param accepts,
	// and Suggestion the one closest to the value sent, when that value
	// was outside them (invalid_parameter).
	AcceptedValues []string
	Suggestion     string
	// Limit names the exhausted limit of a 429: "rate_per_minute" or
	// "monthly_quota".
	Limit string
	// Reset is when that limit resets; zero when not given.
	Reset time.Time
	// RetryAfter is how long the server asked the caller to wait (429, or
	// a 503 that sends Retry-After); zero when it did not say.
	RetryAfter time.Duration
	// Rate is the rate-limit and quota state sent with the error.
	Rate RateInfo
}

// Error renders the status, code and detail, plus the request id so that
// a pasted error message is enough to find the request in the server logs.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "vds: %d", e.Status)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	} else if e.Title != "" {
		b.WriteString(" " + e.Title)
	}
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	}
	if e.RequestID != "" {
		b.WriteString(" (request " + e.RequestID + ")")
	}
	return b.String()
}

// maxDetailExcerpt bounds how much of a non-problem body lands in Detail.
const maxDetailExcerpt = 256

// newAPIError builds the error for a non-2xx response.
func newAPIError(status int, h http.Header, body []byte, now time.Time) *APIError {
	e := &APIError{Status: status, RequestID: h.Get("X-Request-Id"), Rate: ParseRateInfo(h)}
	var p Problem
	if isJSON(h.Get("Content-Type")) && json.Unmarshal(body, &p) == nil && (p.Code != "" || p.Title != "" || p.Status != 0) {
		e.Code, e.Title, e.Detail = p.Code, p.Title, p.Detail
		e.Type, e.Instance, e.Param, e.Accepted, e.Limit = p.Type, p.Instance, p.Param, p.Accepted, p.Limit
		e.AcceptedValues, e.Suggestion = p.AcceptedValues, p.Suggestion
		if p.RequestID != "" {
			e.RequestID = p.RequestID
		}
		if t, err := time.Parse(time.RFC3339, p.Reset); err == nil {
			e.Reset = t
		}
		if p.RetryAfter > 0 {
			e.RetryAfter = time.Duration(p.RetryAfter) * time.Second
		}
	} else {
		e.Detail = excerpt(body)
	}
	if e.Title == "" {
		e.Title = http.StatusText(status)
	}
	// The header is authoritative for Retry-After; the body member only
	// repeats it, and proxies may add a header without a body.
	if d, ok := parseRetryAfter(h, now); ok {
		e.RetryAfter = d
	}
	return e
}

// isJSON accepts application/json and any +json type such as
// application/problem+json.
func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// excerpt returns a short single-line excerpt of a text body, or "" for a
// binary or empty one.
func excerpt(body []byte) string {
	if !utf8.Valid(body) {
		return ""
	}
	s := strings.Join(strings.Fields(string(body)), " ")
	if len(s) > maxDetailExcerpt {
		cut := maxDetailExcerpt
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// asAPIError returns the *APIError in err's chain.
func asAPIError(err error) (*APIError, bool) {
	var e *APIError
	ok := errors.As(err, &e)
	return e, ok
}

// ErrorCode returns the problem code of the *APIError in err's chain, or
// "" when there is none.
func ErrorCode(err error) string {
	if e, ok := asAPIError(err); ok {
		return e.Code
	}
	return ""
}

// IsNotFound reports whether err is a 404: an unknown record or endpoint.
func IsNotFound(err error) bool {
	e, ok := asAPIError(err)
	return ok && e.Status == http.StatusNotFound
}

// IsUnauthorized reports whether err is a 401: the token is missing,
// malformed, unknown or revoked.
func IsUnauthorized(err error) bool {
	e, ok := asAPIError(err)
	return ok && e.Status == http.StatusUnauthorized
}

// IsForbidden reports whether err is a 403: the token is valid but the plan
// has no API access, the account is suspended, or the scope is missing.
func IsForbidden(err error) bool {
	e, ok := asAPIError(err)
	return ok && e.Status == http.StatusForbidden
}

// IsRateLimited reports whether err is a 429, whether for the per-minute
// rate limit or the monthly quota; APIError.Code and RetryAfter tell which
// and for how long.
func IsRateLimited(err error) bool {
	e, ok := asAPIError(err)
	return ok && e.Status == http.StatusTooManyRequests
}

// IsQuotaExceeded reports whether err is the 429 of an exhausted monthly
// quota, which waiting a few seconds will not cure.
func IsQuotaExceeded(err error) bool {
	e, ok := asAPIError(err)
	return ok && e.Status == http.StatusTooManyRequests && e.Code == CodeQuotaExceeded
}

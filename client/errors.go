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

// Problem codes of APIError.Code; stable, unlike Detail, which is prose.
const (
	CodeInvalidParameter    = "invalid_parameter"
	CodeUnknownParameter    = "unknown_parameter"
	CodeMissingParameter    = "missing_parameter"
	CodeQueryTooBroad       = "query_too_broad"
	CodeInvalidUUID         = "invalid_uuid"
	CodeInvalidVIN          = "invalid_vin"
	CodeInvalidHIN          = "invalid_hin"
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

// ErrInvalidUUID refuses a malformed uuid without a request.
var ErrInvalidUUID = errors.New("vds: not a UUID in its 36-character form")

// APIError is a non-2xx answer, filled from its problem document.
type APIError struct {
	Status int
	// Code is one of the Code* constants; "" for a body that is not a vds problem.
	Code      string
	Title     string
	Detail    string
	Type      string
	Instance  string
	RequestID string
	// Param names the offending query parameter; Accepted lists the accepted ones.
	Param    string
	Accepted []string
	// AcceptedValues and Suggestion come with invalid_parameter.
	AcceptedValues []string
	Suggestion     string
	// Limit is "rate_per_minute" or "monthly_quota" on a 429; Reset is when it resets.
	Limit      string
	Reset      time.Time
	RetryAfter time.Duration
	// Position and Rule come with invalid_hin: where the HIN breaks which rule.
	Position int
	Rule     string
	Rate     RateInfo
	// URL is the request's URL without its query.
	URL string
}

// Error includes the request id, so a pasted message finds the server's log line.
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

const maxDetailExcerpt = 256

func newAPIError(status int, h http.Header, body []byte, now time.Time) *APIError {
	e := &APIError{Status: status, RequestID: h.Get("X-Request-Id"), Rate: ParseRateInfo(h)}
	var p Problem
	if isJSON(h.Get("Content-Type")) && json.Unmarshal(body, &p) == nil && (p.Code != "" || p.Title != "" || p.Status != 0) {
		e.Code, e.Title, e.Detail = p.Code, p.Title, p.Detail
		e.Type, e.Instance, e.Param, e.Accepted, e.Limit = p.Type, p.Instance, p.Param, p.Accepted, p.Limit
		e.AcceptedValues, e.Suggestion = p.AcceptedValues, p.Suggestion
		e.Position, e.Rule = p.Position, p.Rule
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
	// The header is authoritative; proxies may add one without a body.
	if d, ok := parseRetryAfter(h, now); ok {
		e.RetryAfter = d
	}
	return e
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// excerpt returns a one-line excerpt of a text body, "" for binary.
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

func asAPIError(err error) (*APIError, bool) {
	var e *APIError
	ok := errors.As(err, &e)
	return e, ok
}

// ErrorCode returns the problem code of the *APIError in err's chain, or "".
func ErrorCode(err error) string {
	if e, ok := asAPIError(err); ok {
		return e.Code
	}
	return ""
}

// IsNotFound reports a 404: an unknown record or endpoint.
func IsNotFound(err error) bool { return hasStatus(err, http.StatusNotFound) }

// IsUnauthorized reports a 401: a missing, unknown or revoked token.
func IsUnauthorized(err error) bool { return hasStatus(err, http.StatusUnauthorized) }

// IsForbidden reports a 403: no API access, a suspended account or a missing scope.
func IsForbidden(err error) bool { return hasStatus(err, http.StatusForbidden) }

// IsRateLimited reports a 429, of the minute window or the monthly quota.
func IsRateLimited(err error) bool { return hasStatus(err, http.StatusTooManyRequests) }

// IsQuotaExceeded reports the 429 of an exhausted monthly quota.
func IsQuotaExceeded(err error) bool {
	return IsRateLimited(err) && ErrorCode(err) == CodeQuotaExceeded
}

func hasStatus(err error, status int) bool {
	e, ok := asAPIError(err)
	return ok && e.Status == status
}

package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestAPIErrorFromProblem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		header map[string]string
		ctype  string
		body   string
		want   APIError
		is     map[string]bool
	}{
		{
			name:   "unknown parameter",
			status: 400,
			ctype:  "application/problem+json",
			body:   `{"type":"urn:vds:problem:unknown_parameter","title":"Bad Request","status":400,"detail":"unknown parameter \"mkae\" for cars (did you mean make?): accepted parameters are body, drive_type, ev_only, fuel_type, make, model, page, per_page, q, year, year_max, year_min","instance":"/v1/cars","code":"unknown_parameter","request_id":"req-body","param":"mkae","accepted":["body","drive_type","ev_only","fuel_type","make","model","page","per_page","q","year","year_max","year_min"]}`,
			want: APIError{Status: 400, Code: CodeUnknownParameter, Title: "Bad Request", Type: "urn:vds:problem:unknown_parameter",
				Detail:   `unknown parameter "mkae" for cars (did you mean make?): accepted parameters are body, drive_type, ev_only, fuel_type, make, model, page, per_page, q, year, year_max, year_min`,
				Instance: "/v1/cars", RequestID: "req-body", Param: "mkae",
				Accepted: []string{"body", "drive_type", "ev_only", "fuel_type", "make", "model", "page", "per_page", "q", "year", "year_max", "year_min"}},
			is: map[string]bool{},
		},
		{
			name:   "unknown filter value",
			status: 400,
			ctype:  "application/problem+json",
			body:   `{"type":"urn:vds:problem:invalid_parameter","title":"Bad Request","status":400,"detail":"drive_type \"4x4\" is not a value of drive_type for cars (did you mean 4WD?): accepted values are FWD, RWD, AWD, 4WD, in any case","instance":"/v1/cars","code":"invalid_parameter","request_id":"req-value","param":"drive_type","accepted_values":["FWD","RWD","AWD","4WD"],"suggestion":"4WD"}`,
			want: APIError{Status: 400, Code: CodeInvalidParameter, Title: "Bad Request", Type: "urn:vds:problem:invalid_parameter",
				Detail:   `drive_type "4x4" is not a value of drive_type for cars (did you mean 4WD?): accepted values are FWD, RWD, AWD, 4WD, in any case`,
				Instance: "/v1/cars", RequestID: "req-value", Param: "drive_type",
				AcceptedValues: []string{"FWD", "RWD", "AWD", "4WD"}, Suggestion: "4WD"},
			is: map[string]bool{},
		},
		{
			name:   "not found",
			status: 404,
			ctype:  "application/problem+json",
			body:   `{"type":"urn:vds:problem:not_found","title":"Not Found","status":404,"detail":"no cars with uuid ` + carUUID + ` in the catalog","instance":"/v1/cars/` + carUUID + `","code":"not_found","request_id":"` + testRequestID + `"}`,
			want: APIError{Status: 404, Code: CodeNotFound, Title: "Not Found", Type: "urn:vds:problem:not_found",
				Detail: "no cars with uuid " + carUUID + " in the catalog", Instance: "/v1/cars/" + carUUID, RequestID: testRequestID},
			is: map[string]bool{"NotFound": true},
		},
		{
			name:   "unauthorized",
			status: 401,
			header: map[string]string{"WWW-Authenticate": `Bearer realm="vds", error="invalid_token"`},
			ctype:  "application/problem+json",
			body:   `{"type":"urn:vds:problem:unauthorized","title":"Unauthorized","status":401,"detail":"The bearer token is unknown or revoked.","instance":"/v1/me","code":"unauthorized","request_id":"r1"}`,
			want: APIError{Status: 401, Code: CodeUnauthorized, Title: "Unauthorized", Type: "urn:vds:problem:unauthorized",
				Detail: "The bearer token is unknown or revoked.", Instance: "/v1/me", RequestID: "r1"},
			is: map[string]bool{"Unauthorized": true},
		},
		{
			name:   "no api access",
			status: 403,
			ctype:  "application/problem+json",
			body:   `{"type":"urn:vds:problem:no_api_access","title":"Forbidden","status":403,"detail":"The free plan has no API access; upgrade the plan.","instance":"/v1/cars","code":"no_api_access","request_id":"r2"}`,
			want: APIError{Status: 403, Code: CodeNoAPIAccess, Title: "Forbidden", Type: "urn:vds:problem:no_api_access",
				Detail: "The free plan has no API access; upgrade the plan.", Instance: "/v1/cars", RequestID: "r2"},
			is: map[string]bool{"Forbidden": true},
		},
		{
			name:   "quota exceeded",
			status: 429,
			header: map[string]string{"Retry-After": "864000", "X-Quota-Limit": "100", "X-Quota-Used": "100", "X-Quota-Remaining": "0", "X-Quota-Reset": "1796083200"},
			ctype:  "application/problem+json",
			body:   `{"type":"urn:vds:problem:quota_exceeded","title":"Too Many Requests","status":429,"detail":"monthly quota of 100 calls is used up; it resets at 2026-12-01T00:00:00Z","instance":"/v1/cars","code":"quota_exceeded","request_id":"r3","limit":"monthly_quota","reset":"2026-12-01T00:00:00Z","retry_after":864000}`,
			want: APIError{Status: 429, Code: CodeQuotaExceeded, Title: "Too Many Requests", Type: "urn:vds:problem:quota_exceeded",
				Detail: "monthly quota of 100 calls is used up; it resets at 2026-12-01T00:00:00Z", Instance: "/v1/cars", RequestID: "r3",
				Limit: "monthly_quota", Reset: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), RetryAfter: 864000 * time.Second,
				Rate: RateInfo{QuotaLimit: 100, QuotaUsed: 100, QuotaRemaining: 0, QuotaReset: time.Unix(1796083200, 0).UTC(), HasQuota: true}},
			is: map[string]bool{"RateLimited": true, "QuotaExceeded": true},
		},
		{
			name:   "proxy HTML page",
			status: 502,
			ctype:  "text/html",
			body:   "<html><body>\n<h1>502 Bad Gateway</h1>\n</body></html>",
			want:   APIError{Status: 502, Title: "Bad Gateway", Detail: "<html><body> <h1>502 Bad Gateway</h1> </body></html>", RequestID: testRequestID},
			is:     map[string]bool{},
		},
		{
			name:   "JSON that is not a problem",
			status: 500,
			ctype:  "application/json",
			body:   `{"error":"boom"}`,
			want:   APIError{Status: 500, Title: "Internal Server Error", Detail: `{"error":"boom"}`, RequestID: testRequestID},
			is:     map[string]bool{},
		},
		{
			name:   "empty body",
			status: 503,
			body:   "",
			want:   APIError{Status: 503, Title: "Service Unavailable", RequestID: testRequestID},
			is:     map[string]bool{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Request-Id", testRequestID)
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				if tt.ctype != "" {
					w.Header().Set("Content-Type", tt.ctype)
				}
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			})
			_, err := f.client(WithRetries(0)).ListCars(context.Background(), CarQuery{Make: "x"})
			var got *APIError
			if !errors.As(err, &got) {
				t.Fatalf("err = %T %v, want *APIError", err, err)
			}
			tt.want.URL = f.srv.URL + "/v1/cars"
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("APIError =\n%+v\nwant\n%+v", *got, tt.want)
			}
			helpers := map[string]func(error) bool{
				"NotFound": IsNotFound, "Unauthorized": IsUnauthorized, "Forbidden": IsForbidden,
				"RateLimited": IsRateLimited, "QuotaExceeded": IsQuotaExceeded,
			}
			for name, fn := range helpers {
				if fn(err) != tt.is[name] {
					t.Errorf("Is%s = %v, want %v", name, fn(err), tt.is[name])
				}
			}
			if ErrorCode(err) != tt.want.Code {
				t.Errorf("ErrorCode = %q", ErrorCode(err))
			}
		})
	}
}

func TestAPIErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  APIError
		want string
	}{
		{APIError{Status: 404, Code: "not_found", Title: "Not Found", Detail: "no cars with uuid x", RequestID: "abc"},
			"vds: 404 not_found: no cars with uuid x (request abc)"},
		{APIError{Status: 502, Title: "Bad Gateway"}, "vds: 502 Bad Gateway"},
		{APIError{Status: 400, Code: "query_too_broad"}, "vds: 400 query_too_broad"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

// TestHelpersThroughWrapping checks the helpers see an *APIError wrapped by
// callers, and reject other errors.
func TestHelpersThroughWrapping(t *testing.T) {
	t.Parallel()
	wrapped := fmt.Errorf("vds whoami: %w", &APIError{Status: 401, Code: CodeUnauthorized})
	if !IsUnauthorized(wrapped) || ErrorCode(wrapped) != CodeUnauthorized {
		t.Error("wrapped 401 not recognised")
	}
	plain := errors.New("dial tcp: connection refused")
	for name, fn := range map[string]func(error) bool{"NotFound": IsNotFound, "Unauthorized": IsUnauthorized,
		"Forbidden": IsForbidden, "RateLimited": IsRateLimited, "QuotaExceeded": IsQuotaExceeded} {
		if fn(plain) || fn(nil) {
			t.Errorf("Is%s matched a non-API error", name)
		}
	}
	if ErrorCode(plain) != "" {
		t.Error("ErrorCode of a plain error")
	}
	if IsQuotaExceeded(&APIError{Status: 429, Code: CodeRateLimited}) {
		t.Error("rate_limited counted as quota_exceeded")
	}
}

func TestExcerptBounds(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 300)
	got := excerpt([]byte(long))
	if len(got) > maxDetailExcerpt+3 || !strings.HasSuffix(got, "...") || !strings.HasPrefix(got, "é") {
		t.Errorf("excerpt of %d bytes = %d bytes %q", len(long), len(got), got[:10])
	}
	if excerpt([]byte{0xff, 0xfe, 0x00}) != "" {
		t.Error("binary body excerpted")
	}
}

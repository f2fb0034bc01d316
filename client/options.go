package client

import (
	"net/http"
	"time"
)

// Defaults of a Client made without options.
const (
	// DefaultRetries is how many times a failed call is retried.
	DefaultRetries = 2
	// DefaultTimeout bounds each attempt when the Client owns its
	// http.Client. Bound a whole call, retries included, with the context.
	DefaultTimeout = 30 * time.Second
	// DefaultRetryWaitMin and DefaultRetryWaitMax bound the exponential
	// backoff between retries of 5xx answers and network errors.
	DefaultRetryWaitMin = 250 * time.Millisecond
	DefaultRetryWaitMax = 5 * time.Second
	// DefaultMaxRetryAfter is the longest Retry-After the client waits out
	// by itself. The server's per-minute window asks for up to 60 s and an
	// exhausted monthly quota for days; neither should stall a caller
	// silently, so longer waits come back as an *APIError with RetryAfter.
	DefaultMaxRetryAfter = 10 * time.Second
	// DefaultUserAgent is sent unless WithUserAgent replaces it.
	DefaultUserAgent = "vds-go-client/1"
)

// maxResponseBytes bounds a response body held in memory. The largest
// legitimate answer (the OpenAPI document) is far smaller; the bound only
// protects callers from a misbehaving server or a wrong base URL.
const maxResponseBytes = 32 << 20

// Option configures a Client in New.
type Option func(*settings)

type settings struct {
	httpClient    *http.Client
	userAgent     string
	retries       int
	timeout       time.Duration
	timeoutSet    bool
	waitMin       time.Duration
	waitMax       time.Duration
	maxRetryAfter time.Duration
}

func defaultSettings() settings {
	return settings{
		userAgent:     DefaultUserAgent,
		retries:       DefaultRetries,
		timeout:       DefaultTimeout,
		waitMin:       DefaultRetryWaitMin,
		waitMax:       DefaultRetryWaitMax,
		maxRetryAfter: DefaultMaxRetryAfter,
	}
}

// WithHTTPClient makes the Client send requests through a copy of hc, so
// its Transport (proxies, TLS, test round-trippers) and Timeout apply.
// The copy keeps the caller's http.Client unmodified by WithTimeout.
func WithHTTPClient(hc *http.Client) Option {
	return func(s *settings) { s.httpClient = hc }
}

// WithUserAgent replaces the User-Agent header, e.g. "vds-cli/1.4.0".
func WithUserAgent(ua string) Option {
	return func(s *settings) { s.userAgent = ua }
}

// WithRetries sets how many times a call is retried after a 429, a 500,
// 502, 503 or 504, or a network error (0 disables retries; negative values
// count as 0). Other 4xx answers are never retried: repeating them cannot
// succeed. Every API call is a GET, so retrying is always safe.
func WithRetries(n int) Option {
	return func(s *settings) { s.retries = max(n, 0) }
}

// WithTimeout bounds each attempt (connect, headers and body) to d; 0
// means no per-attempt bound. It overrides the Timeout of a client given
// to WithHTTPClient. Use the context to bound a whole call.
func WithTimeout(d time.Duration) Option {
	return func(s *settings) { s.timeout, s.timeoutSet = max(d, 0), true }
}

// WithRetryWait sets the bounds of the exponential backoff (with jitter)
// between retries that the server gave no Retry-After for. The first retry
// waits about minWait, each further one about twice as long, never more
// than maxWait.
func WithRetryWait(minWait, maxWait time.Duration) Option {
	return func(s *settings) {
		s.waitMin = max(minWait, 0)
		s.waitMax = max(maxWait, s.waitMin)
	}
}

// WithMaxRetryAfter sets the longest Retry-After (of a 429 or 503) that the
// client waits out before retrying. An answer asking for a longer wait is
// returned at once as an *APIError carrying RetryAfter, so the caller can
// decide; 0 means never wait on Retry-After.
func WithMaxRetryAfter(d time.Duration) Option {
	return func(s *settings) { s.maxRetryAfter = max(d, 0) }
}

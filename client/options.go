package client

import (
	"crypto/x509"
	"net/http"
	"time"
)

const (
	// DefaultRetries is how many times a failed call is retried.
	DefaultRetries = 2
	// DefaultTimeout bounds each attempt; the context bounds a whole call.
	DefaultTimeout = 30 * time.Second
	// DefaultRetryWaitMin and DefaultRetryWaitMax bound the backoff between retries.
	DefaultRetryWaitMin = 250 * time.Millisecond
	DefaultRetryWaitMax = 5 * time.Second
	// DefaultMaxRetryAfter is the longest Retry-After waited out.
	DefaultMaxRetryAfter = 10 * time.Second
	// DefaultUserAgent is sent unless WithUserAgent replaces it.
	DefaultUserAgent = "vds-go-client/1"
)

// maxResponseBytes guards against a misbehaving server or a wrong base URL.
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
	rootCAs       *x509.CertPool
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

// WithHTTPClient sends requests through a copy of hc (its Transport and Timeout).
func WithHTTPClient(hc *http.Client) Option {
	return func(s *settings) { s.httpClient = hc }
}

// WithRootCAs verifies the server's certificate against roots instead of
// the system's (a server with a private CA). It applies to the default
// transport, or a copy of WithHTTPClient's when that is an *http.Transport;
// another RoundTripper keeps its own TLS settings.
func WithRootCAs(roots *x509.CertPool) Option {
	return func(s *settings) { s.rootCAs = roots }
}

// WithUserAgent replaces the User-Agent header.
func WithUserAgent(ua string) Option {
	return func(s *settings) { s.userAgent = ua }
}

// WithRetries sets how many times a call is retried after a 429, 5xx or
// network error (0 disables retries).
func WithRetries(n int) Option {
	return func(s *settings) { s.retries = max(n, 0) }
}

// WithTimeout bounds each attempt to d (0: no bound), overriding WithHTTPClient's.
func WithTimeout(d time.Duration) Option {
	return func(s *settings) { s.timeout, s.timeoutSet = max(d, 0), true }
}

// WithRetryWait sets the bounds of the jittered exponential backoff.
func WithRetryWait(minWait, maxWait time.Duration) Option {
	return func(s *settings) {
		s.waitMin = max(minWait, 0)
		s.waitMax = max(maxWait, s.waitMin)
	}
}

// WithMaxRetryAfter sets the longest Retry-After waited out; a longer one
// returns an *APIError at once.
func WithMaxRetryAfter(d time.Duration) Option {
	return func(s *settings) { s.maxRetryAfter = max(d, 0) }
}

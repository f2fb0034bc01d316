package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"
)

// Client calls the vds REST API. It is safe for concurrent use: its
// configuration is fixed by New, and every call returns its own response
// details instead of storing them on the Client.
type Client struct {
	rc            *resty.Client
	baseURL       string
	waitMin       time.Duration
	waitMax       time.Duration
	maxRetryAfter time.Duration
}

// New returns a Client for the server at baseURL, e.g.
// "http://localhost:8080", authenticating with token (a "vds_..." API
// token). baseURL is the server root: the "/v1" version segment is added
// by the Client, and a trailing "/v1" or "/" on baseURL is tolerated so
// that an API base URL ending in /v1 works as well.
//
// An empty token sends no Authorization header; the server then answers
// 401, which is the error callers see.
func New(baseURL, token string, opts ...Option) *Client {
	s := defaultSettings()
	for _, o := range opts {
		o(&s)
	}
	hc := &http.Client{Timeout: s.timeout}
	if s.httpClient != nil {
		// Copy so that resty (which installs a Transport when there is
		// none) and WithTimeout never modify the caller's client.
		cp := *s.httpClient
		hc = &cp
		if s.timeoutSet {
			hc.Timeout = s.timeout
		}
	}
	c := &Client{
		baseURL:       normalizeBaseURL(baseURL),
		waitMin:       s.waitMin,
		waitMax:       s.waitMax,
		maxRetryAfter: s.maxRetryAfter,
	}
	c.rc = resty.NewWithClient(hc).
		SetBaseURL(c.baseURL).
		SetAuthToken(token).
		SetHeader("User-Agent", s.userAgent).
		SetHeader("Accept", "application/json, application/problem+json").
		// resty logs retries and warnings to stderr by default, which would
		// end up in the output of CLIs built on this package.
		SetLogger(discardLogger{}).
		SetDisableWarn(true).
		SetResponseBodyLimit(maxResponseBytes).
		SetRetryCount(s.retries).
		SetRetryWaitTime(s.waitMin).
		// resty clamps every wait, including Retry-After, to this maximum;
		// retryDelay enforces the tighter backoff bound itself.
		SetRetryMaxWaitTime(max(s.waitMax, s.maxRetryAfter)).
		AddRetryCondition(c.shouldRetry).
		SetRetryAfter(c.retryDelay)
	return c
}

// BaseURL returns the server root the Client talks to, without "/v1".
func (c *Client) BaseURL() string { return c.baseURL }

func normalizeBaseURL(u string) string {
	u = strings.TrimRight(strings.TrimSpace(u), "/")
	u = strings.TrimSuffix(u, "/v1")
	return strings.TrimRight(u, "/")
}

// apiPrefix is the version segment of every API path.
const apiPrefix = "/v1"

// ResponseInfo describes the HTTP response a call ended with: for a call
// that was retried, the last attempt's.
type ResponseInfo struct {
	// StatusCode is the HTTP status; 0 when no response arrived.
	StatusCode int
	// RequestID is the server's X-Request-Id, to quote in bug reports.
	RequestID string
	// Rate is the rate-limit and quota state sent with the response.
	Rate RateInfo
	// Attempts counts the requests made, 1 when there was no retry.
	Attempts int
	// Header holds all response headers (Link, Warning, ...).
	Header http.Header
}

// CallOption adjusts one call. Every API method accepts them.
type CallOption func(*callSettings)

type callSettings struct {
	info      *ResponseInfo
	requestID string
}

// CaptureInfo stores the call's ResponseInfo in *dst when the call
// returns, whether it succeeded or not. It is how to read the request id
// and rate-limit state of calls whose result is not a Page (pages embed
// ResponseInfo already). Each call writes only its own dst, so concurrent
// calls never see each other's details.
func CaptureInfo(dst *ResponseInfo) CallOption {
	return func(cs *callSettings) { cs.info = dst }
}

// SendRequestID sends id as the X-Request-Id header so that the server
// logs the call under the caller's id (it accepts up to 64 characters of
// letters, digits, '-', '_' and '.'; other ids are replaced by its own).
func SendRequestID(id string) CallOption {
	return func(cs *callSettings) { cs.requestID = id }
}

// call performs one GET of path (below /v1 unless it starts elsewhere),
// retrying as configured, and returns the raw response of the last attempt
// or the error it amounts to: *APIError for a non-2xx answer, a wrapped
// transport or context error otherwise.
func (c *Client) call(ctx context.Context, path string, query url.Values, opts []CallOption) ([]byte, ResponseInfo, error) {
	var cs callSettings
	for _, o := range opts {
		o(&cs)
	}
	req := c.rc.R().SetContext(ctx)
	if len(query) > 0 {
		req.SetQueryParamsFromValues(query)
	}
	if cs.requestID != "" {
		req.SetHeader("X-Request-Id", cs.requestID)
	}
	resp, err := req.Get(path)
	info := ResponseInfo{Attempts: req.Attempt, Header: http.Header{}}
	if resp != nil && resp.RawResponse != nil {
		info.StatusCode = resp.StatusCode()
		info.Header = resp.Header()
		info.RequestID = info.Header.Get("X-Request-Id")
		info.Rate = ParseRateInfo(info.Header)
	}
	if cs.info != nil {
		*cs.info = info
	}
	if err != nil {
		return nil, info, fmt.Errorf("vds: GET %s: %w", path, err)
	}
	if !resp.IsSuccess() {
		return nil, info, newAPIError(resp.StatusCode(), resp.Header(), resp.Body(), time.Now())
	}
	return resp.Body(), info, nil
}

// envelope is the body of every successful API response.
type envelope[T any] struct {
	Data T     `json:"data"`
	Meta *Meta `json:"meta"`
}

// getData performs a GET and decodes the envelope's data into a T.
func getData[T any](ctx context.Context, c *Client, path string, query url.Values, opts []CallOption) (T, *Meta, ResponseInfo, error) {
	var env envelope[T]
	body, info, err := c.call(ctx, path, query, opts)
	if err != nil {
		return env.Data, nil, info, err
	}
	if err := decode(body, info.Header, &env); err != nil {
		return env.Data, nil, info, fmt.Errorf("vds: GET %s: %w", path, err)
	}
	return env.Data, env.Meta, info, nil
}

// getPtr is getData for calls that return a single object by pointer.
func getPtr[T any](ctx context.Context, c *Client, path string, query url.Values, opts []CallOption) (*T, error) {
	v, _, _, err := getData[T](ctx, c, path, query, opts)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// getSlice is getData for calls that return a list; an absent or null
// list comes back empty rather than nil so callers can range and encode it
// as [] without checks.
func getSlice[T any](ctx context.Context, c *Client, path string, query url.Values, opts []CallOption) ([]T, error) {
	v, _, _, err := getData[[]T](ctx, c, path, query, opts)
	if err != nil {
		return nil, err
	}
	if v == nil {
		v = []T{}
	}
	return v, nil
}

// decode unmarshals a 2xx body. A non-JSON body almost always means the
// base URL points at something other than a vds server, so say so.
func decode(body []byte, h http.Header, v any) error {
	if ct := h.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return fmt.Errorf("expected a JSON response, got %q (is the base URL a vds server?)", ct)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	return nil
}

// shouldRetry decides whether resty makes another attempt. resty replaces
// its default (retry on any transport error) with the result of the
// conditions, so transport errors are handled here too. The context is
// checked by resty before this runs.
func (c *Client) shouldRetry(resp *resty.Response, err error) bool {
	if err != nil {
		// resp is nil when the request could not even be built (a bad base
		// URL): another attempt would fail the same way, as would re-reading
		// a body that exceeded the size limit.
		return resp != nil && !errors.Is(err, resty.ErrResponseBodyTooLarge)
	}
	if resp == nil {
		return false
	}
	switch s := resp.StatusCode(); s {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		if d, ok := parseRetryAfter(resp.Header(), time.Now()); ok && d > c.maxRetryAfter {
			return false
		}
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryDelay is the wait before the next attempt: the server's
// Retry-After when it sent one (shouldRetry already refused waits above
// the cap), else capped exponential backoff with jitter so that many
// clients failing together do not retry in lockstep.
func (c *Client) retryDelay(_ *resty.Client, resp *resty.Response) (time.Duration, error) {
	if s := resp.StatusCode(); s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable {
		if d, ok := parseRetryAfter(resp.Header(), time.Now()); ok {
			// 0 would make resty fall back to its own backoff.
			return max(d, c.waitMin, time.Nanosecond), nil
		}
	}
	attempt := 1
	if resp.Request != nil {
		attempt = max(resp.Request.Attempt, 1)
	}
	return backoff(c.waitMin, c.waitMax, attempt), nil
}

// backoff returns a wait in [d/2, d) where d = minWait·2^(attempt-1),
// capped at maxWait ("equal jitter": never shorter than half the step, so
// a retry storm still spreads out, never zero).
func backoff(minWait, maxWait time.Duration, attempt int) time.Duration {
	d := minWait
	for i := 1; i < attempt && d < maxWait; i++ {
		d *= 2
	}
	d = min(d, maxWait)
	if d <= 1 {
		return max(d, time.Nanosecond)
	}
	half := d / 2
	return half + rand.N(d-half)
}

// discardLogger silences resty.
type discardLogger struct{}

func (discardLogger) Errorf(string, ...any) {}
func (discardLogger) Warnf(string, ...any)  {}
func (discardLogger) Debugf(string, ...any) {}

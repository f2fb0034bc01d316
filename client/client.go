package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
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

// Client calls the vds REST API; safe for concurrent use.
type Client struct {
	rc            *resty.Client
	baseURL       string
	waitMin       time.Duration
	waitMax       time.Duration
	maxRetryAfter time.Duration
}

// New returns a Client for the server root baseURL ("/v1" is added; a
// trailing "/v1" is tolerated) with an API token; an empty token sends none.
func New(baseURL, token string, opts ...Option) *Client {
	s := defaultSettings()
	for _, o := range opts {
		o(&s)
	}
	hc := &http.Client{Timeout: s.timeout}
	if s.httpClient != nil {
		// A copy, so resty and WithTimeout never modify the caller's client.
		cp := *s.httpClient
		hc = &cp
		if s.timeoutSet {
			hc.Timeout = s.timeout
		}
	}
	if s.rootCAs != nil {
		hc.Transport = withRoots(hc.Transport, s.rootCAs)
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
		// resty logs to stderr by default, into the output of CLIs built on this.
		SetLogger(discardLogger{}).
		SetDisableWarn(true).
		SetResponseBodyLimit(maxResponseBytes).
		SetRetryCount(s.retries).
		SetRetryWaitTime(s.waitMin).
		// resty clamps every wait to this; retryDelay enforces the backoff bound.
		SetRetryMaxWaitTime(max(s.waitMax, s.maxRetryAfter)).
		AddRetryCondition(c.shouldRetry).
		SetRetryAfter(c.retryDelay)
	return c
}

// withRoots is rt, or the default transport, verifying servers against roots.
func withRoots(rt http.RoundTripper, roots *x509.CertPool) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	t, ok := rt.(*http.Transport)
	if !ok {
		return rt
	}
	t = t.Clone()
	if t.TLSClientConfig == nil {
		t.TLSClientConfig = &tls.Config{}
	}
	t.TLSClientConfig.RootCAs = roots
	return t
}

// BaseURL returns the server root, without "/v1".
func (c *Client) BaseURL() string { return c.baseURL }

func normalizeBaseURL(u string) string {
	u = strings.TrimRight(strings.TrimSpace(u), "/")
	u = strings.TrimSuffix(u, "/v1")
	return strings.TrimRight(u, "/")
}

const apiPrefix = "/v1"

// ResponseInfo describes the response a call ended with (the last attempt's).
type ResponseInfo struct {
	// StatusCode is 0 when no response arrived.
	StatusCode int
	RequestID  string
	Rate       RateInfo
	Attempts   int
	Header     http.Header
	// Proto is the response's protocol, such as "HTTP/1.1".
	Proto string
}

// CallOption adjusts one call.
type CallOption func(*callSettings)

type callSettings struct {
	info      *ResponseInfo
	requestID string
}

// CaptureInfo stores the call's ResponseInfo in *dst when it returns.
func CaptureInfo(dst *ResponseInfo) CallOption {
	return func(cs *callSettings) { cs.info = dst }
}

// SendRequestID sends id as X-Request-Id, so the server logs the call under it.
func SendRequestID(id string) CallOption {
	return func(cs *callSettings) { cs.requestID = id }
}

// call GETs path (below /v1 unless it starts elsewhere) with retries.
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
		info.Proto = resp.RawResponse.Proto
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
		e := newAPIError(resp.StatusCode(), resp.Header(), resp.Body(), time.Now())
		if r := resp.RawResponse.Request; r != nil {
			u := *r.URL
			u.RawQuery = ""
			e.URL = u.String()
		}
		return resp.Body(), info, e
	}
	return resp.Body(), info, nil
}

// Get GETs path below the server root, query included, for endpoints no
// typed method covers, and returns the body as sent.
func (c *Client) Get(ctx context.Context, path string, opts ...CallOption) ([]byte, ResponseInfo, error) {
	return c.call(ctx, path, nil, opts)
}

type envelope[T any] struct {
	Data T     `json:"data"`
	Meta *Meta `json:"meta"`
}

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

func getPtr[T any](ctx context.Context, c *Client, path string, query url.Values, opts []CallOption) (*T, error) {
	v, _, _, err := getData[T](ctx, c, path, query, opts)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// getSlice returns [] rather than nil for an absent list.
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

// decode says so when a non-JSON body shows baseURL is not a vds server.
func decode(body []byte, h http.Header, v any) error {
	if ct := h.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return fmt.Errorf("expected a JSON response, got %q (is the base URL a vds server?)", ct)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	return nil
}

// shouldRetry replaces resty's default, so transport errors are decided here too.
func (c *Client) shouldRetry(resp *resty.Response, err error) bool {
	if err != nil {
		// No response: the request could not be built and would fail
		// again, as would an untrusted certificate.
		var untrusted *tls.CertificateVerificationError
		return resp != nil && !errors.Is(err, resty.ErrResponseBodyTooLarge) && !errors.As(err, &untrusted)
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

// retryDelay waits the server's Retry-After, else jittered exponential backoff.
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

// backoff returns a wait in [d/2, d), d = minWait·2^(attempt-1) capped at maxWait.
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

type discardLogger struct{}

func (discardLogger) Errorf(string, ...any) {}
func (discardLogger) Warnf(string, ...any)  {}
func (discardLogger) Debugf(string, ...any) {}

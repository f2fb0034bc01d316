package upstream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"

	"github.com/go-resty/resty/v2"
)

// newRestyClient sets no timeout: each call's context carries Config.Timeout
// over all attempts and backoff, so retries never outlast the server's write timeout.
func newRestyClient(cfg Config, log *slog.Logger) *resty.Client {
	hc := &http.Client{Transport: newHTTPTransport()}
	return resty.NewWithClient(hc).
		SetRetryCount(cfg.Retries).
		SetRetryWaitTime(cfg.RetryWait).
		SetRetryMaxWaitTime(8*cfg.RetryWait).
		AddRetryCondition(shouldRetry).
		SetResponseBodyLimit(MaxBodyBytes).
		SetHeader("Accept", "application/json").
		SetHeader("User-Agent", cfg.UserAgent).
		SetLogger(restyLogger{log})
}

// shouldRetry retries network errors and 5xx; a 429 asks us to slow down, not to insist.
func shouldRetry(resp *resty.Response, err error) bool {
	if err != nil {
		return !errors.Is(err, resty.ErrResponseBodyTooLarge) && !errors.Is(err, context.Canceled)
	}
	return resp != nil && resp.StatusCode() >= http.StatusInternalServerError
}

// get returns the body of a 2xx answer; every failure is a classified *Error.
func (c *Client) get(ctx context.Context, upstream, rawURL string, query url.Values) ([]byte, error) {
	req := c.http.R().SetContext(ctx)
	if len(query) > 0 {
		req.SetQueryParamsFromValues(query)
	}
	resp, err := req.Get(rawURL)
	status := 0
	if resp != nil && resp.RawResponse != nil {
		status = resp.StatusCode()
	}
	if err != nil {
		if errors.Is(err, resty.ErrResponseBodyTooLarge) {
			return nil, bad(upstream, status, fmt.Errorf("answer larger than %d bytes", MaxBodyBytes))
		}
		return nil, unavailable(upstream, 0, err)
	}
	switch {
	case status >= 500 || status == http.StatusTooManyRequests:
		return nil, unavailable(upstream, status, fmt.Errorf("answered %s", http.StatusText(status)))
	case status < 200 || status > 299:
		return nil, bad(upstream, status, fmt.Errorf("answered %s", http.StatusText(status)))
	}
	return resp.Body(), nil
}

// fetch gets rawURL and parses the body; an answer parse refuses is ErrUpstreamBad.
func fetch[T any](ctx context.Context, c *Client, upstream, rawURL string, query url.Values, parse func([]byte) (T, error)) (T, error) {
	var zero T
	body, err := c.get(ctx, upstream, rawURL, query)
	if err != nil {
		return zero, err
	}
	v, err := parse(body)
	if err != nil {
		return zero, bad(upstream, 200, err)
	}
	return v, nil
}

// restyLogger logs resty's per-attempt messages at debug; the caller logs the outcome.
type restyLogger struct{ log *slog.Logger }

func (l restyLogger) Errorf(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l restyLogger) Warnf(format string, v ...any)  { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l restyLogger) Debugf(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }

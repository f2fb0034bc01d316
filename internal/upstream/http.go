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

// newRestyClient builds the shared HTTP client. It sets no timeout of its
// own: the context of each call carries the deadline of Config.Timeout,
// which bounds every attempt and the backoff between them together, so
// that retries can never take an answer past the server's write timeout.
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

// shouldRetry decides whether resty tries again. Only failures that a later
// attempt can fix are retried: network errors and timeouts, and 5xx answers.
// A 4xx, an oversized body or malformed JSON would fail identically again,
// and a 429 asks us to slow down, not to insist.
func shouldRetry(resp *resty.Response, err error) bool {
	if err != nil {
		return !errors.Is(err, resty.ErrResponseBodyTooLarge) && !errors.Is(err, context.Canceled)
	}
	return resp != nil && resp.StatusCode() >= http.StatusInternalServerError
}

// get fetches rawURL (with the query, if any) and returns the body of a 2xx
// answer. Every failure is an *Error classified for the HTTP layer.
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
		// Timeouts, refused connections, DNS failures, resets, cancellation.
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

// restyLogger routes resty's own messages (one per failed attempt) to slog
// at debug level; the outcome of a fetch is logged once by the caller.
type restyLogger struct{ log *slog.Logger }

func (l restyLogger) Errorf(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l restyLogger) Warnf(format string, v ...any)  { l.log.Debug(fmt.Sprintf(format, v...)) }
func (l restyLogger) Debugf(format string, v ...any) { l.log.Debug(fmt.Sprintf(format, v...)) }

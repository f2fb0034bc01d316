package client

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"strconv"
	"time"
)

// Me returns the token's account, plan, rate limit and quota (GET /v1/me; free).
func (c *Client) Me(ctx context.Context, opts ...CallOption) (*Me, error) {
	return getPtr[Me](ctx, c, apiPrefix+"/me", nil, opts)
}

// Lists returns the user's saved vehicle lists (GET /v1/lists).
func (c *Client) Lists(ctx context.Context, opts ...CallOption) ([]List, error) {
	return getSlice[List](ctx, c, apiPrefix+"/lists", nil, opts)
}

// ListRecalls returns the recall campaigns of every car, motorcycle and VIN
// of the user's lists, grouped by item (GET /v1/lists/recalls; charged once).
func (c *Client) ListRecalls(ctx context.Context, opts ...CallOption) ([]ItemRecalls, error) {
	return getSlice[ItemRecalls](ctx, c, apiPrefix+"/lists/recalls", nil, opts)
}

// Changelog returns the API's release notes (GET /v1/changelog; free).
func (c *Client) Changelog(ctx context.Context, opts ...CallOption) ([]ChangelogEntry, error) {
	return getSlice[ChangelogEntry](ctx, c, apiPrefix+"/changelog", nil, opts)
}

// OpenAPI returns the OpenAPI 3.1 document as raw JSON (GET /v1/openapi.json;
// free); an empty answer is an error, clearer than a parser's.
func (c *Client) OpenAPI(ctx context.Context, opts ...CallOption) ([]byte, error) {
	body, _, err := c.call(ctx, apiPrefix+"/openapi.json", nil, opts)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, errors.New("vds: GET " + apiPrefix + "/openapi.json: the server sent an empty document")
	}
	return body, nil
}

// Ready returns nil when the server is ready (GET /readyz, no token needed).
func (c *Client) Ready(ctx context.Context, opts ...CallOption) error {
	_, _, err := c.call(ctx, "/readyz", nil, opts)
	return err
}

// RequestLine is one request of the account's request log.
type RequestLine struct {
	At          time.Time `json:"at"`
	Channel     string    `json:"channel"`
	Operation   string    `json:"operation"`
	Status      int       `json:"status"`
	DurationMS  float64   `json:"duration_ms"`
	RequestID   string    `json:"request_id"`
	TokenPrefix string    `json:"token_prefix"`
	// Query is the query string, secrets redacted; Code and Detail are the
	// failed request's problem.
	Query  string `json:"query"`
	Code   string `json:"code"`
	Detail string `json:"detail"`
}

// RequestPage is one page of the request log.
type RequestPage = Page[RequestLine]

// RequestQuery filters the request log; zero fields are not sent.
type RequestQuery struct {
	// Status is a status ("404") or a class ("4xx").
	Status    string
	RequestID string
	Page      int
	PerPage   int
}

func (q RequestQuery) values() url.Values {
	v := url.Values{}
	if q.Status != "" {
		v.Set("status", q.Status)
	}
	if q.RequestID != "" {
		v.Set("request_id", q.RequestID)
	}
	if q.Page > 0 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	if q.PerPage > 0 {
		v.Set("per_page", strconv.Itoa(q.PerPage))
	}
	return v
}

// Requests returns a page of the account's newest requests, newest first
// (GET /v1/me/requests; free).
func (c *Client) Requests(ctx context.Context, q RequestQuery, opts ...CallOption) (*RequestPage, error) {
	return listPage[RequestLine](ctx, c, apiPrefix+"/me/requests", q.values(), opts)
}

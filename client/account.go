package client

import (
	"bytes"
	"context"
	"errors"
)

// Me returns the token's account, plan, rate limit and monthly quota usage
// (GET /v1/me). The call is free: it is never charged to the quota.
func (c *Client) Me(ctx context.Context, opts ...CallOption) (*Me, error) {
	return getPtr[Me](ctx, c, apiPrefix+"/me", nil, opts)
}

// Lists returns the user's saved vehicle lists, the same lists the
// dashboard and the my_garage agent tool show (GET /v1/lists).
func (c *Client) Lists(ctx context.Context, opts ...CallOption) ([]List, error) {
	return getSlice[List](ctx, c, apiPrefix+"/lists", nil, opts)
}

// Changelog returns the API's release notes
// (GET /v1/changelog; free).
func (c *Client) Changelog(ctx context.Context, opts ...CallOption) ([]ChangelogEntry, error) {
	return getSlice[ChangelogEntry](ctx, c, apiPrefix+"/changelog", nil, opts)
}

// OpenAPI returns the server's OpenAPI 3.1 document as raw JSON bytes
// (GET /v1/openapi.json; free). It is not wrapped in the data envelope.
// An empty 200 answer is an error: no valid document is empty, and
// callers feeding the bytes to a parser deserve a clearer message than
// "unexpected end of JSON input".
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

// Ready reports whether the server is ready to answer (GET /readyz, which
// needs no token): nil when it is, an *APIError (usually 503) or transport
// error when it is not. Polling it is how to wait for a starting server.
func (c *Client) Ready(ctx context.Context, opts ...CallOption) error {
	_, _, err := c.call(ctx, "/readyz", nil, opts)
	return err
}

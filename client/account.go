package client

import (
	"bytes"
	"context"
	"errors"
)

// Me returns the token's account, plan, rate limit and quota (GET /v1/me; free).
func (c *Client) Me(ctx context.Context, opts ...CallOption) (*Me, error) {
	return getPtr[Me](ctx, c, apiPrefix+"/me", nil, opts)
}

// Lists returns the user's saved vehicle lists (GET /v1/lists).
func (c *Client) Lists(ctx context.Context, opts ...CallOption) ([]List, error) {
	return getSlice[List](ctx, c, apiPrefix+"/lists", nil, opts)
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

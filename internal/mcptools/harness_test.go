package mcptools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/access/accesstest"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/edge"
)

// env is an in-process vds over a SQLite store with the demo catalog,
// serving REST and MCP on one loopback listener, composed as
// internal/server composes them: one vehicle.Service, one Authenticator and
// one Limiter behind both, so the tests see what a deployment sees.
type env struct {
	url    string // the server's root, e.g. http://127.0.0.1:port
	mcpURL string
	cat    *catalog.Catalog
	// tokens by account name; see newEnv for the plans.
	tokens map[string]string
}

// Plans of the test accounts beyond the defaults.
const (
	// quotaPlan has a monthly quota of 3 calls and no rate limit.
	quotaPlan = "quota3"
	// ratePlan allows 5 requests a minute.
	ratePlan      = "rate5"
	ratePerMinute = 5
)

// newEnv builds the server. Accounts: dev (developer plan, with a garage
// holding a record of every kind and one that left the catalog), dev2
// (developer, empty garage), quota (quota3), rate (rate5), suspended and
// noapi (a plan without API access).
func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	st, c := storetest.DemoSQLite(t, true)

	plans := maps.Clone(config.DefaultPlans)
	plans[quotaPlan] = config.PlanLimits{MonthlyQuota: 3, APIAccess: true}
	plans[ratePlan] = config.PlanLimits{RatePerMinute: ratePerMinute, MonthlyQuota: 1000, APIAccess: true}
	plans["noapi"] = config.PlanLimits{RatePerMinute: 10, MonthlyQuota: 100}
	cfg := &config.Config{Plans: plans}
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	e := &env{cat: c, tokens: map[string]string{}}
	accounts := accesstest.Create(t, acc, map[string]string{"dev": "developer", "dev2": "developer", "quota": quotaPlan,
		"rate": ratePlan, "suspended": "developer", "noapi": "noapi"})
	for name, a := range accounts {
		e.tokens[name] = a.Token
	}
	if err := acc.SetSuspended(ctx, accounts["suspended"].ID, true); err != nil {
		t.Fatal(err)
	}
	storetest.GarageWithGoneCar(t, st, c, accounts["dev"].ID, "saved by the test", storetest.FirstOfEachKind(c)...)

	// The real server, on a fake NHTSA replaying the captured answers.
	fake := upstreamtest.New(t)
	cfg.Upstream = config.Upstream{VPICURL: fake.URL, NHTSAURL: fake.URL, EPAURL: fake.URL, Timeout: time.Second, CacheTTL: time.Hour}
	srv, err := server.New(ctx, cfg, st, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	e.url, e.mcpURL = ts.URL, ts.URL+"/mcp"
	return e
}

// Protocol revisions the tests speak.
const (
	modern = "2026-07-28"
	legacy = "2025-11-25"
)

// client connects the mcp-go client with a token, in revision rev.
func (e *env) client(t *testing.T, token, rev string) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(e.mcpURL, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	// Asking for 2025-11-25 makes the client skip the server/discover
	// probe of 2026-07-28 and use the initialize handshake, as
	// client.WithLegacyProtocolOnly does (deprecated in mcp-go v1.2.1).
	c := client.NewClient(tr, client.WithProtocolVersion(rev))
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var req mcp.InitializeRequest
	req.Params.ClientInfo = mcp.Implementation{Name: "vds-test", Version: "1.0"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if got := c.ProtocolVersion(); got != rev {
		t.Fatalf("negotiated revision %s, want %s", got, rev)
	}
	return c
}

// call calls a tool and fails the test on a protocol error (an isError
// result is not one).
func call(t *testing.T, c *client.Client, name string, args any) *mcp.CallToolResult {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// text returns the text of a result's first content.
func text(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// get sends a REST GET and returns the response and its body.
func (e *env) get(t *testing.T, path, token string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, req)
}

// post sends one raw JSON-RPC message to /mcp with the headers MCP
// clients send, and extra.
func (e *env) post(t *testing.T, token, body string, extra ...[2]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.mcpURL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for _, h := range extra {
		req.Header.Set(h[0], h[1])
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// legacyHeader marks a raw message as revision 2025-11-25, which needs no
// handshake on a stateless server.
var legacyHeader = [2]string{"MCP-Protocol-Version", legacy}

// rpcCall is a raw tools/call message in revision 2025-11-25.
func rpcCall(name string, args any) string {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// rpcResult decodes a JSON-RPC response, failing on a JSON-RPC error.
func rpcResult(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var msg struct {
		Result map[string]any `json:"result"`
		Error  any            `json:"error"`
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatalf("not a JSON-RPC response: %v\n%s", err, body)
	}
	if msg.Error != nil {
		t.Fatalf("JSON-RPC error: %v", msg.Error)
	}
	return msg.Result
}

// decode parses JSON into generic values for comparison.
func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

// problemCode returns the code of a problem document.
func problemCode(t *testing.T, resp *http.Response, body []byte) string {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	var p edge.Problem
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("not a problem: %v\n%s", err, body)
	}
	if p.Status != resp.StatusCode || p.Detail == "" || p.RequestID == "" || p.Instance != "/mcp" {
		t.Errorf("incomplete problem: %+v", p)
	}
	return p.Code
}

package mcptools_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/mcptools"
)

const pingBody = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

// TestAuthBeforeJSONRPC checks that the bearer token is checked as REST
// checks it, before the body is read: a body that is not even JSON gets
// the 401 or 403, not a JSON-RPC parse error.
func TestAuthBeforeJSONRPC(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name   string
		header string
		status int
		code   string
	}{
		{"no token", "", http.StatusUnauthorized, "unauthorized"},
		{"unknown token", "Bearer vds_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", http.StatusUnauthorized, "unauthorized"},
		{"not a vds token", "Bearer abc", http.StatusUnauthorized, "unauthorized"},
		{"wrong scheme", "Basic " + e.tokens["dev"], http.StatusUnauthorized, "unauthorized"},
		{"suspended account", "Bearer " + e.tokens["suspended"], http.StatusForbidden, "account_suspended"},
		{"plan without API access", "Bearer " + e.tokens["noapi"], http.StatusForbidden, "no_api_access"},
	}
	for _, tc := range cases {
		for _, body := range []string{pingBody, "not json at all"} {
			t.Run(tc.name, func(t *testing.T) {
				var extra [][2]string
				if tc.header != "" {
					extra = append(extra, [2]string{"Authorization", tc.header})
				}
				resp, b := e.post(t, "", body, extra...)
				if resp.StatusCode != tc.status {
					t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, b)
				}
				if code := problemCode(t, resp, b); code != tc.code {
					t.Errorf("code %q, want %q", code, tc.code)
				}
				wwwAuth := resp.Header.Get("WWW-Authenticate")
				if tc.status == http.StatusUnauthorized && wwwAuth != `Bearer realm="vds", error="invalid_token"` {
					t.Errorf("WWW-Authenticate %q", wwwAuth)
				}
				if tc.status != http.StatusUnauthorized && wwwAuth != "" {
					t.Errorf("WWW-Authenticate on a %d", tc.status)
				}
			})
		}
	}
	t.Run("valid token", func(t *testing.T) {
		resp, b := e.post(t, e.tokens["dev"], pingBody, legacyHeader)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, b)
		}
		rpcResult(t, b)
		for _, h := range []string{"X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-Quota-Used", "RateLimit-Policy"} {
			if resp.Header.Get(h) == "" {
				t.Errorf("no %s header", h)
			}
		}
	})
}

// TestMethods checks that methods other than POST, GET (a session's event
// stream) and DELETE (ending it) are refused.
func TestMethods(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, method := range []string{http.MethodPut, http.MethodPatch, http.MethodOptions} {
		for _, token := range []string{"", e.tokens["dev"]} {
			req, err := http.NewRequest(method, e.mcpURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Accept", "text/event-stream")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			resp, b := do(t, req)
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, POST, DELETE" {
				t.Errorf("%s: %d, Allow %q, want 405 and GET, POST, DELETE", method, resp.StatusCode, resp.Header.Get("Allow"))
				continue
			}
			if code := problemCode(t, resp, b); code != "method_not_allowed" {
				t.Errorf("%s: code %q", method, code)
			}
		}
	}
}

// TestStreamsNeedAToken: the event stream (GET) and ending a session
// (DELETE) are admitted as a POST is: no token, no stream.
func TestStreamsNeedAToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		for _, tc := range []struct{ token, code string }{{"", "unauthorized"}, {e.tokens["suspended"], "account_suspended"}} {
			req, err := http.NewRequest(method, e.mcpURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Accept", "text/event-stream")
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			resp, b := do(t, req)
			if code := problemCode(t, resp, b); code != tc.code {
				t.Errorf("%s: %d %q, want %s", method, resp.StatusCode, code, tc.code)
			}
		}
	}
}

// TestCrossOrigin checks that a browser's cross-origin POST is refused,
// and that same-origin and non-browser requests are not.
func TestCrossOrigin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name   string
		header [][2]string
		status int
	}{
		{"foreign Origin", [][2]string{{"Origin", "https://evil.example"}}, http.StatusForbidden},
		{"cross-site fetch", [][2]string{{"Sec-Fetch-Site", "cross-site"}}, http.StatusForbidden},
		{"same origin", [][2]string{{"Origin", e.url}}, http.StatusOK},
		{"same-origin fetch", [][2]string{{"Sec-Fetch-Site", "same-origin"}}, http.StatusOK},
		{"no browser headers", nil, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := e.post(t, e.tokens["dev"], pingBody, append(tc.header, legacyHeader)...)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, b)
			}
			if tc.status == http.StatusForbidden {
				if code := problemCode(t, resp, b); code != "cross_origin_request" {
					t.Errorf("code %q", code)
				}
			}
		})
	}
}

// TestBodyLimit checks that a body over MaxBodyBytes is refused whether
// its length is declared or it is chunked.
func TestBodyLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// A valid message padded with whitespace past the limit.
	big := pingBody + strings.Repeat(" ", mcptools.MaxBodyBytes)
	for _, chunked := range []bool{false, true} {
		var body io.Reader = strings.NewReader(big)
		if chunked {
			// An io.Reader of unknown length makes the client send chunks.
			body = io.MultiReader(strings.NewReader(big))
		}
		req, err := http.NewRequest(http.MethodPost, e.mcpURL, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+e.tokens["dev"])
		req.Header.Set("MCP-Protocol-Version", legacy)
		resp, b := do(t, req)
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked=%v: status %d, want 413: %s", chunked, resp.StatusCode, b)
			continue
		}
		if code := problemCode(t, resp, b); code != "request_too_large" {
			t.Errorf("code %q", code)
		}
	}
	// Just under the limit is fine.
	resp, b := e.post(t, e.tokens["dev"], pingBody+strings.Repeat(" ", mcptools.MaxBodyBytes-len(pingBody)), legacyHeader)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a body of exactly the limit: %d %s", resp.StatusCode, b)
	}
}

// TestDocumentedRequests sends the README's curl requests, in order, as
// documented, so the walk-through keeps working.
func TestDocumentedRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, ex := range mcptools.Examples {
		t.Run(ex.Title, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, e.mcpURL, bytes.NewReader([]byte(ex.Body)))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+e.tokens["dev"])
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for _, h := range ex.Header {
				req.Header.Set(h[0], h[1])
			}
			resp, b := do(t, req)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", resp.StatusCode, b)
			}
			res := rpcResult(t, b)
			var msg struct {
				Method string `json:"method"`
			}
			if err := json.Unmarshal([]byte(ex.Body), &msg); err != nil {
				t.Fatal(err)
			}
			// Only initialize mints a session; the requests after it carry
			// none, as documented, and are answered all the same.
			if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" && msg.Method != "initialize" {
				t.Errorf("%s answered with Mcp-Session-Id %q", msg.Method, sid)
			}
			switch msg.Method {
			case "initialize":
				if res["protocolVersion"] != legacy {
					t.Errorf("protocolVersion %v", res["protocolVersion"])
				}
			case "tools/list":
				if tools, _ := res["tools"].([]any); len(tools) != len(mcptools.Tools(mcptools.Deps{})) {
					t.Errorf("%d tools listed", len(tools))
				}
			case "tools/call":
				// The examples must show data, not an empty answer.
				sc, _ := res["structuredContent"].(map[string]any)
				data := sc["data"]
				if fits, ok := data.(map[string]any); ok {
					data = fits["fitments"]
				}
				if list, _ := data.([]any); res["isError"] == true || len(list) == 0 {
					t.Errorf("call failed or found nothing: %s", b)
				}
			}
		})
	}
}

// TestTransportErrorsAreProblems: mcp-go answers a bad MCP-Protocol-Version,
// a wrong Content-Type and a DNS-rebinding Host with text/plain; through
// Handler every one is a problem document with a code, its status kept and
// mcp-go's sentence as the detail, and the limit headers still sent.
func TestTransportErrorsAreProblems(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	msg := rpcCall("account_usage", map[string]any{})
	for _, tc := range []struct {
		name   string
		header [2]string
		status int
		code   string
		detail string
	}{
		{"protocol version", [2]string{"MCP-Protocol-Version", "1999-01-01"}, http.StatusBadRequest, "invalid_request", "Unsupported protocol version: 1999-01-01"},
		{"content type", [2]string{"Content-Type", "text/plain"}, http.StatusBadRequest, "invalid_request", "Invalid content type: must be 'application/json'"},
		{"dns rebinding", [2]string{"Host", "evil.example.com"}, http.StatusForbidden, "forbidden", `Forbidden: invalid Host header "evil.example.com"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, e.mcpURL, strings.NewReader(msg))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Authorization", "Bearer "+e.tokens["dev"])
			req.Header.Set(legacyHeader[0], legacyHeader[1])
			if tc.header[0] == "Host" {
				req.Host = tc.header[1]
			} else {
				req.Header.Set(tc.header[0], tc.header[1])
			}
			resp, body := do(t, req)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if code := problemCode(t, resp, body); code != tc.code {
				t.Errorf("code %q, want %q", code, tc.code)
			}
			var p edge.Problem
			_ = json.Unmarshal(body, &p)
			if !strings.Contains(p.Detail, tc.detail) {
				t.Errorf("detail %q lacks %q", p.Detail, tc.detail)
			}
			if resp.Header.Get("X-RateLimit-Limit") == "" {
				t.Error("no rate-limit headers")
			}
		})
	}
}

package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

func postMCP(t *testing.T, h http.Handler, token string) *httptest.ResponseRecorder {
	t.Helper()
	return serve(h, token, http.MethodPost, "/mcp", ping)
}

// serve sends one request to h as an MCP client would send it (the
// headers do no harm to REST): with token unless it is empty.
func serve(h http.Handler, token, method, path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// TestMCPMounted checks that the REST listener serves MCP, behind the same
// authentication and limits (internal/mcptools tests the rest).
func TestMCPMounted(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := postMCP(t, f.h, f.tokens["ok@example.com"])
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"result":{}`) || w.Header().Get("X-Quota-Limit") != "100" {
		t.Fatalf("ping: %d %v %s", w.Code, w.Header(), w.Body)
	}
	if w := postMCP(t, f.h, f.tokens["suspended@example.com"]); w.Code != http.StatusForbidden || problemCode(t, w) != "account_suspended" {
		t.Fatalf("suspended: %d %s", w.Code, w.Body)
	}
}

// TestServeWithMCP checks the --mcp-addr listener: MCP and /healthz only,
// and both listeners stop with the context.
func TestServeWithMCP(t *testing.T) {
	t.Parallel()
	r := startTCP(t)
	token := r.token
	get := func(url string, method string, body string) int {
		t.Helper()
		return send(t, method, url, token, body, "Content-Type", "application/json", "MCP-Protocol-Version", "2025-11-25")
	}
	for _, base := range []string{"http://" + r.addr, "http://" + r.mcpAddr} {
		if code := get(base+"/mcp", http.MethodPost, ping); code != http.StatusOK {
			t.Errorf("POST %s/mcp: %d", base, code)
		}
		if code := get(base+"/healthz", http.MethodGet, ""); code != http.StatusOK {
			t.Errorf("GET %s/healthz: %d", base, code)
		}
	}
	if code := get("http://"+r.mcpAddr+"/v1/me", http.MethodGet, ""); code != http.StatusNotFound {
		t.Errorf("REST on the MCP listener: %d, want 404", code)
	}
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
}

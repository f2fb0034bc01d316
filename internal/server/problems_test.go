package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// running is a real server on two loopback listeners (the second for
// --mcp-addr), with one free account.
type running struct {
	addr, mcpAddr, token string
	// stop ends the server's context and returns what ServeWithMCP did.
	stop func() error
}

func startTCP(t *testing.T) *running {
	t.Helper()
	srv, _, token := newListening(t, openStore(t), time.Hour)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mcpLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeWithMCP(sctx, ln, mcpLn) }()
	return &running{addr: ln.Addr().String(), mcpAddr: mcpLn.Addr().String(), token: token, stop: func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			return errors.New("ServeWithMCP did not return")
		}
	}}
}

// serveTCP starts a server until the test ends and returns its addresses.
func serveTCP(t *testing.T) (addr, mcpAddr string) {
	t.Helper()
	r := startTCP(t)
	t.Cleanup(func() {
		if err := r.stop(); err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return r.addr, r.mcpAddr
}

// rawProblem is a problem document as read off the wire.
type rawProblem struct {
	Status    int    `json:"status"`
	Code      string `json:"code"`
	Detail    string `json:"detail"`
	RequestID string `json:"request_id"`
}

// exchange writes raw request bytes to addr and reads one response.
func exchange(t *testing.T, addr, raw string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%q: reading the response: %v", raw[:min(len(raw), 60)], err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// wantProblem checks that a response is a problem document of status and code.
func wantProblem(t *testing.T, what string, resp *http.Response, body []byte, status int, code string) rawProblem {
	t.Helper()
	var p rawProblem
	if resp.StatusCode != status || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("%s: %d %q, want %d application/problem+json: %s", what, resp.StatusCode, resp.Header.Get("Content-Type"), status, body)
		return p
	}
	if err := json.Unmarshal(body, &p); err != nil {
		t.Errorf("%s: not JSON: %v: %s", what, err, body)
		return p
	}
	if p.Status != status || p.Code != code || p.Detail == "" || p.RequestID == "" || p.RequestID != resp.Header.Get("X-Request-Id") {
		t.Errorf("%s: problem %+v (X-Request-Id %q), want status %d code %s with a detail and the request id",
			what, p, resp.Header.Get("X-Request-Id"), status, code)
	}
	return p
}

// TestNetHTTPErrorsAreProblems: the responses net/http writes itself, before
// any handler, to requests it cannot read (a bad escape in the path, a
// request line that is not HTTP, a missing Host, headers over the limit)
// are problem documents too, on both listeners, over a real connection.
func TestNetHTTPErrorsAreProblems(t *testing.T) {
	t.Parallel()
	addr, mcpAddr := serveTCP(t)
	big := "X-Big: " + strings.Repeat("a", 40<<10) + "\r\n"
	for _, tc := range []struct {
		name, raw string
		status    int
		code      string
		detail    string
	}{
		{"bad escape", "GET /v1/%6 HTTP/1.1\r\nHost: vds\r\n\r\n", 400, "invalid_request", "could not be read"},
		{"space in the path", "GET /v1/cars?make=Alfa Romeo HTTP/1.1\r\nHost: vds\r\n\r\n", 400, "invalid_request", "could not be read"},
		{"no Host", "GET /healthz HTTP/1.1\r\n\r\n", 400, "invalid_request", "missing required Host header"},
		{"not HTTP", "HELLO\r\n\r\n", 400, "invalid_request", "could not be read"},
		{"headers too large", "GET /healthz HTTP/1.1\r\nHost: vds\r\n" + big + "\r\n", 431, "headers_too_large", "headers"},
		{"transfer encoding", "POST /mcp HTTP/1.1\r\nHost: vds\r\nTransfer-Encoding: gzip\r\n\r\n", 501, "not_implemented", "transfer encoding"},
		{"HTTP version", "GET /healthz HTTP/2.5\r\nHost: vds\r\n\r\n", 505, "http_version_not_supported", "HTTP/1.1"},
	} {
		for _, a := range []string{addr, mcpAddr} {
			resp, body := exchange(t, a, tc.raw)
			p := wantProblem(t, tc.name, resp, body, tc.status, tc.code)
			if !strings.Contains(p.Detail, tc.detail) {
				t.Errorf("%s: detail %q lacks %q", tc.name, p.Detail, tc.detail)
			}
		}
	}
	// A good request on a connection still gets its own answer untouched,
	// and a bad one after it on the same connection a problem.
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(conn)
	if _, err := io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: vds\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	if _, err := io.WriteString(conn, "GET /v1/%zz HTTP/1.1\r\nHost: vds\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err = http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	wantProblem(t, "second request", resp, body, 400, "invalid_request")
}

// TestFallbackIsAProblem: outside /v1, /mcp and /dashboard/ an unknown
// path is a 404 problem and a known path with another method a 405 one,
// on both listeners; the dashboard keeps its HTML pages for browsers.
func TestFallbackIsAProblem(t *testing.T) {
	t.Parallel()
	addr, mcpAddr := serveTCP(t)
	do := func(method, url string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, body
	}
	for _, base := range []string{"http://" + addr, "http://" + mcpAddr} {
		for _, path := range []string{"/favicon.ico", "/robots.txt", "/v2/cars", "/healthz/x"} {
			resp, body := do(http.MethodGet, base+path)
			wantProblem(t, "GET "+path, resp, body, 404, "not_found")
		}
		resp, body := do(http.MethodPost, base+"/healthz")
		wantProblem(t, "POST /healthz", resp, body, 405, "method_not_allowed")
		if allow := resp.Header.Get("Allow"); allow != "GET, HEAD" {
			t.Errorf("POST /healthz: Allow %q", allow)
		}
	}
	resp, body := do(http.MethodDelete, "http://"+addr+"/readyz")
	wantProblem(t, "DELETE /readyz", resp, body, 405, "method_not_allowed")
	resp, _ = do(http.MethodGet, "http://"+addr+"/dashboard/no-such-page")
	if resp.StatusCode != 404 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("dashboard 404: %d %q, want its HTML page", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// TestPathsMustBePlainText: a path segment with a NUL byte, a control
// character or invalid UTF-8 (a dashboard list id, a token id, a record
// uuid) is a 400 before any handler, so it never reaches a store.
func TestPathsMustBePlainText(t *testing.T) {
	t.Parallel()
	addr, mcpAddr := serveTCP(t)
	for _, tc := range []struct{ url, detail string }{
		{"http://" + addr + "/dashboard/lists/abc%00def", "control character U+0000 at byte 20"},
		{"http://" + addr + "/dashboard/tokens/%ff/revoke", "invalid UTF-8 at byte 18"},
		{"http://" + addr + "/v1/cars/%1b", "control character U+001B"},
		{"http://" + addr + "/%00", "control character U+0000"},
		{"http://" + mcpAddr + "/mcp%0a", "control character U+000A"},
	} {
		resp, err := http.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		p := wantProblem(t, tc.url, resp, body, 400, "invalid_parameter")
		if !strings.Contains(p.Detail, tc.detail) {
			t.Errorf("%s: detail %q lacks %q", tc.url, p.Detail, tc.detail)
		}
	}
}

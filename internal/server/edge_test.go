package server_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/server"
)

// serveWith starts a server on loopback with short timeouts and tweak
// applied to its config, writing its access log to logs; stop ends it and
// flushes.
func serveWith(t *testing.T, tweak func(*config.Config)) (addr string, logs *lockedBuffer, stop func()) {
	t.Helper()
	ctx := context.Background()
	st := openStore(t)
	cfg := &config.Config{
		Server: config.Server{CatalogPoll: time.Hour, UsageFlush: time.Hour, ShutdownTimeout: time.Second,
			ReadHeaderTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second, IdleTimeout: time.Second},
		Plans: map[string]config.PlanLimits{"free": config.DefaultPlans["free"]},
	}
	tweak(cfg)
	logs = &lockedBuffer{}
	srv, err := server.New(ctx, cfg, st, slog.New(slog.DiscardHandler),
		server.WithAccessLog(edge.NewAccessLog(slog.NewJSONHandler(logs, nil), nil)))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, ln) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error(errors.New("Serve did not return"))
		}
	}
	t.Cleanup(stop)
	return ln.Addr().String(), logs, stop
}

// TestPublicDocumentsOrigin repeats R8: a Host that is no host name never
// reaches the documents' links, X-Forwarded-Proto counts only from a
// trusted proxy and only its last entry, and a shared cache may keep none
// of the documents while their origin comes from the request.
func TestPublicDocumentsOrigin(t *testing.T) {
	trusting, _, _ := serveWith(t, func(c *config.Config) { c.Server.TrustedProxies = config.DefaultTrustedProxies })
	distrusting, _, _ := serveWith(t, func(c *config.Config) { c.Server.TrustedProxies = []string{"192.0.2.0/24"} })
	get := func(addr, path, host, proto string) (*http.Response, string) {
		raw := "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n"
		if proto != "" {
			raw += "X-Forwarded-Proto: " + proto + "\r\n"
		}
		resp, body := exchange(t, addr, raw+"\r\n")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s with Host %q: %d", path, host, resp.StatusCode)
		}
		return resp, string(body)
	}
	for _, path := range []string{"/llms.txt", "/docs", "/v1/openapi.json"} {
		resp, body := get(trusting, path, "x](javascript:alert(1))", "")
		if strings.Contains(body, "javascript") || strings.Contains(body, "x]") {
			t.Errorf("%s: the hostile Host is in the document", path)
		}
		if cc, vary := resp.Header.Get("Cache-Control"), strings.Join(resp.Header.Values("Vary"), ", "); cc != "private, no-cache" ||
			!strings.Contains(vary, "Host") || !strings.Contains(vary, "X-Forwarded-Proto") {
			t.Errorf("%s: Cache-Control %q, Vary %q; want private, no-cache and Vary on Host and X-Forwarded-Proto", path, cc, vary)
		}
		for _, tc := range []struct {
			addr, proto, want string
		}{
			{trusting, "https", "https://vds.test:8443"},
			{trusting, "https, http", "http://vds.test:8443"},
			{distrusting, "https", "http://vds.test:8443"},
		} {
			other := "https://vds.test:8443"
			if tc.want == other {
				other = "http://vds.test:8443"
			}
			if _, body := get(tc.addr, path, "vds.test:8443", tc.proto); !strings.Contains(body, tc.want) || strings.Contains(body, other) {
				t.Errorf("%s, X-Forwarded-Proto %q (trusted %v): names not %s alone", path, tc.proto, tc.addr == trusting, tc.want)
			}
		}
	}
	if _, body := get(trusting, "/llms.txt", "x](javascript:alert(1))", ""); !strings.Contains(body, "- [API reference](/docs)") {
		t.Error("/llms.txt with a hostile Host: links are not relative")
	}
}

// TestCannedAnswersAreProblems repeats R11: CONNECT, an unknown Expect and
// headers just over 16 KiB are problem documents; OPTIONS * goes through
// the edge; a request line and headers of exactly 16 KiB are served.
func TestCannedAnswersAreProblems(t *testing.T) {
	addr, logs, stop := serveWith(t, func(*config.Config) {})
	resp, body := exchange(t, addr, "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n")
	wantProblem(t, "CONNECT", resp, body, http.StatusMethodNotAllowed, "method_not_allowed")
	if _, ok := resp.Header["Allow"]; !ok {
		t.Error("CONNECT: a 405 without Allow")
	}
	resp, body = exchange(t, addr, "GET /healthz HTTP/1.1\r\nHost: vds\r\nExpect: foo\r\n\r\n")
	wantProblem(t, "Expect: foo", resp, body, http.StatusExpectationFailed, "expectation_failed")
	resp, body = exchange(t, addr, "GET * HTTP/1.1\r\nHost: vds\r\n\r\n")
	wantProblem(t, "GET *", resp, body, http.StatusBadRequest, "invalid_request")
	resp, _ = exchange(t, addr, "OPTIONS * HTTP/1.1\r\nHost: vds\r\n\r\n")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Allow") == "" || resp.Header.Get("X-Request-Id") == "" {
		t.Errorf("OPTIONS *: %d, Allow %q, X-Request-Id %q", resp.StatusCode, resp.Header.Get("Allow"), resp.Header.Get("X-Request-Id"))
	}

	// head builds a request whose line and headers take exactly n bytes.
	head := func(n int) string {
		start, end := "GET /healthz HTTP/1.1\r\nHost: vds\r\nX-Pad: ", "\r\n\r\n"
		return start + strings.Repeat("a", n-len(start)-len(end)) + end
	}
	if resp, _ := exchange(t, addr, head(server.MaxHead)); resp.StatusCode != http.StatusOK {
		t.Errorf("a head of exactly 16 KiB: %d, want 200", resp.StatusCode)
	}
	for _, n := range []int{server.MaxHead + 1, 17000} {
		resp, body := exchange(t, addr, head(n))
		wantProblem(t, fmt.Sprintf("a head of %d bytes", n), resp, body, http.StatusRequestHeaderFieldsTooLarge, "headers_too_large")
	}
	stop()
	if l := logs.String(); !strings.Contains(l, `"method":"OPTIONS","path":"*"`) || !strings.Contains(l, `"method":"CONNECT"`) {
		t.Errorf("OPTIONS * and CONNECT are not in the access log:\n%s", l)
	}
}

// TestAccessLogRedaction repeats R9 over a real connection.
func TestAccessLogRedaction(t *testing.T) {
	addr, logs, stop := serveWith(t, func(*config.Config) {})
	for _, target := range []string{
		"/v1/cars?make=Ford;pass=sekrit1&pw=sekrit2&jwt=sekrit3&bearer=sekrit4",
		"/v1/vin/vds_sekrit5ABCDEFGHIJKLMNOPQRSTUVW",
	} {
		exchange(t, addr, "GET "+target+" HTTP/1.1\r\nHost: vds\r\nConnection: close\r\n\r\n")
	}
	stop()
	l := logs.String()
	if strings.Contains(l, "sekrit") || !strings.Contains(l, `"query":"make=Ford;pass=REDACTED&pw=REDACTED&jwt=REDACTED&bearer=REDACTED"`) ||
		!strings.Contains(l, `"path":"/v1/vin/REDACTED"`) {
		t.Errorf("access log:\n%s", l)
	}
}

// TestHeaderNamesInAnyCase: the edge reads Authorization, X-Request-Id and
// X-Forwarded-Proto by their canonical names, which holds because net/http
// canonicalizes the names a client sends in lower case.
func TestHeaderNamesInAnyCase(t *testing.T) {
	addr, _, _ := serveWith(t, func(c *config.Config) { c.Server.TrustedProxies = config.DefaultTrustedProxies })
	resp, body := exchange(t, addr, "GET /v1/cars HTTP/1.1\r\nhost: vds\r\nauthorization: Bearer vds_unknowntoken\r\n"+
		"x-request-id: lower-case-1\r\nConnection: close\r\n\r\n")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), "unknown or revoked") ||
		resp.Header.Get("X-Request-Id") != "lower-case-1" {
		t.Errorf("%d, X-Request-Id %q: %s; want a 401 for the token sent, with the id sent", resp.StatusCode, resp.Header.Get("X-Request-Id"), body)
	}
	resp, body = exchange(t, addr, "GET /llms.txt HTTP/1.1\r\nhost: vds.test\r\nx-forwarded-proto: https\r\nConnection: close\r\n\r\n")
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "https://vds.test/") {
		t.Errorf("/llms.txt from a trusted proxy for https: %d, no https://vds.test/ in it", resp.StatusCode)
	}
}

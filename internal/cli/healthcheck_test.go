package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync/atomic"
	"testing"
)

// TestHealthURL: healthcheck asks the server of server.addr on loopback
// when it listens on all interfaces, and refuses addresses naming no server.
func TestHealthURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8080":  "http://127.0.0.1:8080/healthz",
		"0.0.0.0:8080":    "http://127.0.0.1:8080/healthz",
		":9090":           "http://127.0.0.1:9090/healthz",
		"[::]:8080":       "http://[::1]:8080/healthz",
		"[::1]:8081":      "http://[::1]:8081/healthz",
		"vds.internal:80": "http://vds.internal:80/healthz",
	} {
		if got, err := healthURL("http://", addr); err != nil || got != want {
			t.Errorf("healthURL(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
	if got, err := healthURL("https://", "0.0.0.0:8443"); err != nil || got != "https://127.0.0.1:8443/healthz" {
		t.Errorf("healthURL with TLS = %q, %v; want https://127.0.0.1:8443/healthz", got, err)
	}
	for addr, want := range map[string]string{
		"127.0.0.1:0": `port 0 \(any free port\)`,
		"localhost":   `server.addr "localhost" is not HOST:PORT`,
	} {
		if _, err := healthURL("http://", addr); err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
			t.Errorf("healthURL(%q) error %v, want %q", addr, err, want)
		}
	}
}

// TestHealthcheck runs the command against loopback servers: the default
// URL follows VDS_SERVER_ADDR, any status but 200 and a slow answer are
// unhealthy (exit 1), bad flags are usage errors.
func TestHealthcheck(t *testing.T) {
	isolate(t)
	// The slow request's handler may still run when the status changes.
	var status atomic.Int32
	status.Store(http.StatusOK)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer := map[string]string{"/healthz": `{"status":"ok"}`, "/readyz": `{"status":"ready"}`, "/": "<html>sign in</html>", "/web/healthz": "<html>hi</html>"}[r.URL.Path]
		if answer == "" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Has("slow") {
			<-r.Context().Done() // answers only once the client gives up
		}
		w.WriteHeader(int(status.Load()))
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(hs.Close)
	t.Setenv("VDS_SERVER_ADDR", hs.Listener.Addr().String())

	check(t, vds(t, piped, "healthcheck"), ExitOK, []string{`\Ahealthy: GET ` + regexp.QuoteMeta(hs.URL) + `/healthz answered 200 OK\n\z`}, nil, nil)
	// An origin is asked its /readyz; the page at / proves nothing.
	check(t, vds(t, piped, "healthcheck", "--url", hs.URL+"/"), ExitOK, []string{`\Ahealthy: GET ` + regexp.QuoteMeta(hs.URL) + `/readyz answered 200 OK\n\z`}, nil, nil)
	check(t, vds(t, piped, "healthcheck", "--url", hs.URL+"/web/healthz"), ExitError, nil, nil,
		[]string{`\Avds: unhealthy: GET ` + regexp.QuoteMeta(hs.URL) + `/web/healthz answered 200 OK without vds's health answer: is this a vds server\?\n\z`})
	check(t, vds(t, piped, "healthcheck", "--url", hs.URL+"/nope"), ExitError, nil, nil,
		[]string{`\Avds: unhealthy: GET ` + regexp.QuoteMeta(hs.URL) + `/nope/readyz answered 404 Not Found, want 200\n\z`})
	check(t, vds(t, piped, "healthcheck", "--url", hs.URL+"/healthz?slow=1", "--timeout", "50ms"), ExitError, nil, nil,
		[]string{`\Avds: cannot reach the server: GET ` + regexp.QuoteMeta(hs.URL) + `/healthz\?slow=1: .*Timeout exceeded`})
	status.Store(http.StatusServiceUnavailable)
	check(t, vds(t, piped, "healthcheck"), ExitError, nil, nil, []string{`answered 503 Service Unavailable, want 200\n\z`})

	check(t, vds(t, piped, "healthcheck", "--timeout", "0s"), ExitUsage, nil, nil, []string{`\Avds: --timeout must be a positive duration such as 5s, got 0s\n`})
	check(t, vds(t, piped, "healthcheck", "--url", "localhost:8080/healthz"), ExitUsage, nil, nil, []string{`\Avds: --url "localhost:8080/healthz": want http://HOST\[:PORT\]/PATH`})
	t.Setenv("VDS_SERVER_ADDR", "0.0.0.0:0")
	check(t, vds(t, piped, "healthcheck"), ExitError, nil, nil, []string{`port 0 \(any free port\), which names no server to check: give --url\n\z`})
}

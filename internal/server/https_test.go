package server_test

import (
	"context"
	"crypto/tls"
	"log/slog"
	"math/big"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/tlstest"
)

// startWith serves an empty store on loopback, with all three listeners,
// until the test ends; set adjusts the server configuration.
func startWith(t *testing.T, set func(*config.Server)) (*server.Server, server.Listeners, *lockedBuffer) {
	t.Helper()
	cfg := &config.Config{
		Server: config.Server{CatalogPoll: time.Hour, UsageFlush: time.Hour, ShutdownTimeout: time.Second,
			ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second},
		Plans: map[string]config.PlanLimits{"free": config.DefaultPlans["free"]},
	}
	set(&cfg.Server)
	logs := &lockedBuffer{}
	srv, err := server.New(context.Background(), cfg, storetest.Empty(t, "sqlite"), slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	lns := server.Listeners{Public: listenLoopback(t), MCP: listenLoopback(t), Admin: listenLoopback(t)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.ServeListeners(ctx, lns) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return srv, lns, logs
}

// TestHTTPS: with a certificate every listener speaks HTTP/2 over TLS (and
// HTTP/1.1 to clients that offer only it); a reload serves the new
// certificate on new connections, and a bad pair keeps the one served.
func TestHTTPS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t)
	certFile, keyFile, serial := ca.WriteServer(t, dir)
	srv, lns, logs := startWith(t, func(sc *config.Server) { sc.TLSCertFile, sc.TLSKeyFile = certFile, keyFile })

	// get asks url on a new connection, over HTTP/2 unless h1.
	get := func(url string, h1 bool) (proto int, served *big.Int) {
		t.Helper()
		tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}, ForceAttemptHTTP2: !h1}
		defer tr.CloseIdleConnections()
		resp, err := (&http.Client{Transport: tr}).Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s", url, resp.Status)
		}
		return resp.ProtoMajor, resp.TLS.PeerCertificates[0].SerialNumber
	}
	public := "https://" + lns.Public.Addr().String() + "/healthz"
	for _, url := range []string{public, "https://" + lns.MCP.Addr().String() + "/healthz", "https://" + lns.Admin.Addr().String() + "/metrics"} {
		if proto, got := get(url, false); proto != 2 || got.Cmp(serial) != 0 {
			t.Errorf("GET %s: HTTP/%d, serial %s; want HTTP/2, serial %s", url, proto, got, serial)
		}
	}
	if proto, _ := get(public, true); proto != 1 {
		t.Errorf("a client without h2: HTTP/%d, want HTTP/1.1", proto)
	}

	_, _, next := ca.WriteServer(t, dir)
	server.ReloadCerts(srv)
	if _, got := get(public, false); got.Cmp(next) != 0 {
		t.Errorf("after the reload: serial %s, want %s", got, next)
	}
	if err := os.WriteFile(keyFile, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	server.ReloadCerts(srv)
	if _, got := get(public, false); got.Cmp(next) != 0 {
		t.Errorf("after a bad key: serial %s, want the previous %s", got, next)
	}
	if !strings.Contains(logs.String(), "TLS certificate reload failed; serving the previous one") {
		t.Errorf("the failed reload is not logged:\n%s", logs)
	}
}

// TestH2C: server.h2c serves HTTP/2 without TLS to clients that start
// with its preface, HTTP/1.1 to the others, whose unreadable requests
// still get problem documents.
func TestH2C(t *testing.T) {
	t.Parallel()
	_, lns, _ := startWith(t, func(sc *config.Server) { sc.H2C = true })
	for _, addr := range []string{lns.Public.Addr().String(), lns.MCP.Addr().String()} {
		var h2c http.Protocols
		h2c.SetUnencryptedHTTP2(true)
		tr := &http.Transport{Protocols: &h2c}
		resp, err := (&http.Client{Transport: tr}).Get("http://" + addr + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		tr.CloseIdleConnections()
		if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
			t.Errorf("%s: %s over HTTP/%d, want 200 over HTTP/2", addr, resp.Status, resp.ProtoMajor)
		}
	}
	if code := send(t, http.MethodGet, "http://"+lns.Public.Addr().String()+"/healthz", "", ""); code != http.StatusOK {
		t.Errorf("HTTP/1.1: %d", code)
	}
	resp, body := exchange(t, lns.Public.Addr().String(), "GET /v1/%6 HTTP/1.1\r\nHost: vds\r\n\r\n")
	wantProblem(t, "bad escape", resp, body, http.StatusBadRequest, "invalid_request")
}

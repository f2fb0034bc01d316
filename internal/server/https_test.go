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

// TestHTTPS: with a certificate every listener speaks HTTP/2 over TLS (and
// HTTP/1.1 to clients that offer only it); a reload serves the new
// certificate on new connections, and a bad pair keeps the one served.
func TestHTTPS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t)
	certFile, keyFile, serial := ca.WriteServer(t, dir)
	cfg := &config.Config{
		Server: config.Server{CatalogPoll: time.Hour, UsageFlush: time.Hour, ShutdownTimeout: time.Second,
			ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second, IdleTimeout: 5 * time.Second,
			TLSCertFile: certFile, TLSKeyFile: keyFile},
		Plans: map[string]config.PlanLimits{"free": config.DefaultPlans["free"]},
	}
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

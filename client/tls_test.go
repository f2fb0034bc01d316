package client

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/tlstest"
)

// TestRootCAs: a server whose certificate a private CA signed is reached
// over HTTP/2 with WithRootCAs, also through WithHTTPClient's transport,
// and refused without it, at once.
func TestRootCAs(t *testing.T) {
	t.Parallel()
	ca := tlstest.NewCA(t)
	certFile, keyFile, _ := ca.WriteServer(t, t.TempDir())
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeBody(w, `{"status":"ready"}`)
	}))
	srv.EnableHTTP2 = true
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{pair}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ctx := context.Background()
	for name, opts := range map[string][]Option{
		"default transport": {WithRootCAs(ca.Pool())},
		"WithHTTPClient":    {WithHTTPClient(&http.Client{Transport: &http.Transport{ForceAttemptHTTP2: true}}), WithRootCAs(ca.Pool())},
	} {
		var info ResponseInfo
		if err := New(srv.URL, "", opts...).Ready(ctx, CaptureInfo(&info)); err != nil || info.Proto != "HTTP/2.0" {
			t.Errorf("%s: %v, %s; want HTTP/2.0", name, err, info.Proto)
		}
	}
	// An untrusted certificate is not retried: it would fail again.
	var info ResponseInfo
	if err := New(srv.URL, "").Ready(ctx, CaptureInfo(&info)); err == nil || !strings.Contains(err.Error(), "certificate signed by unknown authority") || info.Attempts != 1 {
		t.Errorf("without the CA: %v after %d attempts, want an unknown authority after 1", err, info.Attempts)
	}
}

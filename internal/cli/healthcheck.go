package cli

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

type healthcheckOptions struct {
	// URL is empty for the /healthz of server.addr.
	URL     string
	Timeout time.Duration
}

func newHealthcheckCmd(f *Factory, runF func(*healthcheckOptions) error) *cobra.Command {
	opts := &healthcheckOptions{}
	cmd := noArgsCmd(f, opts, runF, healthcheckRun, &cobra.Command{
		Use:   "healthcheck [--url URL] [--timeout 5s] [--ca-file PEM]",
		Short: "Exit 0 when a vds server answers its health check",
		Long: `GET a vds server's /healthz and exit 0 on a 200 with vds's answer;
otherwise (another status or answer, none within --timeout) print why and
exit 1. It is the
HEALTHCHECK of the container image, which has no shell and no curl, and
exits 0 or 1 only, as container health checks expect (2 for a bad flag).

Without --url it asks /healthz on the port of server.addr (--addr of
vds serve, VDS_SERVER_ADDR), on loopback when the server listens on all
interfaces, so it follows the address the server was given the same way;
over HTTPS when server.tls_cert_file is set, without checking the
certificate (the server is this host's own, and is sent nothing secret).
--url asks /readyz below the URL given, which checks the database as well,
unless the URL already ends in /healthz or /readyz; an https:// URL's
certificate is checked against the system's CAs and --ca-file's.`,
		Example: `  vds healthcheck
  VDS_SERVER_ADDR=0.0.0.0:9090 vds healthcheck
  vds healthcheck --url http://10.0.0.5:8080 --timeout 2s
  vds healthcheck --url https://vds.internal:8443 --ca-file ca.pem`,
	}, func([]string) error {
		if opts.Timeout <= 0 {
			return usageErrorf(fmt.Errorf("--timeout must be a positive duration such as 5s, got %s", opts.Timeout))
		}
		if u, err := url.Parse(opts.URL); opts.URL != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
			return usageErrorf(fmt.Errorf("--url %q: want http://HOST[:PORT]/PATH or https://HOST[:PORT]/PATH", opts.URL))
		}
		return nil
	})
	cmd.Flags().StringVar(&opts.URL, "url", "", "the server to check: its /readyz (default /healthz of server.addr)")
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	caFileFlag(f, cmd)
	return cmd
}

func healthcheckRun(ctx context.Context, f *Factory, opts *healthcheckOptions) error {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	target := readyURL(opts.URL)
	if target == "" {
		var err error
		if target, err = healthURL(scheme(f.Config()), f.Config().Server.Addr); err != nil {
			return err
		}
		// The certificate names the public host, not this address; the
		// request carries no secret and trusts nothing in the answer.
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
	} else {
		roots, err := f.rootCAs()
		if err != nil {
			return err
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: roots}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Timeout: opts.Timeout, Transport: tr}).Do(req)
	if err != nil {
		return &codedError{code: ExitError, err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &codedError{code: ExitError, err: fmt.Errorf("unhealthy: GET %s answered %s, want 200", target, resp.Status)}
	}
	// Any web server answers 200 somewhere; vds says {"status": "ok"} at
	// /healthz and {"status": "ready"} at /readyz.
	var body struct{ Status string }
	if json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body) != nil || (body.Status != "ok" && body.Status != "ready") {
		return &codedError{code: ExitError, err: fmt.Errorf("unhealthy: GET %s answered %s without vds's health answer: is this a vds server?", target, resp.Status)}
	}
	_, err = fmt.Fprintf(f.IO.Out, "healthy: GET %s answered %s\n", target, resp.Status)
	return err
}

// readyURL is raw's /readyz, or raw when it names /healthz or /readyz.
func readyURL(raw string) string {
	u, err := url.Parse(raw)
	if raw == "" || err != nil || strings.HasSuffix(u.Path, "/healthz") || strings.HasSuffix(u.Path, "/readyz") {
		return raw
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/readyz"
	return u.String()
}

// healthURL is the /healthz of a server listening on addr, reached with
// scheme; a server on all interfaces (no host, 0.0.0.0 or ::) is asked on
// loopback.
func healthURL(scheme, addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("server.addr %q is not HOST:PORT: %w", addr, err)
	}
	if port == "0" {
		return "", errors.New("server.addr has port 0 (any free port), which names no server to check: give --url")
	}
	switch ip := net.ParseIP(host); {
	case host == "", ip != nil && ip.IsUnspecified() && ip.To4() != nil:
		host = "127.0.0.1"
	case ip != nil && ip.IsUnspecified():
		host = "::1"
	}
	return scheme + net.JoinHostPort(host, port) + "/healthz", nil
}

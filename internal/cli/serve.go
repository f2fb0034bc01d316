package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/credentials"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/memlimit"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store"
)

type serveOptions struct {
	Demo bool
}

func newServeCmd(f *Factory, runF func(*serveOptions) error) *cobra.Command {
	opts := &serveOptions{}
	cmd := noArgsCmd(f, opts, runF, serveRun, &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--mcp-addr ADDR] [--admin-addr ADDR] [--database URL] [--demo]",
		Short: "Run the REST API",
		Long: `Run the vds server: the REST API under /v1, the Model Context Protocol
at POST /mcp (same token, same quota), /healthz and /readyz. --mcp-addr
serves MCP and /healthz alone on a second address as well. --admin-addr
serves Prometheus metrics at /metrics and Go profiles at /debug/pprof/ on
an address of their own (keep it private, e.g. 127.0.0.1:9090); the public
addresses never serve them. With server.tls_cert_file and
server.tls_key_file every listener serves HTTPS, and HTTP/2 to clients
that offer it; SIGHUP, or a change of either file, loads them again.

The catalog is answered from memory; a new catalog version published by
vds ingest (on this or any replica) is picked up within server.catalog_poll.
SIGINT or SIGTERM shuts down gracefully: requests in flight finish and usage
counts are written before exit. Logs go to stderr: key=value text on a
terminal, JSON lines otherwise (--log-format, config log.format).

--demo gets a newcomer a working API in one command: on an empty database it
ingests the demo catalog; it creates the account demo@vds.local on the
developer plan if missing, prints a token for it and stores the token and
this server's URL in $XDG_CONFIG_HOME/vds/credentials for the client commands.
It then prints where the REST API, the dashboard and MCP answer (the
addresses it bound) and the command that sets the demo account's dashboard
password.`,
		Example: `  vds serve --demo
  VDS_DATABASE_URL=postgres://vds@db/vds vds serve --addr 0.0.0.0:8080`,
	})
	cmd.Flags().String("addr", "", "listen address (default 127.0.0.1:8080, config server.addr)")
	_ = f.v.BindPFlag("server.addr", cmd.Flags().Lookup("addr"))
	cmd.Flags().String("mcp-addr", "", "also serve MCP (POST /mcp) alone on this address (config server.mcp_addr)")
	_ = f.v.BindPFlag("server.mcp_addr", cmd.Flags().Lookup("mcp-addr"))
	cmd.Flags().String("admin-addr", "", "serve /metrics and /debug/pprof/ on this private address (config server.admin_addr)")
	_ = f.v.BindPFlag("server.admin_addr", cmd.Flags().Lookup("admin-addr"))
	cmd.Flags().String("log-format", "", "log lines as text or json (default text on a terminal, else json; config log.format)")
	_ = f.v.BindPFlag("log.format", cmd.Flags().Lookup("log-format"))
	_ = cmd.RegisterFlagCompletionFunc("log-format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	cmd.Flags().BoolVar(&opts.Demo, "demo", false, "load the demo catalog and a demo account with a stored token")
	return cmd
}

// logFormat resolves log.format auto: text for a person at a terminal,
// JSON lines for a collector.
func logFormat(format string, tty bool) string {
	switch {
	case format != "auto":
		return format
	case tty:
		return "text"
	}
	return "json"
}

func newLogger(c *config.Config, f *Factory) *slog.Logger {
	return slog.New(newLogHandler(c, f.IO.ErrOut))
}

func newLogHandler(c *config.Config, w io.Writer) slog.Handler {
	opts := &slog.HandlerOptions{Level: logLevel(c)}
	if c.Log.Format == "text" {
		return slog.NewTextHandler(w, opts)
	}
	return slog.NewJSONHandler(w, opts)
}

// newAccessLog writes the access lines to w as newLogHandler would.
func newAccessLog(c *config.Config, w io.Writer) *edge.AccessLog {
	format := edge.JSONLines
	if c.Log.Format == "text" {
		format = edge.TextLines
	}
	return edge.BufferedAccessLog(w, format, logLevel(c))
}

func logLevel(c *config.Config) slog.Level {
	var lvl slog.Level
	_ = lvl.UnmarshalText([]byte(c.Log.Level))
	return lvl
}

func serveRun(ctx context.Context, f *Factory, opts *serveOptions) error {
	cfg := f.Config()
	cfg.Log.Format = logFormat(cfg.Log.Format, f.IO.ErrTTY)
	log := newLogger(cfg, f)
	memlimit.Apply(os.DirFS("/"), cfg.Server.MemoryLimitRatio, log)
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Server.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Server.Addr, err)
	}
	defer ln.Close()
	lns := server.Listeners{Public: ln}
	for _, l := range []struct {
		addr string
		ln   *net.Listener
	}{{cfg.Server.MCPAddr, &lns.MCP}, {cfg.Server.AdminAddr, &lns.Admin}} {
		if l.addr == "" {
			continue
		}
		if *l.ln, err = net.Listen("tcp", l.addr); err != nil {
			return fmt.Errorf("listen on %s: %w", l.addr, err)
		}
		defer (*l.ln).Close()
	}
	if lns.Admin != nil && !loopback(lns.Admin.Addr()) {
		log.Warn("the admin listener is not on a loopback address: keep it away from the public, it serves profiles", "admin_addr", lns.Admin.Addr().String())
	}
	var demo demoAccount
	if opts.Demo {
		if demo, err = setUpDemo(ctx, f, st, scheme(cfg)+ln.Addr().String()); err != nil {
			return fmt.Errorf("demo set-up: %w", err)
		}
	}
	access := newAccessLog(cfg, f.IO.ErrOut)
	srv, err := server.New(ctx, cfg, st, log, server.WithAccessLog(access))
	if err != nil {
		access.Close()
		return err
	}
	if opts.Demo {
		demoBanner(f.IO.Out, cfg, lns, demo)
	}
	return srv.ServeListeners(ctx, lns)
}

// demoAccount is what the banner of --demo says about the demo account.
type demoAccount struct {
	plan        string
	passwordSet bool
}

// demoBanner tells a newcomer where everything is. It names the bound
// addresses, so --addr 127.0.0.1:0 prints the port it got.
func demoBanner(w io.Writer, cfg *config.Config, lns server.Listeners, demo demoAccount) {
	base := scheme(cfg) + lns.Public.Addr().String()
	mcp := base + "/mcp"
	if lns.MCP != nil {
		mcp += " and " + scheme(cfg) + lns.MCP.Addr().String() + "/mcp"
	}
	mcp += " (the same token)"
	password := "none yet; to sign in to the dashboard, set one with"
	if demo.passwordSet {
		password = "set; to change it"
	}
	cmd := runnable(os.Args[0]) + " accounts set-password " + DemoEmail
	if cfg.Database.URL != config.DefaultDatabaseURL() {
		cmd += " (with this server's --database or VDS_DATABASE_URL)"
	}
	fmt.Fprintf(w, "\nThe vds demo is running:\n"+
		"  REST API   %s/v1\n"+
		"  Dashboard  %s/dashboard/\n"+
		"  MCP        %s\n"+
		"  Account    %s (%s plan)\n"+
		"  Password   %s:\n"+
		"               %s\n", base, base, mcp, DemoEmail, demo.plan, password, cmd)
}

// runnable is how a shell here runs the vds that was started as arg0: its
// name when PATH finds this binary, else the path (bin/vds after make run).
func runnable(arg0 string) string {
	if !strings.ContainsRune(arg0, filepath.Separator) {
		return arg0
	}
	name := filepath.Base(arg0)
	found, err := exec.LookPath(name)
	if err != nil {
		return arg0
	}
	a, errA := os.Stat(arg0)
	b, errB := os.Stat(found)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return name
	}
	return arg0
}

// scheme is how clients reach the server's listeners.
func scheme(cfg *config.Config) string {
	if cfg.Server.TLSCertFile != "" {
		return "https://"
	}
	return "http://"
}

func loopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

// DemoEmail is the account --demo creates.
const DemoEmail = "demo@vds.local"

// setUpDemo loads the demo catalog into an empty database and makes sure
// the client credentials hold a working demo token for this server.
func setUpDemo(ctx context.Context, f *Factory, st store.Store, url string) (demoAccount, error) {
	if err := loadDemoCatalog(ctx, f, st); err != nil {
		return demoAccount{}, err
	}
	svc := access.New(st, f.Config().Plan, f.Config().PlanNames())
	acct, err := svc.Account(ctx, DemoEmail)
	if errors.Is(err, store.ErrNotFound) {
		acct, err = svc.CreateAccount(ctx, DemoEmail, "developer")
	}
	if err != nil {
		return demoAccount{}, err
	}
	demo := demoAccount{plan: acct.Plan}
	switch _, _, err := st.PasswordHash(ctx, DemoEmail); {
	case err == nil:
		demo.passwordSet = true
	case !errors.Is(err, store.ErrNotFound):
		return demoAccount{}, err
	}
	return demo, demoToken(ctx, f, st, svc, acct, url)
}

func loadDemoCatalog(ctx context.Context, f *Factory, st store.Store) error {
	v, err := st.CatalogVersion(ctx)
	if err != nil {
		return err
	}
	if v.Number == 0 {
		src, err := ingest.DemoSources()
		if err != nil {
			return err
		}
		c, kinds, err := ingest.Parse(src)
		if err != nil {
			return err
		}
		res, err := ingest.Run(ctx, st, c, kinds, ingest.Options{Source: "demo"})
		if err != nil {
			return err
		}
		fmt.Fprintf(f.IO.ErrOut, "loaded the demo catalog: %d cars, %d motorcycles, %d boats, %d tire fitments\n",
			res.Version.Counts.Cars, res.Version.Counts.Motorcycles, res.Version.Counts.Boats, res.Version.Counts.TireSizes)
	}
	return nil
}

// demoToken makes sure the client credentials hold a working token of the
// demo account for this server, printing a new one.
func demoToken(ctx context.Context, f *Factory, st store.Store, svc *access.Service, acct account.Account, url string) error {
	path := credentials.Path(config.ConfigDir())
	creds, err := credentials.Load(path)
	if err != nil {
		return err
	}
	// Keep a stored token that still works for the demo account, so
	// restarting the demo does not invalidate what clients hold; either way
	// the demo instance becomes the current one.
	if old := creds.Token(url); old != "" {
		if t, err := st.TokenByHash(ctx, account.HashSecret(old)); err == nil && t.Active() && t.AccountID == acct.ID {
			if err := creds.Set(url, old); err != nil {
				return err
			}
			fmt.Fprintf(f.IO.ErrOut, "demo account %s; token in %s\n", DemoEmail, path)
			return credentials.Save(path, creds)
		}
	}
	t, secret, err := svc.CreateToken(ctx, acct.ID, "demo")
	if err != nil {
		return err
	}
	if err := creds.Set(url, secret); err != nil {
		return err
	}
	if err := credentials.Save(path, creds); err != nil {
		return err
	}
	fmt.Fprintf(f.IO.Out, "Demo account %s (developer plan), token %s:\n\n  %s\n\nSaved with the URL %s in %s.\nTry: curl -H 'Authorization: Bearer %s' '%s/v1/cars?make=Toyota&model=Camry'\n",
		DemoEmail, t.ID, secret, url, path, secret, url)
	return nil
}

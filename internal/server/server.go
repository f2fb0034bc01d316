// Package server composes the vds HTTP server: the REST API under /v1, MCP
// at /mcp, the web dashboard under /dashboard/ (the root redirects there),
// health endpoints, the catalog snapshot that follows the database, the
// usage flusher and the dashboard's session sweeper; and runs them until
// the context ends.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/buildinfo"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/dashboard"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/mcptools"
	"github.com/vds-dev/vds/internal/signin"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
)

// Server is a configured vds server.
type Server struct {
	cfg     *config.Config
	st      store.Store
	log     *slog.Logger
	svc     *vehicle.Service
	limiter *limits.Limiter
	dash    *dashboard.Handler
	handler http.Handler
	// mcpHandler serves the --mcp-addr listener: /mcp and /healthz only.
	mcpHandler http.Handler
	// loadFailure is the newest published catalog version this server could
	// not load, while it answers from an older one; nil otherwise.
	loadFailure atomic.Pointer[catalogFailure]
}

// catalogFailure is a published catalog version that could not be loaded,
// as /readyz reports it.
type catalogFailure struct {
	Version int64  `json:"version"`
	Error   string `json:"error"`
	// snapshot is true when the records loaded but could not be indexed:
	// that depends on the version's data only, so retrying cannot help.
	snapshot bool
}

// New loads the catalog into memory and builds the handler tree.
func New(ctx context.Context, cfg *config.Config, st store.Store, log *slog.Logger) (*Server, error) {
	svc, err := LoadVehicles(ctx, st)
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg:     cfg,
		st:      st,
		log:     log,
		svc:     svc,
		limiter: limits.New(st, log),
	}
	auth := access.NewAuthenticator(st, cfg.Plan, cfg.Server.AuthCacheTTL)
	up := upstream.New(upstream.Config{VPICURL: cfg.Upstream.VPICURL, NHTSAURL: cfg.Upstream.NHTSAURL,
		Timeout: cfg.Upstream.Timeout, CacheTTL: cfg.Upstream.CacheTTL}, st, log)
	acc := access.New(st, cfg.Plan, cfg.PlanNames(), access.WithAuthenticator(auth))
	saved := lists.New(st)
	lk := lookup.New(s.svc, up)
	api := httpapi.New(s.svc, auth, s.limiter, saved, lk, log)
	// MCP tools call the services REST calls, and share its token check
	// and its limiter, hence its quota.
	mcpSrv := mcptools.NewServer(mcptools.Deps{Vehicles: s.svc, Lookup: lk, Lists: saved, Usage: s.limiter, Charger: s.limiter, Log: log},
		buildinfo.Get().Version)
	mcp := mcptools.Handler(mcpSrv, auth, s.limiter, log)
	healthz := func(w http.ResponseWriter, _ *http.Request) {
		writeStatus(w, http.StatusOK, map[string]any{"status": "ok"})
	}
	// The dashboard calls the same services, so a list saved there is what
	// /v1/lists and my_garage show, and its usage numbers are the limiter's.
	s.dash = dashboard.New(dashboard.Deps{Access: acc, Lists: saved, SignIn: signin.New(st, acc), Vehicles: s.svc, Limiter: s.limiter, Config: cfg, Log: log})
	mux := http.NewServeMux()
	api.Mount(mux)
	mux.Handle("/mcp", mcp)
	mux.Handle(dashboard.Prefix, s.dash)
	mux.HandleFunc("GET /{$}", dashboard.RedirectRoot)
	mux.HandleFunc("GET /healthz", healthz)
	mux.HandleFunc("GET /readyz", s.ready)
	mux.Handle("/", fallback(mux))
	s.handler = httpapi.Observe(log, httpapi.Gzip(plainPaths(mux)))
	mcpMux := http.NewServeMux()
	mcpMux.Handle("/mcp", mcp)
	mcpMux.HandleFunc("GET /healthz", healthz)
	mcpMux.Handle("/", fallback(mcpMux))
	s.mcpHandler = httpapi.Observe(log, httpapi.Gzip(plainPaths(mcpMux)))
	return s, nil
}

// LoadVehicles loads the stored catalog into a vehicle service.
func LoadVehicles(ctx context.Context, st store.CatalogStore) (*vehicle.Service, error) {
	c, v, err := st.LoadCatalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	snap, err := vehicle.NewSnapshot(c, v)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	return vehicle.NewService(snap), nil
}

// Handler returns the server's root handler (for tests with httptest).
func (s *Server) Handler() http.Handler { return s.handler }

// CatalogVersion is the version the server is answering from.
func (s *Server) CatalogVersion() int64 { return s.svc.Snapshot().Version().Number }

func writeStatus(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// ready answers 200 when the store passes its check, 503 otherwise.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.st.Check(ctx); err != nil {
		s.log.Warn("not ready", "err", err)
		// Driver errors can name hosts and users; only a changed file is told.
		detail := "the database does not answer; the server log says why"
		if errors.Is(err, store.ErrFileChanged) {
			detail = err.Error()
		}
		writeStatus(w, http.StatusServiceUnavailable, map[string]any{"status": "unavailable", "reason": "database", "database_error": detail})
		return
	}
	body := map[string]any{"status": "ready", "catalog_version": s.CatalogVersion()}
	// Still ready: the server answers from the last version it loaded.
	if f := s.loadFailure.Load(); f != nil {
		body["catalog_error"] = f
	}
	writeStatus(w, http.StatusOK, body)
}

// Serve answers on ln until ctx ends, then shuts down gracefully: it stops
// accepting, lets requests in flight finish (up to shutdown_timeout), and
// flushes usage counts last so no charged call is lost.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	return s.ServeWithMCP(ctx, ln, nil)
}

// ServeWithMCP is Serve with, when mcpLn is not nil, a second listener
// that answers MCP and /healthz only (vds serve --mcp-addr). Both stop
// together: when ctx ends, or when either fails.
func (s *Server) ServeWithMCP(ctx context.Context, ln, mcpLn net.Listener) error {
	sc := s.cfg.Server
	newHTTP := func(h http.Handler) *http.Server {
		return &http.Server{
			Handler:           h,
			ReadHeaderTimeout: sc.ReadHeaderTimeout,
			ReadTimeout:       sc.ReadTimeout,
			WriteTimeout:      sc.WriteTimeout,
			IdleTimeout:       sc.IdleTimeout,
			MaxHeaderBytes:    16 << 10,
			ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		}
	}
	type served struct {
		hs *http.Server
		ln net.Listener
	}
	all := []served{{newHTTP(s.handler), ln}}
	if mcpLn != nil {
		all = append(all, served{newHTTP(s.mcpHandler), mcpLn})
	}
	bg, stopBG := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() { s.limiter.Run(bg, sc.UsageFlush) })
	wg.Go(func() { s.followCatalog(bg, sc.CatalogPoll) })
	wg.Go(func() { s.dash.Run(bg, sweepEvery) })

	errc := make(chan error, len(all))
	for _, sv := range all {
		go func() { errc <- sv.hs.Serve(problemListener{sv.ln, s.log}) }()
	}
	attrs := []any{"addr", ln.Addr().String(), "catalog_version", s.CatalogVersion(), "backend", s.st.Backend()}
	if mcpLn != nil {
		attrs = append(attrs, "mcp_addr", mcpLn.Addr().String())
	}
	s.log.Info("serving", attrs...)

	// Shut every listener down once one fails or ctx ends, then collect
	// what each Serve returned; the first real error is the answer.
	var errs []error
	pending := len(all)
	select {
	case err := <-errc:
		errs = append(errs, err)
		pending--
	case <-ctx.Done():
		s.log.Info("shutting down")
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sc.ShutdownTimeout)
	for _, sv := range all {
		errs = append(errs, sv.hs.Shutdown(sctx))
	}
	cancel()
	for ; pending > 0; pending-- {
		errs = append(errs, <-errc)
	}
	stopBG()
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	return nil
}

// sweepEvery is how often expired dashboard sessions and old sign-in
// counts are deleted; an expired session is refused when used whether or
// not it has been swept, so this only bounds the tables' size.
const sweepEvery = 10 * time.Minute

// followCatalog polls the published catalog version and swaps in a new
// snapshot when an ingest or enrich publishes one, on any replica.
func (s *Server) followCatalog(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.Reload(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("catalog reload failed; serving the previous version", "err", err)
			}
		}
	}
}

// Reload loads the catalog when its version differs from the one served.
// When the new version cannot be loaded the server keeps answering from the
// one it has, and /readyz reports the failure until a later version loads.
func (s *Server) Reload(ctx context.Context) error {
	latest, err := s.st.CatalogVersion(ctx)
	if err != nil {
		return err
	}
	if latest.Number == s.CatalogVersion() {
		return nil
	}
	if f := s.loadFailure.Load(); f != nil && f.snapshot && f.Version == latest.Number {
		return nil
	}
	start := time.Now()
	c, v, err := s.st.LoadCatalog(ctx)
	if err != nil {
		s.loadFailure.Store(&catalogFailure{Version: latest.Number, Error: err.Error()})
		return fmt.Errorf("load catalog version %d: %w", latest.Number, err)
	}
	snap, err := vehicle.NewSnapshot(c, v)
	if err != nil {
		s.loadFailure.Store(&catalogFailure{Version: v.Number, Error: err.Error(), snapshot: true})
		return err
	}
	s.svc.Swap(snap)
	s.loadFailure.Store(nil)
	s.log.Info("catalog reloaded", "catalog_version", v.Number, "records", c.Counts(), "duration_ms", time.Since(start).Milliseconds())
	return nil
}

// Package server composes and runs the vds HTTP server: REST /v1, MCP /mcp,
// the dashboard, health endpoints, the catalog snapshot that follows the
// database, the usage flusher and the session sweeper.
package server

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/apidocs"
	"github.com/vds-dev/vds/internal/buildinfo"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/dashboard"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/hin/micdata"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/mcptools"
	"github.com/vds-dev/vds/internal/metrics"
	"github.com/vds-dev/vds/internal/nhtsafile"
	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/signin"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/watch"
	"github.com/vds-dev/vds/internal/webhooks"
)

// Server is a configured vds server.
type Server struct {
	cfg     *config.Config
	st      store.Store
	log     *slog.Logger
	svc     *vehicle.Service
	limiter *limits.Limiter
	signin  *signin.Service
	lookup  *lookup.Service
	// vpicID is the vPIC snapshot served; 0 for none.
	vpicID atomic.Int64
	// micList describes the MIC list served; nil before the first load.
	micList atomic.Pointer[store.MICList]
	// vpicDate is the data date of that snapshot, a Unix time.
	vpicDate atomic.Int64
	// recallFiles names the NHTSA recall files served (ids and sha256s); "" for none.
	recallFiles atomic.Pointer[string]
	handler     http.Handler
	// mcpHandler serves the --mcp-addr listener: /mcp and /healthz only.
	mcpHandler http.Handler
	// adminHandler serves the --admin-addr listener: /metrics and /debug/pprof/.
	adminHandler http.Handler
	metrics      *metrics.Metrics
	access       *edge.AccessLog
	requests     *requestlog.Log
	hooks        *webhooks.Service
	// watch refreshes the garages' recalls and emits recall.new to hooks.
	watch *watch.Watch
	// garage tells this replica's MCP sessions subscribed to vds://garage of new recalls.
	garage *mcptools.GarageWatchers
	// loadFailure is the newest catalog version that failed to load; nil otherwise.
	loadFailure atomic.Pointer[catalogFailure]
	// certs, when server.tls_cert_file is set, makes every listener serve HTTPS.
	certs *certFiles
}

// catalogFailure is a catalog version that failed to load, for /readyz.
type catalogFailure struct {
	Version int64  `json:"version"`
	Error   string `json:"error"`
	// snapshot: the records loaded but did not index, so retrying cannot help.
	snapshot bool
}

// Option configures New.
type Option func(*Server)

// WithAccessLog writes the access log to a, instead of through the
// server's logger; Serve closes it when it returns.
func WithAccessLog(a *edge.AccessLog) Option {
	return func(s *Server) { s.access = a }
}

// New loads the catalog into memory and builds the handler tree.
func New(ctx context.Context, cfg *config.Config, st store.Store, log *slog.Logger, opts ...Option) (*Server, error) {
	svc, err := LoadVehicles(ctx, st)
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg:      cfg,
		st:       st,
		log:      log,
		svc:      svc,
		limiter:  limits.New(st, log),
		metrics:  metrics.New(),
		requests: requestlog.New(st, log),
		hooks: webhooks.New(st, webhooks.Options{RetryInitial: cfg.Webhooks.RetryInitial, Timeout: cfg.Webhooks.Timeout,
			AllowPrivate: cfg.Webhooks.AllowPrivate}, log),
	}
	for _, o := range opts {
		o(s)
	}
	if s.access == nil {
		s.access = edge.NewAccessLog(log.Handler(), nil)
	}
	if cfg.Server.TLSCertFile != "" {
		if s.certs, err = loadCertFiles(cfg.Server.TLSCertFile, cfg.Server.TLSKeyFile, log); err != nil {
			return nil, err
		}
	}
	s.registerState()
	auth := access.NewAuthenticator(st, cfg.Plan, cfg.Server.AuthCacheTTL)
	up := upstream.New(upstream.Config{VPICURL: cfg.Upstream.VPICURL, NHTSAURL: cfg.Upstream.NHTSAURL,
		Timeout: cfg.Upstream.Timeout, CacheTTL: cfg.Upstream.CacheTTL, Observer: s.metrics}, st, log)
	acc := access.New(st, cfg.Plan, cfg.PlanNames(), access.WithAuthenticator(auth))
	saved := lists.New(st)
	lk := lookup.New(s.svc, up, cfg.VIN.Decoder, cfg.Recalls.Source)
	s.lookup = lk
	saved.SetVINDecoder(lk.ListDecode)
	s.watch = watch.New(st, s.svc, lk.WatchRecalls(), watch.Events(s.hooks), s.metrics, watch.Config{Interval: cfg.Recalls.RefreshInterval}, log)
	// The snapshot loads before the first request (tens of milliseconds),
	// so no VIN is sent to NHTSA that the snapshot would have answered.
	switch cfg.VIN.Decoder {
	case "offline":
		// Nothing else can decode, so the snapshot must be there from the start.
		if err := s.reloadVPIC(ctx); err != nil {
			return nil, err
		}
		if s.vpicID.Load() == 0 {
			return nil, fmt.Errorf("vin.decoder is offline: %w", vpic.ErrNoSnapshot)
		}
	case "online":
	default:
		if err := s.reloadVPIC(ctx); err != nil {
			log.Warn("vPIC snapshot load failed; decoding VINs with NHTSA vPIC", "err", err)
		}
	}
	switch cfg.Recalls.Source {
	case "offline":
		if err := s.reloadRecalls(ctx); err != nil {
			return nil, fmt.Errorf("recalls.source is offline: %w", err)
		}
	case "online":
	default:
		if err := s.reloadRecalls(ctx); err != nil && !errors.Is(err, nhtsafile.ErrNoFiles) {
			log.Warn("NHTSA recall files load failed; answering recalls from NHTSA", "err", err)
		}
	}
	if err := s.reloadMICs(ctx); err != nil {
		// The embedded list decodes as well; the stored one follows on the next poll.
		log.Warn("MIC list load failed; decoding HINs with the embedded list", "err", err)
		lk.SetMICs(micdata.Decoder(), micdata.Source)
	}
	api := httpapi.New(s.svc, auth, s.limiter, saved, lk, log, httpapi.Options{
		PublicURL: cfg.Dashboard.PublicURL, CacheMaxAge: cfg.Server.CacheMaxAge, CORSOrigins: cfg.Server.CORSOrigins,
		RequestLog: s.requests, BodyCacheBytes: int64(cfg.Server.BodyCacheMB) << 20})
	s.registerBodyCache(api.BodyCacheStats)
	s.garage = mcptools.NewGarageWatchers(saved)
	mcpSrv := mcptools.NewServer(mcptools.Deps{Vehicles: s.svc, Lookup: lk, Lists: saved, Usage: s.limiter, Charger: s.limiter, Log: log, Calls: s.metrics,
		Garage: s.garage},
		buildinfo.Get().Version)
	mcp := mcptools.Handler(mcpSrv, auth, s.limiter, log)
	healthz := func(w http.ResponseWriter, _ *http.Request) {
		writeStatus(w, http.StatusOK, map[string]any{"status": "ok"})
	}
	s.signin = signin.New(st, acc)
	dash := dashboard.New(dashboard.Deps{Access: acc, Lists: saved, SignIn: s.signin, Vehicles: s.svc, Lookup: lk, Limiter: s.limiter, Config: cfg, Log: log,
		RequestLog: s.requests, Webhooks: s.hooks})
	mux := http.NewServeMux()
	api.Mount(mux)
	apiDocs().At(cfg.Dashboard.PublicURL).Mount(mux)
	mux.Handle("/mcp", mcp)
	mux.Handle(dashboard.Prefix, dash)
	mux.HandleFunc("GET /{$}", dashboard.RedirectRoot)
	mux.HandleFunc("GET /healthz", healthz)
	mux.HandleFunc("GET /readyz", s.ready)
	mux.Handle("/", fallback(mux))
	proxies, err := config.ParseProxies(cfg.Server.TrustedProxies)
	if err != nil {
		return nil, fmt.Errorf("server.trusted_proxies: %w", err)
	}
	obs := edge.Observer{Log: log, Access: s.access, Metrics: s.metrics, Requests: s.requests, TrustedProxies: proxies}
	var patterns []string
	for _, rt := range api.Routes() {
		patterns = append(patterns, rt.Pattern)
	}
	s.handler = edge.Observe(obs, edge.Compress(plainPaths(literalPaths(mux, patterns))))
	mcpMux := http.NewServeMux()
	mcpMux.Handle("/mcp", mcp)
	mcpMux.HandleFunc("GET /healthz", healthz)
	mcpMux.Handle("/", fallback(mcpMux))
	s.mcpHandler = edge.Observe(obs, edge.Compress(plainPaths(mcpMux)))
	s.adminHandler = adminMux(s.metrics.Handler())
	return s, nil
}

// apiDocs renders /docs and /llms.txt once per process: their sources,
// the OpenAPI document and the MCP tools, are compiled in.
var apiDocs = sync.OnceValue(func() *apidocs.Handler {
	doc, err := httpapi.OpenAPIDocument()
	if err != nil {
		panic("server: " + err.Error())
	}
	return apidocs.New(doc, httpapi.Samples(), mcptools.Tools(mcptools.Deps{}))
})

// LoadVehicles loads the stored catalog into a vehicle service.
func LoadVehicles(ctx context.Context, st store.CatalogStore) (*vehicle.Service, error) {
	c, v, err := st.LoadCatalog(ctx)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	snap, err := vehicle.NewSnapshotOwning(c, v)
	if err != nil {
		return nil, fmt.Errorf("load catalog: %w", err)
	}
	return vehicle.NewService(snap), nil
}

// Webhooks is the server's webhook service, whose dispatcher Serve runs.
func (s *Server) Webhooks() *webhooks.Service { return s.hooks }

// Handler returns the server's root handler (for tests with httptest).
func (s *Server) Handler() http.Handler { return s.handler }

// CatalogVersion is the version the server is answering from.
func (s *Server) CatalogVersion() int64 { return s.svc.Snapshot().Version().Number }

func writeStatus(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

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
	body := map[string]any{"status": "ready", "catalog_version": s.CatalogVersion(), "vin_decoder": s.lookup.Decoder(), "recalls_source": s.lookup.RecallSource()}
	// Still ready: the server answers from the last version it loaded.
	if f := s.loadFailure.Load(); f != nil {
		body["catalog_error"] = f
	}
	writeStatus(w, http.StatusOK, body)
}

// Serve answers on ln until ctx ends, then shuts down gracefully, flushing
// usage counts last so no charged call is lost.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	return s.ServeListeners(ctx, Listeners{Public: ln})
}

// ServeWithMCP is Serve plus, unless mcpLn is nil, a listener answering MCP
// and /healthz only (vds serve --mcp-addr); both stop when either fails.
func (s *Server) ServeWithMCP(ctx context.Context, ln, mcpLn net.Listener) error {
	return s.ServeListeners(ctx, Listeners{Public: ln, MCP: mcpLn})
}

// Listeners are what ServeListeners answers on; MCP and Admin may be nil.
type Listeners struct {
	// Public serves everything but the admin endpoints.
	Public net.Listener
	// MCP serves /mcp and /healthz only (vds serve --mcp-addr).
	MCP net.Listener
	// Admin serves /metrics and /debug/pprof/ only (vds serve --admin-addr).
	Admin net.Listener
}

// ServeListeners answers on every listener of l until ctx ends or one
// fails; then all shut down and the access and request logs are written out.
func (s *Server) ServeListeners(ctx context.Context, l Listeners) error {
	defer s.access.Close()
	defer s.requests.Close()
	ln, mcpLn := l.Public, l.MCP
	sc := s.cfg.Server
	newHTTP := func(h http.Handler) *http.Server {
		var (
			tc    *tls.Config
			proto *http.Protocols
		)
		if s.certs != nil {
			tc = s.certs.tlsConfig()
		} else if sc.H2C {
			proto = new(http.Protocols)
			proto.SetHTTP1(true)
			proto.SetUnencryptedHTTP2(true)
		}
		return &http.Server{
			TLSConfig:         tc,
			Protocols:         proto,
			Handler:           h,
			ReadHeaderTimeout: sc.ReadHeaderTimeout,
			ReadTimeout:       sc.ReadTimeout,
			WriteTimeout:      sc.WriteTimeout,
			IdleTimeout:       sc.IdleTimeout,
			MaxHeaderBytes:    maxHeaderBytes,
			// OPTIONS * goes through the edge: logged, with a request id.
			DisableGeneralOptionsHandler: true,
			ErrorLog:                     slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
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
	if l.Admin != nil {
		admin := newHTTP(s.adminHandler)
		// A CPU profile or trace runs for ?seconds= (30 by default).
		admin.WriteTimeout = 0
		all = append(all, served{admin, l.Admin})
	}
	bg, stopBG := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() { s.limiter.Run(bg, sc.UsageFlush) })
	wg.Go(func() { s.every(bg, sc.CatalogPoll, s.Reload, "catalog reload failed; serving the previous version") })
	if s.cfg.VIN.Decoder != "online" {
		wg.Go(func() {
			s.every(bg, sc.CatalogPoll, s.reloadVPIC, "vPIC snapshot reload failed; serving the previous one")
		})
	}
	if s.cfg.Recalls.Source != "online" {
		wg.Go(func() {
			s.every(bg, sc.CatalogPoll, func(ctx context.Context) error {
				if err := s.reloadRecalls(ctx); !errors.Is(err, nhtsafile.ErrNoFiles) {
					return err
				}
				return nil
			}, "NHTSA recall files reload failed; serving the previous ones")
		})
	}
	wg.Go(func() { s.every(bg, sc.CatalogPoll, s.reloadMICs, "MIC list reload failed; serving the previous one") })
	// The watch may run on another replica: its sightings are read from the store.
	wg.Go(func() { s.every(bg, sc.CatalogPoll, s.garage.Poll, "garage subscriptions poll failed; will retry") })
	wg.Go(func() { s.every(bg, sweepEvery, s.signin.Sweep, "dashboard sweep failed; will retry") })
	wg.Go(func() { s.hooks.Run(bg) })
	wg.Go(func() { tuneGC(bg, uint64(sc.GCHeadroomMB)<<20, s.log) })
	if s.cfg.Recalls.RefreshInterval > 0 {
		wg.Go(func() { s.watch.Run(bg) })
	}
	if s.certs != nil {
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		defer signal.Stop(hup)
		wg.Go(func() { s.certs.watch(bg, hup) })
	}

	errc := make(chan error, len(all))
	for _, sv := range all {
		go func() {
			if s.certs != nil {
				// problemListener would see ciphertext: net/http must hold
				// the *tls.Conn itself to negotiate HTTP/2 (ALPN).
				errc <- sv.hs.ServeTLS(sv.ln, "", "")
				return
			}
			errc <- sv.hs.Serve(problemListener{sv.ln, s.log})
		}()
	}
	attrs := []any{"addr", ln.Addr().String(), "catalog_version", s.CatalogVersion(), "backend", s.st.Backend(), "https", s.certs != nil}
	if mcpLn != nil {
		attrs = append(attrs, "mcp_addr", mcpLn.Addr().String())
	}
	if l.Admin != nil {
		attrs = append(attrs, "admin_addr", l.Admin.Addr().String())
	}
	s.log.Info("serving", attrs...)
	if s.certs != nil {
		s.certs.logServed("serving TLS certificate", "start")
	}

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

// MaxHead is the most a request line and headers may take together
// (docs/api.md): net/http reads MaxHeaderBytes plus 4 KiB of slack.
const MaxHead = 16 << 10

const maxHeaderBytes = MaxHead - 4<<10

// sweepEvery bounds the session tables' size; expired sessions are refused anyway.
const sweepEvery = 10 * time.Minute

// every calls fn each interval until ctx ends, logging failures. Every
// replica runs these: the work is idempotent.
func (s *Server) every(ctx context.Context, interval time.Duration, fn func(context.Context) error, failed string) {
	onTick(ctx, interval, func() {
		if err := fn(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn(failed, "err", err)
		}
	})
}

func onTick(ctx context.Context, interval time.Duration, fn func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}

// reloadVPIC loads the newest imported vPIC snapshot when it is not the one
// served, so every replica follows vds vpic import.
func (s *Server) reloadVPIC(ctx context.Context) error {
	meta, err := s.st.VPICSnapshot(ctx)
	if errors.Is(err, store.ErrNotFound) || err == nil && meta.ID == s.vpicID.Load() {
		return nil
	}
	if err != nil {
		return err
	}
	snap, err := vpic.Load(ctx, s.st)
	if err != nil {
		return err
	}
	s.lookup.SetOffline(snap)
	s.vpicID.Store(snap.Meta.ID)
	var date int64 // unknown
	if d, err := time.Parse(time.DateOnly, snap.Meta.DataDate); err == nil {
		date = d.Unix()
	}
	s.vpicDate.Store(date)
	s.log.Info("decoding VINs offline", "source", snap.Source(), "sha256", snap.Meta.SHA256)
	return nil
}

// reloadRecalls indexes the imported NHTSA recall and complaint files when
// they are not the ones served, so every replica follows vds ingest
// --source nhtsa-recalls. ErrNoFiles: no recall file (complaints may be loaded).
func (s *Server) reloadRecalls(ctx context.Context) error {
	files, err := s.st.NHTSAFiles(ctx)
	if err != nil {
		return err
	}
	var sig strings.Builder
	for _, f := range files {
		fmt.Fprintf(&sig, "%d:%s ", f.ID, f.SHA256)
	}
	if p := s.recallFiles.Load(); p != nil && *p == sig.String() {
		return nil
	}
	ix, err := nhtsafile.Load(ctx, s.st)
	if err != nil && !errors.Is(err, nhtsafile.ErrNoFiles) {
		return err
	}
	cix, cerr := nhtsafile.LoadComplaints(ctx, s.st)
	if cerr != nil && !errors.Is(cerr, nhtsafile.ErrNoComplaintFiles) {
		return cerr
	}
	if cix != nil {
		s.lookup.SetComplaintIndex(cix)
		s.log.Info("answering complaints offline", "source", cix.Source())
	}
	key := sig.String()
	s.recallFiles.Store(&key)
	if ix == nil {
		return err
	}
	s.lookup.SetRecallIndex(ix)
	s.log.Info("answering recalls offline", "source", ix.Source(), "files", len(ix.Files()))
	return nil
}

// reloadMICs loads the stored MIC list (the embedded one on a first start)
// when it is not the one served, so every replica follows vds hin import.
func (s *Server) reloadMICs(ctx context.Context) error {
	meta, dec, err := micdata.Load(ctx, s.st, s.micList.Load())
	if err != nil || meta == nil {
		return err
	}
	source := meta.Source
	if !meta.ImportedAt.IsZero() {
		source = "US Coast Guard MIC list from " + meta.Source + ", imported " + meta.ImportedAt.Format(time.DateOnly)
	}
	s.lookup.SetMICs(dec, source)
	s.micList.Store(meta)
	if !meta.ImportedAt.IsZero() {
		s.log.Info("decoding HINs with an imported MIC list", "mic_list", source, "codes", dec.Len())
	}
	return nil
}

// Reload loads the catalog when its version changed, keeping the old on failure.
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
	snap, err := vehicle.NewSnapshotOwning(c, v)
	if err != nil {
		s.loadFailure.Store(&catalogFailure{Version: v.Number, Error: err.Error(), snapshot: true})
		return err
	}
	s.svc.Swap(snap)
	s.loadFailure.Store(nil)
	s.log.Info("catalog reloaded", "catalog_version", v.Number, "records", c.Counts(), "duration_ms", time.Since(start).Milliseconds())
	return nil
}

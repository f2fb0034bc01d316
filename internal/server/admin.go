package server

import (
	"database/sql"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/metrics"
)

// adminMux serves the admin listener: /metrics and the net/http/pprof
// handlers, registered here only, never on the public mux; anything else 404.
func adminMux(metricsHandler http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metricsHandler)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// registerState adds the metrics read at scrape time: catalog, vPIC
// snapshot, database pool and dropped access log lines.
func (s *Server) registerState() {
	state := metrics.State{
		Catalog: func() catalog.Version { return s.svc.Snapshot().Version() },
		VPICDate: func() time.Time {
			if d := s.vpicDate.Load(); d != 0 && s.vpicID.Load() != 0 {
				return time.Unix(d, 0)
			}
			return time.Time{}
		},
	}
	if db, ok := s.st.(interface{ Stats() sql.DBStats }); ok {
		state.DB = db.Stats
	}
	s.metrics.MustRegister(state, prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "vds_access_log_dropped_total", Help: "Access log lines dropped because the writer's queue was full.",
	}, func() float64 { return float64(s.access.Dropped()) }), prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "vds_request_log_dropped_total", Help: "Request log records dropped because the writer's queue was full.",
	}, func() float64 { return float64(s.requests.Dropped()) }), prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "vds_request_log_failed_total", Help: "Request log records lost to failed database writes.",
	}, func() float64 { return float64(s.requests.Failed()) }))
}

// registerBodyCache adds the answer cache's counters.
func (s *Server) registerBodyCache(stats func() httpapi.BodyCacheStats) {
	counter := func(name, help string, read func(httpapi.BodyCacheStats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(read(stats())) })
	}
	s.metrics.MustRegister(
		counter("vds_body_cache_hits_total", "Catalog and offline recall answers served from the answer cache (server.body_cache_mb).",
			func(c httpapi.BodyCacheStats) int64 { return c.Hits }),
		counter("vds_body_cache_misses_total", "Catalog and offline recall answers rendered because the answer cache did not hold them.",
			func(c httpapi.BodyCacheStats) int64 { return c.Misses }),
		counter("vds_body_cache_evictions_total", "Catalog answers dropped from the answer cache to stay within its size.",
			func(c httpapi.BodyCacheStats) int64 { return c.Evictions }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "vds_body_cache_bytes", Help: "Bytes the answer cache holds, compressed copies included."},
			func() float64 { return float64(stats().Bytes) }))
}

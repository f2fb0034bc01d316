package server

import (
	"database/sql"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/vds-dev/vds/internal/catalog"
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

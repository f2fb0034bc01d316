// Package metrics holds the Prometheus metrics of vds serve
// (docs/operations.md, Metrics): counters bumped on the request path,
// state read at scrape time.
package metrics

import (
	"maps"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
)

// Refusal reasons counted by vds_refusals_total: the problem codes (and
// MCP tool outcomes) that refuse a caller for its token, plan or usage.
var refusalReasons = []string{edge.CodeUnauthorized, edge.CodeAccountSuspended, edge.CodeNoAPIAccess, edge.CodeInsufficientScope,
	limits.CodeRateLimited, limits.CodeQuotaExceeded}

// durationBuckets reach below a millisecond: most answers come from memory.
var durationBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Metrics is the registry and the families vds updates as it serves.
type Metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	durations *prometheus.HistogramVec
	// served caches the children of requests and durations by label set,
	// copied on write: a request reads it without locks or allocation.
	served   atomic.Pointer[map[servedKey]servedChild]
	mu       sync.Mutex
	refusals map[string]prometheus.Counter
	tools    *prometheus.CounterVec
	fetches  *prometheus.CounterVec
	cache    *prometheus.CounterVec
	// The recall watch's passes, vehicle checks by outcome and campaigns found open.
	passes    prometheus.Counter
	checks    *prometheus.CounterVec
	campaigns prometheus.Counter
}

type servedKey struct {
	method, route string
	status        int
}

type servedChild struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// New returns metrics on a fresh registry with the Go and process collectors.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vds_http_requests_total", Help: "HTTP requests served, by method, route pattern and status.",
		}, []string{"method", "route", "status"}),
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "vds_http_request_duration_seconds", Help: "Time to serve an HTTP request, by method, route pattern and status.",
			Buckets: durationBuckets,
		}, []string{"method", "route", "status"}),
		refusals: map[string]prometheus.Counter{},
		tools: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vds_mcp_tool_calls_total", Help: "MCP tools/call requests, by tool and outcome.",
		}, []string{"tool", "outcome"}),
		fetches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vds_upstream_requests_total", Help: "Fetches from NHTSA (retries included), by service and outcome.",
		}, []string{"service", "outcome"}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vds_upstream_cache_answers_total", Help: "Upstream answers served from the cache, by service and result (hit: fresh; stale: NHTSA failed and an expired entry was served).",
		}, []string{"service", "result"}),
		passes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "vds_recall_watch_passes_total", Help: "Passes of the recall watch on this replica.",
		}),
		checks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "vds_recall_watch_vehicles_total", Help: "Vehicles (make, model, year) whose recalls the watch checked, by outcome (checked, failed).",
		}, []string{"outcome"}),
		campaigns: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "vds_recall_watch_campaigns_total", Help: "Recall campaigns the watch found open, summed over its checks.",
		}),
	}
	refusals := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "vds_refusals_total", Help: "Requests and tool calls refused for the token, plan, rate window or quota, by reason.",
	}, []string{"reason"})
	for _, r := range refusalReasons {
		m.refusals[r] = refusals.WithLabelValues(r)
	}
	m.served.Store(&map[servedKey]servedChild{})
	reg.MustRegister(m.requests, m.durations, refusals, m.tools, m.fetches, m.cache, m.passes, m.checks, m.campaigns,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// MustRegister adds collectors to the registry.
func (m *Metrics) MustRegister(cs ...prometheus.Collector) { m.reg.MustRegister(cs...) }

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Served counts a request and its duration (edge.RequestMetrics).
func (m *Metrics) Served(s edge.Served) {
	c := m.child(servedKey{method: knownMethod(s.Method), route: s.Route, status: s.Status})
	c.count.Inc()
	c.duration.Observe(s.Elapsed.Seconds())
	m.refused(s.Code)
}

func (m *Metrics) child(k servedKey) servedChild {
	if c, ok := (*m.served.Load())[k]; ok {
		return c
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cur := *m.served.Load()
	if c, ok := cur[k]; ok {
		return c
	}
	status := strconv.Itoa(k.status)
	c := servedChild{m.requests.WithLabelValues(k.method, k.route, status), m.durations.WithLabelValues(k.method, k.route, status)}
	next := maps.Clone(cur)
	next[k] = c
	m.served.Store(&next)
	return c
}

// knownMethod keeps arbitrary method names out of the labels.
func knownMethod(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "other"
}

// refused counts code when it is a refusal reason.
func (m *Metrics) refused(code string) {
	if c, ok := m.refusals[code]; ok {
		c.Inc()
	}
}

// ToolCall counts an MCP tools/call (mcptools.CallObserver); an outcome that is a refusal reason
// (rate_limited, quota_exceeded) counts as a refusal as well.
func (m *Metrics) ToolCall(tool, outcome string) {
	m.tools.WithLabelValues(tool, outcome).Inc()
	m.refused(outcome)
}

// UpstreamFetch counts a fetch from NHTSA (upstream.Observer).
func (m *Metrics) UpstreamFetch(service, outcome string) {
	m.fetches.WithLabelValues(service, outcome).Inc()
}

// UpstreamCached counts an answer from the cache, stale when NHTSA failed (upstream.Observer).
func (m *Metrics) UpstreamCached(service string, stale bool) {
	result := "hit"
	if stale {
		result = "stale"
	}
	m.cache.WithLabelValues(service, result).Inc()
}

// WatchPass counts a pass of the recall watch (watch.Observer).
func (m *Metrics) WatchPass() { m.passes.Inc() }

// WatchVehicle counts a vehicle the watch checked, by outcome (watch.Observer).
func (m *Metrics) WatchVehicle(outcome string) { m.checks.WithLabelValues(outcome).Inc() }

// WatchCampaigns counts the campaigns a check found open (watch.Observer).
func (m *Metrics) WatchCampaigns(n int) { m.campaigns.Add(float64(n)) }

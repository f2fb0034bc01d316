package metrics_test

import (
	"database/sql"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/metrics"
)

// TestServedConcurrently: requests from many goroutines land in one series
// per label set; unknown methods share one label.
func TestServedConcurrently(t *testing.T) {
	t.Parallel()
	m := metrics.New()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				m.Served(edge.Served{Method: "GET", Route: "GET /v1/cars", Status: 200 + i%2, Elapsed: time.Millisecond})
				m.Served(edge.Served{Method: "X-" + string(rune('A'+g)), Route: edge.Unmatched, Status: 405})
			}
		})
	}
	wg.Wait()
	m.Served(edge.Served{Method: "GET", Route: "GET /v1/me", Status: 429, Code: "rate_limited"})
	m.ToolCall("list_makes", "quota_exceeded")
	m.ToolCall("list_makes", "ok")
	m.UpstreamFetch("recalls", "timeout")
	m.UpstreamCached("recalls", true)
	m.WatchPass()
	m.WatchVehicle("checked")
	m.WatchVehicle("checked")
	m.WatchVehicle("failed")
	m.WatchCampaigns(3)

	want := `
# HELP vds_refusals_total Requests and tool calls refused for the token, plan, rate window or quota, by reason.
# TYPE vds_refusals_total counter
vds_refusals_total{reason="account_suspended"} 0
vds_refusals_total{reason="insufficient_scope"} 0
vds_refusals_total{reason="no_api_access"} 0
vds_refusals_total{reason="quota_exceeded"} 1
vds_refusals_total{reason="rate_limited"} 1
vds_refusals_total{reason="unauthorized"} 0
# HELP vds_http_requests_total HTTP requests served, by method, route pattern and status.
# TYPE vds_http_requests_total counter
vds_http_requests_total{method="GET",route="GET /v1/cars",status="200"} 400
vds_http_requests_total{method="GET",route="GET /v1/cars",status="201"} 400
vds_http_requests_total{method="GET",route="GET /v1/me",status="429"} 1
vds_http_requests_total{method="other",route="unmatched",status="405"} 800
# HELP vds_mcp_tool_calls_total MCP tools/call requests, by tool and outcome.
# TYPE vds_mcp_tool_calls_total counter
vds_mcp_tool_calls_total{outcome="ok",tool="list_makes"} 1
vds_mcp_tool_calls_total{outcome="quota_exceeded",tool="list_makes"} 1
# HELP vds_upstream_cache_answers_total Upstream answers served from the cache, by service and result (hit: fresh; stale: NHTSA failed and an expired entry was served).
# TYPE vds_upstream_cache_answers_total counter
vds_upstream_cache_answers_total{result="stale",service="recalls"} 1
# HELP vds_upstream_requests_total Fetches from NHTSA (retries included), by service and outcome.
# TYPE vds_upstream_requests_total counter
vds_upstream_requests_total{outcome="timeout",service="recalls"} 1
# HELP vds_recall_watch_passes_total Passes of the recall watch on this replica.
# TYPE vds_recall_watch_passes_total counter
vds_recall_watch_passes_total 1
# HELP vds_recall_watch_vehicles_total Vehicles (make, model, year) whose recalls the watch checked, by outcome (checked, failed).
# TYPE vds_recall_watch_vehicles_total counter
vds_recall_watch_vehicles_total{outcome="checked"} 2
vds_recall_watch_vehicles_total{outcome="failed"} 1
# HELP vds_recall_watch_campaigns_total Recall campaigns the watch found open, summed over its checks.
# TYPE vds_recall_watch_campaigns_total counter
vds_recall_watch_campaigns_total 3
`
	ts := httptest.NewServer(m.Handler())
	defer ts.Close()
	if err := testutil.ScrapeAndCompare(ts.URL, strings.NewReader(want),
		"vds_refusals_total", "vds_http_requests_total", "vds_mcp_tool_calls_total", "vds_upstream_requests_total", "vds_upstream_cache_answers_total",
		"vds_recall_watch_passes_total", "vds_recall_watch_vehicles_total", "vds_recall_watch_campaigns_total"); err != nil {
		t.Error(err)
	}
}

// TestState: the scrape-time gauges follow what the server holds.
func TestState(t *testing.T) {
	t.Parallel()
	published := time.Now().Add(-time.Hour)
	vpic := time.Time{}
	s := metrics.State{
		Catalog: func() catalog.Version {
			return catalog.Version{Number: 7, PublishedAt: published, Counts: catalog.Counts{Cars: 3, Boats: 1}}
		},
		VPICDate: func() time.Time { return vpic },
		DB: func() sql.DBStats {
			return sql.DBStats{OpenConnections: 4, InUse: 1, Idle: 3, WaitCount: 2, WaitDuration: 1500 * time.Millisecond}
		},
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(s)
	want := `
# HELP vds_catalog_records Records in the catalog version served, by kind.
# TYPE vds_catalog_records gauge
vds_catalog_records{kind="boat"} 1
vds_catalog_records{kind="car"} 3
vds_catalog_records{kind="motorcycle"} 0
vds_catalog_records{kind="tire_size"} 0
# HELP vds_catalog_version The catalog version served.
# TYPE vds_catalog_version gauge
vds_catalog_version 7
# HELP vds_db_in_use_connections Database connections in use.
# TYPE vds_db_in_use_connections gauge
vds_db_in_use_connections 1
# HELP vds_db_wait_seconds_total Time spent waiting for a free connection.
# TYPE vds_db_wait_seconds_total counter
vds_db_wait_seconds_total 1.5
`
	names := []string{"vds_catalog_records", "vds_catalog_version", "vds_db_in_use_connections", "vds_db_wait_seconds_total", "vds_vpic_snapshot_timestamp_seconds"}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	vpic = time.Date(2026, 2, 17, 0, 0, 0, 0, time.UTC)
	want += `# HELP vds_vpic_snapshot_timestamp_seconds Date of the NHTSA data in the vPIC snapshot decoding VINs, as a Unix time; absent without a snapshot.
# TYPE vds_vpic_snapshot_timestamp_seconds gauge
vds_vpic_snapshot_timestamp_seconds 1.7712864e+09
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "vds_catalog_age_seconds" {
			if age := mf.Metric[0].GetGauge().GetValue(); age < 3600 || age > 3700 {
				t.Errorf("catalog age %v, want about an hour", age)
			}
		}
	}
}

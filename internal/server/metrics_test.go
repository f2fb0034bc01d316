package server_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
)

// adminRun is a server listening on loopback with the admin listener.
type adminRun struct {
	public, admin string
	tokens        map[string]string // by plan
	logs          *lockedBuffer
	stop          func() error
}

func startAdmin(t *testing.T) (*adminRun, *server.Server) {
	t.Helper()
	ctx := context.Background()
	st, _ := storetest.DemoSQLite(t, false)
	fake := upstreamtest.New(t)
	cfg := &config.Config{
		Server: config.Server{CatalogPoll: time.Hour, UsageFlush: time.Hour, ShutdownTimeout: 2 * time.Second,
			ReadHeaderTimeout: 2 * time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 10 * time.Second, IdleTimeout: 2 * time.Second,
			BodyCacheMB: 1},
		Upstream: config.Upstream{VPICURL: fake.URL, NHTSAURL: fake.URL, Timeout: 5 * time.Second, CacheTTL: time.Hour},
		VIN:      config.VIN{Decoder: "online"},
		Plans: map[string]config.PlanLimits{"free": config.DefaultPlans["free"],
			"big": {APIAccess: true}, "tiny": {RatePerMinute: 1, APIAccess: true}},
	}
	r := &adminRun{tokens: map[string]string{}, logs: &lockedBuffer{}}
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	for _, plan := range []string{"big", "tiny"} {
		a, err := acc.CreateAccount(ctx, plan+"@example.com", plan)
		if err != nil {
			t.Fatal(err)
		}
		if _, r.tokens[plan], err = acc.CreateToken(ctx, a.ID, "t"); err != nil {
			t.Fatal(err)
		}
	}
	al := edge.NewAccessLog(slog.NewJSONHandler(r.logs, nil), nil)
	srv, err := server.New(ctx, cfg, st, slog.New(slog.DiscardHandler), server.WithAccessLog(al))
	if err != nil {
		t.Fatal(err)
	}
	listen := func() net.Listener {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return ln
	}
	lns := server.Listeners{Public: listen(), Admin: listen()}
	r.public, r.admin = "http://"+lns.Public.Addr().String(), "http://"+lns.Admin.Addr().String()
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.ServeListeners(sctx, lns) }()
	r.stop = func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			return fmt.Errorf("ServeListeners did not return")
		}
	}
	return r, srv
}

// newRequest builds a request with token (none if "") and header pairs.
func newRequest(t *testing.T, method, url, token, body string, header ...string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req
}

// send makes one request and returns its status.
func send(t *testing.T, method, url, token, body string, header ...string) int {
	t.Helper()
	resp, err := http.DefaultClient.Do(newRequest(t, method, url, token, body, header...))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// scrape reads the admin listener's /metrics.
func scrape(t *testing.T, admin string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/metrics: %d", resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return mfs
}

// series returns the family's series as "k=v,k=v" → value (counter, gauge,
// or a histogram's sample count).
func series(mfs map[string]*dto.MetricFamily, name string) map[string]float64 {
	out := map[string]float64{}
	mf, ok := mfs[name]
	if !ok {
		return out
	}
	for _, m := range mf.Metric {
		var labels []string
		for _, l := range m.Label {
			labels = append(labels, l.GetName()+"="+l.GetValue())
		}
		v := m.GetGauge().GetValue() + m.GetCounter().GetValue() + float64(m.GetHistogram().GetSampleCount()) + m.GetUntyped().GetValue()
		out[strings.Join(labels, ",")] = v
	}
	return out
}

// TestAdminListenerMetrics drives mixed traffic through the public
// listener and checks every metric family on the admin listener, that
// labels stay bounded whatever the raw paths, that pprof is only on the
// admin listener, and that the access log is written out on shutdown.
func TestAdminListenerMetrics(t *testing.T) {
	t.Parallel()
	r, srv := startAdmin(t)
	big, tiny := r.tokens["big"], r.tokens["tiny"]
	const distinct = 40
	for i := range distinct {
		// Distinct raw paths and queries for the same routes.
		if code := send(t, "GET", fmt.Sprintf("%s/v1/cars/%08d-0000-4000-8000-000000000000", r.public, i), big, ""); code != 404 {
			t.Fatalf("unknown car: %d", code)
		}
		if code := send(t, "GET", fmt.Sprintf("%s/v1/cars?make=Make%d", r.public, i), big, ""); code != 200 {
			t.Fatalf("list: %d", code)
		}
		if code := send(t, "GET", fmt.Sprintf("%s/v1/nope-%d?q=%d", r.public, i, i), big, ""); code != 404 {
			t.Fatalf("unknown endpoint: %d", code)
		}
		if code := send(t, "GET", fmt.Sprintf("%s/nothing/%d", r.public, i), "", ""); code != 404 {
			t.Fatalf("unknown page: %d", code)
		}
	}
	checks := []struct {
		method, path, token, body string
		status                    int
	}{
		{"GET", "/v1/cars?make=Toyota&api_key=sekrit", big, "", 400}, // unknown_parameter
		{"GET", "/v1/cars/makes", big, "", 200},
		{"GET", "/v1/cars/makes", big, "", 200}, // from the answer cache
		{"FOO", "/v1/cars", big, "", 405},
		{"GET", "/v1/me", "", "", 401},
		{"GET", "/v1/me", tiny, "", 200},
		{"GET", "/v1/me", tiny, "", 429},
		{"POST", "/mcp", big, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_makes","arguments":{"type":"car"}}}`, 200},
		{"GET", "/v1/vin/" + upstreamtest.KnownVIN, big, "", 200},
		{"GET", "/v1/vin/" + upstreamtest.KnownVIN, big, "", 200},
		{"GET", "/debug/pprof/", "", "", 404},
	}
	for _, c := range checks {
		if code := send(t, c.method, r.public+c.path, c.token, c.body,
			"Content-Type", "application/json", "MCP-Protocol-Version", "2025-11-25"); code != c.status {
			t.Fatalf("%s %s: %d, want %d", c.method, c.path, code, c.status)
		}
	}

	start := time.Now()
	mfs := scrape(t, r.admin)
	t.Logf("scrape after mixed traffic: %v", time.Since(start))

	want := map[string]float64{
		"method=GET,route=GET /v1/cars/{uuid},status=404": distinct,
		"method=GET,route=unmatched,status=404":           2*distinct + 1, // + public /debug/pprof/
		"method=GET,route=GET /v1/cars,status=200":        distinct,
		"method=GET,route=GET /v1/cars,status=400":        1,
		"method=GET,route=GET /v1/cars/makes,status=200":  2,
		"method=other,route=unmatched,status=405":         1,
		"method=GET,route=GET /v1/me,status=401":          1,
		"method=GET,route=GET /v1/me,status=200":          1,
		"method=GET,route=GET /v1/me,status=429":          1,
		"method=POST,route=/mcp,status=200":               1,
		"method=GET,route=GET /v1/vin/{vin},status=200":   2,
	}
	for _, family := range []string{"vds_http_requests_total", "vds_http_request_duration_seconds"} {
		got := series(mfs, family)
		if len(got) != len(want) {
			t.Errorf("%s: %d label sets, want %d (one per route and status exercised): %v", family, len(got), len(want), got)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s{%s} = %v, want %v", family, k, got[k], v)
			}
		}
	}
	for _, c := range []struct {
		family, labels string
		want           float64
	}{
		{"vds_refusals_total", "reason=rate_limited", 1},
		{"vds_refusals_total", "reason=unauthorized", 1},
		{"vds_refusals_total", "reason=quota_exceeded", 0},
		{"vds_mcp_tool_calls_total", "outcome=ok,tool=list_makes", 1},
		{"vds_upstream_requests_total", "outcome=ok,service=vpic", 1},
		{"vds_upstream_cache_answers_total", "result=hit,service=vpic", 1},
		{"vds_catalog_version", "", float64(srv.CatalogVersion())},
		{"vds_access_log_dropped_total", "", 0},
		{"vds_request_log_dropped_total", "", 0},
		// Every catalog request but the second makes: the 404s, the 400 and the 200s.
		{"vds_body_cache_misses_total", "", 2*distinct + 2},
		{"vds_body_cache_hits_total", "", 1},
		{"vds_body_cache_evictions_total", "", 0},
	} {
		got, ok := series(mfs, c.family)[c.labels]
		if !ok || got != c.want {
			t.Errorf("%s{%s} = %v (present %v), want %v", c.family, c.labels, got, ok, c.want)
		}
	}
	if records := series(mfs, "vds_catalog_records"); len(records) != 4 || records["kind=car"] < 1 || records["kind=boat"] < 1 {
		t.Errorf("vds_catalog_records = %v, want the demo's counts of the four kinds", records)
	}
	if age := series(mfs, "vds_catalog_age_seconds")[""]; age < 0 || age > 3600 {
		t.Errorf("vds_catalog_age_seconds = %v, want the seconds since the test ingested", age)
	}
	if n := series(mfs, "vds_body_cache_bytes")[""]; n < 1000 || n > 1<<20 {
		t.Errorf("vds_body_cache_bytes = %v, want the kept lists and makes, within 1 MiB", n)
	}
	if n := series(mfs, "vds_db_open_connections")[""]; n < 1 {
		t.Errorf("vds_db_open_connections = %v", n)
	}
	for _, family := range []string{"go_goroutines", "process_cpu_seconds_total", "vds_db_in_use_connections", "vds_db_waits_total"} {
		if _, ok := mfs[family]; !ok {
			t.Errorf("family %s missing", family)
		}
	}
	if _, ok := mfs["vds_vpic_snapshot_timestamp_seconds"]; ok {
		t.Error("vds_vpic_snapshot_timestamp_seconds without a vPIC snapshot")
	}

	for url, status := range map[string]int{
		r.admin + "/debug/pprof/":                  200,
		r.admin + "/debug/pprof/goroutine?debug=1": 200,
		r.admin + "/v1/me":                         404,
		r.admin + "/healthz":                       404,
		r.public + "/debug/pprof/goroutine":        404,
		r.public + "/metrics":                      404,
	} {
		if code := send(t, "GET", url, "", ""); code != status {
			t.Errorf("GET %s: %d, want %d", url, code, status)
		}
	}

	// The line of the last request before shutdown is written out.
	send(t, "GET", r.public+"/healthz", "", "", "X-Request-Id", "last-before-shutdown")
	if err := r.stop(); err != nil {
		t.Fatal(err)
	}
	logs := r.logs.String()
	if !strings.Contains(logs, `"request_id":"last-before-shutdown"`) {
		t.Error("the access line of the last request before shutdown is missing")
	}
	if strings.Contains(logs, "sekrit") || !strings.Contains(logs, `"query":"make=Toyota&api_key=REDACTED"`) ||
		!strings.Contains(logs, `"route":"GET /v1/cars"`) || strings.Contains(logs, big) {
		t.Errorf("access log: secrets or fields wrong:\n%s", logs)
	}
	// The admin listener logs nothing; the public one every request.
	if n, want := strings.Count(logs, `"msg":"request"`), 4*distinct+len(checks)+3; n != want {
		t.Errorf("%d access lines, want one per public request (%d)", n, want)
	}
}

package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/bench/bare"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// newDemoServer builds a server on a fresh SQLite store with the demo
// catalog and an account on an unlimited plan; it returns the handler and
// a token.
func newDemoServer(tb testing.TB) (http.Handler, string) {
	tb.Helper()
	st, _ := storetest.DemoSQLite(tb, false)
	return newServerOn(tb, st)
}

// newServerOn is newDemoServer on st.
func newServerOn(tb testing.TB, st store.Store) (http.Handler, string) {
	tb.Helper()
	ctx := context.Background()
	cfg := &config.Config{Plans: map[string]config.PlanLimits{
		"free":  config.DefaultPlans["free"],
		"bench": {APIAccess: true},
	}}
	// The answer cache as vds serve keeps it by default.
	cfg.Server.AuthCacheTTL, cfg.Server.BodyCacheMB = 2*time.Second, 64
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	a, err := acc.CreateAccount(ctx, "bench@example.com", "bench")
	if err != nil {
		tb.Fatal(err)
	}
	_, secret, err := acc.CreateToken(ctx, a.ID, "bench")
	if err != nil {
		tb.Fatal(err)
	}
	// The access log as vds serve writes it: in batches, to a file.
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	access := edge.BufferedAccessLog(devNull, edge.JSONLines, slog.LevelInfo)
	tb.Cleanup(func() { access.Close(); _ = devNull.Close() })
	srv, err := server.New(ctx, cfg, st, slog.New(slog.NewJSONHandler(io.Discard, nil)), server.WithAccessLog(access))
	if err != nil {
		tb.Fatal(err)
	}
	return srv.Handler(), secret
}

// BenchmarkHotPath measures the whole in-process request path (logging,
// auth, limits, query, encode) for the endpoints make bench drives.
func BenchmarkHotPath(b *testing.B) {
	h, token := newDemoServer(b)
	for _, path := range []string{"/v1/cars?make=Toyota", "/v1/cars/makes", "/v1/me"} {
		b.Run(path, func(b *testing.B) { benchGet(b, h, token, path) })
	}
	// As browsers, curl --compressed and Go's client ask: a cached gzip body.
	b.Run("/v1/cars?make=Toyota gzip", func(b *testing.B) { benchGet(b, h, token, "/v1/cars?make=Toyota", "gzip") })
	// make bench's bare handler in process, on that answer's bytes; the
	// difference is vds's own cost.
	b.Run("bare handler gzip", func(b *testing.B) {
		req := httptest.NewRequest(http.MethodGet, "/v1/cars?make=Toyota", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		benchGet(b, bare.Handler(w.Body.Bytes()), token, "/", "gzip")
	})
	// Clients on every core at once: what they share (locks, atomics) costs.
	b.Run("/v1/cars?make=Toyota gzip parallel", func(b *testing.B) {
		req := httptest.NewRequest(http.MethodGet, "/v1/cars?make=Toyota", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Accept-Encoding", "gzip")
		b.ReportAllocs()
		cpu := processCPU()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Errorf("%d %s", w.Code, w.Body)
					return
				}
			}
		})
		b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
	})
	// A client revalidating what it holds: a 304, nothing rendered.
	b.Run("/v1/cars?make=Toyota If-None-Match", func(b *testing.B) {
		req := httptest.NewRequest(http.MethodGet, "/v1/cars?make=Toyota", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		first := httptest.NewRecorder()
		h.ServeHTTP(first, req)
		req.Header.Set("If-None-Match", first.Header().Get("ETag"))
		b.ReportAllocs()
		for b.Loop() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusNotModified {
				b.Fatalf("%d %s", w.Code, w.Body)
			}
		}
	})
}

// benchGet measures answering GET path with a 200.
func benchGet(b *testing.B, h http.Handler, token, path string, acceptEncoding ...string) {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	for _, c := range acceptEncoding {
		req.Header.Set("Accept-Encoding", c)
	}
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, w.Code, w.Body)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

// processCPU is the CPU time the process has used, collector included:
// on a shared machine it moves less than the wall time ns/op reports.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkNew measures building a server on a loaded store: the handler
// tree, the OpenAPI document and the MCP tools, as each test server pays.
func BenchmarkNew(b *testing.B) {
	ctx := context.Background()
	st, _ := storetest.DemoSQLite(b, false)
	cfg := &config.Config{Plans: map[string]config.PlanLimits{"free": config.DefaultPlans["free"]}}
	log := slog.New(slog.DiscardHandler)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := server.New(ctx, cfg, st, log); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTireAnswers measures a plus-size answer next to a geometry
// answer of the same fitment, and a lookup by size, in one run.
func BenchmarkTireAnswers(b *testing.B) {
	h, token := newDemoServer(b)
	get := func(b *testing.B, path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, w.Code, w.Body)
		}
		return w
	}
	var list struct{ Data []struct{ UUID string } }
	if err := json.Unmarshal(get(b, "/v1/tire-sizes?make=Toyota&model=Camry").Body.Bytes(), &list); err != nil || len(list.Data) == 0 {
		b.Fatal("no Camry fitment", err)
	}
	fit := "/v1/tire-sizes/" + list.Data[0].UUID
	for _, path := range []string{fit + "/geometry", fit + "/plus-sizes", fit + "/plus-sizes?window=5",
		"/v1/tire-sizes/lookup?size=235/55R19", "/v1/tire-sizes/lookup?size=LT285/70R17&page=2"} {
		b.Run(path[len("/v1/tire-sizes/"):], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				get(b, path)
			}
		})
	}
}

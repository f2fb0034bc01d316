package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/postgres"
	"github.com/vds-dev/vds/internal/store/sqlite"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// readyBody is /readyz's answer.
type readyBody struct {
	Status         string `json:"status"`
	CatalogVersion int64  `json:"catalog_version"`
	CatalogError   *struct {
		Version int64  `json:"version"`
		Error   string `json:"error"`
	} `json:"catalog_error"`
}

// TestUnloadableCatalogVersion publishes, straight in SQL, a catalog version
// holding a number JSON cannot carry, under a running server on each store.
// It used to panic every server (PostgreSQL); now the server keeps
// answering from the version it has, /readyz names the broken record until
// a later version loads, and a server starting on it refuses with the same
// message instead of panicking.
func TestUnloadableCatalogVersion(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			ctx := context.Background()
			var (
				dsn string
				st  store.Store
				err error
			)
			if backend == "postgres" {
				dsn = storetest.PostgresURL(t)
				st, err = postgres.Open(ctx, dsn)
			} else {
				dsn = filepath.Join(t.TempDir(), "vds.db")
				st, err = sqlite.Open(dsn)
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			storetest.LoadDemo(t, st)
			srv, cfg, token := newListening(t, st, 20*time.Millisecond)
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			sctx, stop := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() { done <- srv.Serve(sctx, ln) }()
			t.Cleanup(func() {
				stop()
				if err := <-done; err != nil {
					t.Errorf("Serve: %v", err)
				}
			})
			base := "http://" + ln.Addr().String()
			ready := func() readyBody {
				t.Helper()
				resp, err := http.Get(base + "/readyz")
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				var b readyBody
				if err := json.NewDecoder(resp.Body).Decode(&b); err != nil {
					t.Fatal(err)
				}
				if resp.StatusCode != http.StatusOK || b.Status != "ready" {
					t.Fatalf("/readyz: %d %+v, want 200 ready", resp.StatusCode, b)
				}
				return b
			}
			waitReady := func(what string, ok func(readyBody) bool) readyBody {
				t.Helper()
				deadline := time.Now().Add(10 * time.Second)
				for {
					b := ready()
					if ok(b) {
						return b
					}
					if time.Now().After(deadline) {
						t.Fatalf("/readyz never showed %s; last %+v", what, b)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}

			id, bad, err := storetest.PublishDisplacement(ctx, dsn, storetest.Unloadable(dsn))
			if err != nil {
				t.Fatal(err)
			}
			b := waitReady("the catalog error", func(b readyBody) bool { return b.CatalogError != nil })
			if b.CatalogVersion != 1 || b.CatalogError.Version != bad ||
				!strings.Contains(b.CatalogError.Error, "car "+id+" (") || !strings.Contains(b.CatalogError.Error, "json: unsupported value") {
				t.Fatalf("/readyz = %+v; want catalog_version 1 and an error naming car %s of version %d", b, id, bad)
			}
			// Still answering, from version 1, where the car is fine.
			req, _ := http.NewRequest(http.MethodGet, base+"/v1/cars/"+id, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var car struct {
				Data struct {
					UUID          string   `json:"uuid"`
					DisplacementL *float64 `json:"displacement_l"`
				} `json:"data"`
			}
			err = json.NewDecoder(resp.Body).Decode(&car)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK || car.Data.UUID != id || car.Data.DisplacementL == nil {
				t.Fatalf("GET /v1/cars/%s: %d %+v %v", id, resp.StatusCode, car, err)
			}

			// A server starting now refuses, naming the record.
			_, err = server.New(ctx, cfg, st, slog.New(slog.DiscardHandler))
			if err == nil || !strings.Contains(err.Error(), "car "+id+" (") {
				t.Fatalf("server.New on the broken version: %v, want an error naming car %s", err, id)
			}

			// A later, good version loads and clears the report.
			_, fixed, err := storetest.PublishDisplacement(ctx, dsn, "3.5")
			if err != nil {
				t.Fatal(err)
			}
			b = waitReady("the repaired version", func(b readyBody) bool { return b.CatalogVersion == fixed })
			if b.CatalogError != nil {
				t.Fatalf("/readyz still reports %+v after version %d loaded", b.CatalogError, fixed)
			}
		})
	}
}

// newListening returns a server over st for a real listener, with short
// timeouts and the given catalog poll, its config, and a token on the free
// plan of a new account.
func newListening(t *testing.T, st store.Store, catalogPoll time.Duration) (*server.Server, *config.Config, string) {
	t.Helper()
	ctx := context.Background()
	cfg := &config.Config{
		Server: config.Server{CatalogPoll: catalogPoll, UsageFlush: time.Hour, ShutdownTimeout: time.Second,
			ReadHeaderTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second, IdleTimeout: time.Second},
		Plans: map[string]config.PlanLimits{"free": config.DefaultPlans["free"]},
	}
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	a, err := acc.CreateAccount(ctx, "a@example.com", "free")
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := acc.CreateToken(ctx, a.ID, "t")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, cfg, st, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return srv, cfg, token
}

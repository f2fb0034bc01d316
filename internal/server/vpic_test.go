package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/access/accesstest"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// With vin.decoder offline the server decodes from the imported snapshot
// and never needs NHTSA: its address here is a port nothing listens on.
func TestOfflineVINDecoding(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	cfg := &config.Config{Plans: map[string]config.PlanLimits{"free": config.DefaultPlans["free"]}}
	cfg.Upstream = config.Upstream{VPICURL: "http://127.0.0.1:1", NHTSAURL: "http://127.0.0.1:1", Timeout: time.Second, CacheTTL: time.Hour}
	cfg.VIN.Decoder = "offline"
	log := slog.New(slog.DiscardHandler)

	if _, err := server.New(ctx, cfg, st, log); !errors.Is(err, vpic.ErrNoSnapshot) {
		t.Fatalf("offline without a snapshot: got %v, want ErrNoSnapshot", err)
	}
	if _, err := vpic.Import(ctx, st, vpictest.Subset(t, 2, "1FT"), time.Now()); err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, cfg, st, log)
	if err != nil {
		t.Fatal(err)
	}
	token := accesstest.Create(t, access.New(st, cfg.Plan, cfg.PlanNames()), map[string]string{"dev": "free"})["dev"].Token
	req := httptest.NewRequest(http.MethodGet, "/v1/vin/"+upstreamtest.KnownVIN, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	srv.Handler().ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var body struct {
		Data struct {
			Make, Model, Source string
			ModelYear           int `json:"model_year"`
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if d := body.Data; d.Make != "Ford" || d.Model != "F-150" || d.ModelYear != 2021 || d.Source != "vPIC snapshot 2026-02-17" {
		t.Errorf("got %+v", d)
	}
}

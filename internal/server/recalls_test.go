package server_test

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/access/accesstest"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/nhtsafile"
	"github.com/vds-dev/vds/internal/nhtsafile/nhtsafiletest"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/watch"
)

// recallRig is a server of the demo catalog with recalls.source offline
// and the captured Jeep Wrangler recalls and complaints imported.
type recallRig struct {
	srv   *server.Server
	st    store.Store
	token string
	c     *catalog.Catalog
}

// newRecallRig starts a recallRig, NHTSA at nhtsaURL, its configuration
// changed by tune when not nil.
func newRecallRig(tb testing.TB, nhtsaURL string, tune func(*config.Config)) recallRig {
	tb.Helper()
	ctx := context.Background()
	st, c := storetest.DemoSQLite(tb, false)
	cfg := &config.Config{Plans: map[string]config.PlanLimits{"small": {APIAccess: true}}}
	cfg.Upstream = config.Upstream{VPICURL: nhtsaURL, NHTSAURL: nhtsaURL, EPAURL: nhtsaURL, Timeout: time.Second, CacheTTL: time.Hour}
	cfg.Recalls.Source = "offline"
	cfg.Server.AuthCacheTTL, cfg.Server.BodyCacheMB = 2*time.Second, 64
	if tune != nil {
		tune(cfg)
	}
	log := slog.New(slog.DiscardHandler)
	if _, err := server.New(ctx, cfg, st, log); err == nil || !strings.Contains(err.Error(), "recalls.source is offline") {
		tb.Fatalf("offline without files: %v", err)
	}
	files := []string{nhtsafiletest.File(tb, tb.TempDir()), nhtsafiletest.ComplaintsFile(tb, tb.TempDir(), upstreamtest.ComplaintYears)}
	if _, err := nhtsafile.Import(ctx, st, files, nhtsafile.Options{Now: time.Now()}); err != nil {
		tb.Fatal(err)
	}
	srv, err := server.New(ctx, cfg, st, log)
	if err != nil {
		tb.Fatal(err)
	}
	token := accesstest.Create(tb, access.New(st, cfg.Plan, cfg.PlanNames()), map[string]string{"dev": "small"})["dev"].Token
	return recallRig{srv: srv, st: st, token: token, c: c}
}

// recallServer is newRecallRig's handler, token and catalog.
func recallServer(tb testing.TB, nhtsaURL string) (http.Handler, string, *catalog.Catalog) {
	r := newRecallRig(tb, nhtsaURL, nil)
	return r.srv.Handler(), r.token, r.c
}

// With every upstream address a closed port, recalls still answer from the
// imported files, with their source and data date; ratings say they are
// unavailable rather than failing the answer.
func TestRecallsWithNHTSAUnreachable(t *testing.T) {
	t.Parallel()
	h, token, c := recallServer(t, "http://127.0.0.1:1")
	var ready struct {
		RecallsSource string `json:"recalls_source"`
	}
	if w := get(t, h, "", "/readyz", &ready); w.Code != http.StatusOK || !strings.HasPrefix(ready.RecallsSource, "NHTSA recall files 20") {
		t.Errorf("/readyz: %d %s", w.Code, w.Body)
	}
	found := 0
	for _, car := range c.Cars {
		if car.Make != "Jeep" || car.Model != "Wrangler" || (car.Year != 2020 && car.Year != 2024) {
			continue
		}
		found++
		var body struct {
			Data struct {
				Recalls []struct {
					CampaignNumber string `json:"campaign_number"`
					ReportDate     string `json:"report_date"`
				}
				Source             string
				DataDate           string `json:"data_date"`
				RatingsUnavailable bool   `json:"ratings_unavailable"`
			}
		}
		w := get(t, h, token, "/v1/cars/"+car.UUID.String()+"/recalls", &body)
		if w.Code != http.StatusOK {
			t.Fatalf("%d Wrangler: %d %s", car.Year, w.Code, w.Body)
		}
		d := body.Data
		if len(d.Recalls) != len(nhtsafiletest.Captured(t, car.Year)) || !strings.HasPrefix(d.Source, "NHTSA recall files ") || d.DataDate < "2024-01-01" || !d.RatingsUnavailable {
			t.Errorf("%d Wrangler: %s", car.Year, w.Body)
		}
		if len(d.Recalls[0].ReportDate) != 10 || d.Recalls[0].ReportDate[4] != '-' {
			t.Errorf("report date %q is not ISO 8601", d.Recalls[0].ReportDate)
		}
	}
	if found != 2 {
		t.Fatalf("demo catalog: %d Wranglers of 2020 and 2024, want 2", found)
	}
	var moto struct {
		Data struct {
			Recalls []any
			Source  string
		}
	}
	if w := get(t, h, token, "/v1/motorcycles/"+c.Motorcycles[0].UUID.String()+"/recalls", &moto); w.Code != http.StatusOK || moto.Data.Recalls == nil || len(moto.Data.Recalls) != 0 {
		t.Errorf("a motorcycle absent from the files: %d %s", w.Code, w.Body)
	}
}

// With every upstream address a closed port, complaints answer from the
// imported complaint file, paged, with totals over all pages.
func TestComplaintsWithNHTSAUnreachable(t *testing.T) {
	t.Parallel()
	h, token, c := recallServer(t, "http://127.0.0.1:1")
	var jeep string
	for _, car := range c.Cars {
		if car.Make == "Jeep" && car.Model == "Wrangler" && car.Year == 2020 {
			jeep = car.UUID.String()
		}
	}
	var body struct {
		Data struct {
			Complaints []struct {
				ReceivedDate string `json:"received_date"`
			}
			Meta   vehicle.Meta
			Totals lookup.ComplaintTotals
			Source string
		}
	}
	w := get(t, h, token, "/v1/cars/"+jeep+"/complaints?page=2&per_page=5", &body)
	d := body.Data
	if want := len(nhtsafiletest.CapturedComplaints(t, 2020)); w.Code != http.StatusOK || d.Totals.Complaints != want || d.Meta.Total != want ||
		len(d.Complaints) != 5 || d.Meta.Page != 2 || !strings.HasPrefix(d.Source, "NHTSA complaint files 20") {
		t.Fatalf("2020 Wrangler: %d %.300s", w.Code, w.Body)
	}
	if r := d.Complaints[0].ReceivedDate; len(r) != 10 || r[4] != '-' {
		t.Errorf("received date %q is not ISO 8601", r)
	}
	if w := get(t, h, token, "/v1/motorcycles/"+c.Motorcycles[0].UUID.String()+"/complaints", &body); w.Code != http.StatusOK || len(body.Data.Complaints) != 0 || body.Data.Totals.Complaints != 0 {
		t.Errorf("a motorcycle absent from the files: %d %s", w.Code, w.Body)
	}
}

// BenchmarkRecallsOffline sets an offline recall answer beside the catalog
// record answer of the same vehicle (issue 30: it may cost no more). The
// car's answer adds NCAP ratings, which NHTSA's fake gives and the cache keeps.
// Each is asked plain and, as real clients ask, with gzip.
func BenchmarkRecallsOffline(b *testing.B) {
	h, token, c := recallServer(b, upstreamtest.New(b).URL)
	var jeep string
	for _, car := range c.Cars {
		if car.Make == "Jeep" && car.Model == "Wrangler" && car.Year == 2020 {
			jeep = car.UUID.String()
		}
	}
	moto := c.Motorcycles[0].UUID.String()
	for _, path := range []string{"/v1/cars/" + jeep, "/v1/cars/" + jeep + "/recalls", "/v1/motorcycles/" + moto, "/v1/motorcycles/" + moto + "/recalls"} {
		name := strings.Replace(strings.Replace(path, jeep, "{jeep}", 1), moto, "{moto}", 1)
		b.Run(name, func(b *testing.B) { benchGet(b, h, token, path) })
		b.Run(name+",gzip", func(b *testing.B) { benchGet(b, h, token, path, "gzip") })
	}
}

// The garage's watch uses recalls.source too: with the files imported and
// every upstream address a closed port, a pass answers from the files.
func TestWatchWithNHTSAUnreachable(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st, c := storetest.DemoSQLite(t, false)
	if _, err := nhtsafile.Import(ctx, st, []string{nhtsafiletest.File(t, t.TempDir())}, nhtsafile.Options{Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	ix, err := nhtsafile.Load(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := vehicle.NewSnapshot(c, catalog.Version{})
	if err != nil {
		t.Fatal(err)
	}
	cars := vehicle.NewService(snap)
	closed := "http://127.0.0.1:1"
	up := upstream.New(upstream.Config{VPICURL: closed, NHTSAURL: closed, Timeout: time.Second}, st, slog.New(slog.DiscardHandler))
	lk := lookup.New(cars, up, "auto", "auto")
	lk.SetRecallIndex(ix)

	a := account.Account{ID: account.NewID("acc"), Email: "watch@example.com", Plan: "free", CreatedAt: time.Now()}
	if err := st.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	l, err := st.DefaultList(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, car := range c.Cars {
		if car.Make == "Jeep" && car.Model == "Wrangler" && car.Year == 2020 {
			if err := st.AddListItem(ctx, l.ID, account.ListItem{Kind: catalog.KindCar, UUID: car.UUID, AddedAt: time.Now()}); err != nil {
				t.Fatal(err)
			}
			want = len(nhtsafiletest.Captured(t, 2020))
		}
	}
	if want == 0 {
		t.Fatal("the demo catalog has no 2020 Jeep Wrangler")
	}
	w := watch.New(st, cars, lk.WatchRecalls(), nil, nil, watch.Config{}, slog.New(slog.DiscardHandler))
	res, err := w.Pass(ctx, watch.PassOptions{Force: true})
	if err != nil || res.Checked != 1 || res.Failed != 0 || res.Campaigns != want {
		t.Fatalf("pass: %+v, %v; want 1 checked, %d campaigns", res, err, want)
	}
	seen, err := st.ItemRecalls(ctx, a.ID)
	if err != nil || len(seen) != want {
		t.Errorf("recorded: %d sightings, %v; want %d", len(seen), err, want)
	}
}

package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/epa"
	testdata "github.com/vds-dev/vds/internal/fixture"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// scalePaths are the lists and taxonomies BenchmarkScale compares.
var scalePaths = []string{
	"/v1/cars?make=Toyota", "/v1/cars?q=camry", "/v1/cars/makes", "/v1/cars/models?make=Toyota", "/v1/cars/body-types",
	"/v1/motorcycles?make=Harley-Davidson", "/v1/motorcycles?motorcycle_type=Scooter", "/v1/motorcycles?q=street+glide",
	"/v1/motorcycles?q=rzr", "/v1/motorcycles/makes", "/v1/motorcycles/models?make=Harley-Davidson", "/v1/motorcycles/types",
}

// newScaleServer is newDemoServer with the catalog at full size: the EPA
// cars (ingest --source epa) and the vPIC snapshot's powersports catalog
// (ingest --source vpic) beside the demo's motorcycles, boats and tires.
func newScaleServer(b *testing.B) (http.Handler, string) {
	b.Helper()
	ctx := context.Background()
	st, _ := storetest.DemoSQLite(b, false)
	tab, err := epa.Load(ctx, testdata.EPAZip(b), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	cars, err := epa.Cars(tab)
	if err != nil {
		b.Fatal(err)
	}
	off, err := vpic.Open(ctx, vpictest.File(b))
	if err != nil {
		b.Fatal(err)
	}
	motos, _ := off.Motorcycles()
	for _, step := range []struct {
		c    *catalog.Catalog
		kind catalog.Kind
		opts ingest.Options
	}{
		{&catalog.Catalog{Cars: cars}, catalog.KindCar, ingest.Options{Source: "epa", AllowRemovals: true}},
		{&catalog.Catalog{Motorcycles: motos}, catalog.KindMotorcycle, ingest.Options{Source: off.Source(), Prepare: ingest.KeepMotorcycles(false)}},
	} {
		if _, err := ingest.Run(ctx, st, step.c, []catalog.Kind{step.kind}, step.opts); err != nil {
			b.Fatal(err)
		}
	}
	return newServerOn(b, st)
}

// The full-size server takes seconds to build: -count runs share it.
var (
	scaleOnce  sync.Once
	scaleH     http.Handler
	scaleToken string
)

// BenchmarkScale runs each list and taxonomy on the demo and at full size,
// alternating request by request so that both see the same load on a shared
// machine (docs/architecture.md, Speed at full size); it reports the median
// time of each (a loaded machine preempts some requests for milliseconds)
// and demo/scale, the share of the demo's speed kept at full size. The
// makes and models are also asked for gzip, as clients ask for them.
func BenchmarkScale(b *testing.B) {
	demoH, demoToken := newDemoServer(b)
	scaleOnce.Do(func() { scaleH, scaleToken = newScaleServer(b) })
	for _, path := range append(scalePaths, "gzip /v1/motorcycles/makes", "gzip /v1/motorcycles/models?make=Harley-Davidson") {
		gzip, path, _ := strings.Cut(path, " ")
		if path == "" {
			gzip, path = "", gzip
		}
		b.Run(strings.TrimSpace(gzip+" "+path[1:]), func(b *testing.B) {
			reqs := [2]*http.Request{httptest.NewRequest(http.MethodGet, path, nil), httptest.NewRequest(http.MethodGet, path, nil)}
			reqs[0].Header.Set("Authorization", "Bearer "+demoToken)
			reqs[1].Header.Set("Authorization", "Bearer "+scaleToken)
			if gzip != "" {
				reqs[0].Header.Set("Accept-Encoding", "gzip")
				reqs[1].Header.Set("Accept-Encoding", "gzip")
			}
			handlers := [2]http.Handler{demoH, scaleH}
			var spent [2][]time.Duration
			var size [2]int
			b.ReportAllocs()
			for b.Loop() {
				for i, h := range handlers {
					w := httptest.NewRecorder()
					start := time.Now()
					h.ServeHTTP(w, reqs[i])
					spent[i] = append(spent[i], time.Since(start))
					if w.Code != http.StatusOK {
						b.Fatalf("%s: %d %s", path, w.Code, w.Body)
					}
					size[i] = w.Body.Len()
				}
			}
			med := func(d []time.Duration) float64 { slices.Sort(d); return float64(d[len(d)/2].Nanoseconds()) }
			demo, scale := med(spent[0]), med(spent[1])
			b.ReportMetric(demo, "demo-ns/op")
			b.ReportMetric(scale, "scale-ns/op")
			b.ReportMetric(demo/scale, "demo/scale")
			b.ReportMetric(float64(size[0]), "demo-B")
			b.ReportMetric(float64(size[1]), "scale-B")
		})
	}
}

package vehicle_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

var (
	bigOnce sync.Once
	bigCat  *catalog.Catalog
	bigSvc  *vehicle.Service
)

// big returns a synthetic 200,000-car catalog and a service over it, built
// once: generating and normalizing the records dominates otherwise.
func big(b *testing.B) (*catalog.Catalog, *vehicle.Service) {
	b.Helper()
	bigOnce.Do(func() {
		bigCat = &catalog.Catalog{Cars: synthCars(200_000, 50)}
		bigSvc = vehicle.NewService(snapshot(b, bigCat, catalog.Version{}))
	})
	return bigCat, bigSvc
}

// benchSearch reads the query from text on every run, as REST does.
func benchSearch(b *testing.B, svc *vehicle.Service, kind catalog.Kind, kv ...string) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := find(svc, kind, kv); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearchCarsByMake(b *testing.B) {
	b.Run("demo", func(b *testing.B) { benchSearch(b, demoService(b), catalog.KindCar, "make", "Toyota") })
	b.Run("demo make+model page 2", func(b *testing.B) {
		benchSearch(b, demoService(b), catalog.KindCar, "make", "toyota", "model", "camry", "page", "2", "per_page", "3")
	})
	b.Run("200k", func(b *testing.B) {
		_, svc := big(b)
		benchSearch(b, svc, catalog.KindCar, "make", "Make07")
	})
	b.Run("200k make+filter", func(b *testing.B) {
		_, svc := big(b)
		benchSearch(b, svc, catalog.KindCar, "make", "Make07", "body", "SUV", "page", "3")
	})
	b.Run("200k year window", func(b *testing.B) {
		_, svc := big(b)
		benchSearch(b, svc, catalog.KindCar, "year_min", "2010", "year_max", "2012")
	})
}

func BenchmarkSearchFreeText(b *testing.B) {
	b.Run("demo", func(b *testing.B) { benchSearch(b, demoService(b), catalog.KindCar, "q", "toyota cam") })
	b.Run("demo short prefix", func(b *testing.B) { benchSearch(b, demoService(b), catalog.KindCar, "q", "s") })
	b.Run("200k", func(b *testing.B) {
		_, svc := big(b)
		benchSearch(b, svc, catalog.KindCar, "q", "make07 model-3")
	})
	b.Run("200k short prefix", func(b *testing.B) {
		_, svc := big(b)
		benchSearch(b, svc, catalog.KindCar, "q", "trim 12")
	})
}

func BenchmarkGet(b *testing.B) {
	c := demo(b)
	svc := demoService(b)
	ids := make([]catalog.Car, len(c.Cars))
	copy(ids, c.Cars)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := svc.Get(catalog.KindCar, ids[i%len(ids)].UUID); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkNewSnapshot(b *testing.B) {
	b.Run("demo", func(b *testing.B) {
		c := demo(b)
		b.ReportAllocs()
		for b.Loop() {
			snapshot(b, c, catalog.Version{})
		}
	})
	b.Run("200k cars", func(b *testing.B) {
		c, _ := big(b)
		b.ReportAllocs()
		for b.Loop() {
			snapshot(b, c, catalog.Version{})
		}
	})
}

func BenchmarkTaxonomy(b *testing.B) {
	svc := demoService(b)
	b.ReportAllocs()
	for b.Loop() {
		svc.Makes(catalog.KindCar)
		if _, err := svc.Models(catalog.KindCar, "Toyota"); err != nil {
			b.Fatal(err)
		}
	}
}

// epaFitments is the EPA car catalog's size (49,582) in fitments, made of
// the demo's, each copy a model of its own.
const epaFitments = 49_582

var (
	bigTireOnce sync.Once
	bigTireCat  *catalog.Catalog
	bigTireSvc  *vehicle.Service
)

func bigTires(b *testing.B) (*catalog.Catalog, *vehicle.Service) {
	b.Helper()
	bigTireOnce.Do(func() {
		src := demo(b).TireSizes
		fits := make([]catalog.TireFitment, epaFitments)
		for i := range fits {
			f := src[i%len(src)]
			f.Model = fmt.Sprintf("%s %d", f.Model, i/len(src))
			f.UUID = uuid.NewSHA1(uuid.NameSpaceOID, []byte(strconv.Itoa(i)))
			fits[i] = f
		}
		bigTireCat = &catalog.Catalog{TireSizes: fits}
		bigTireSvc = vehicle.NewService(snapshot(b, bigTireCat, catalog.Version{}))
	})
	return bigTireCat, bigTireSvc
}

// BenchmarkLookupSize: the answer comes from the size index, so its cost
// follows the size's fitments, not the catalog's.
func BenchmarkLookupSize(b *testing.B) {
	for _, size := range []string{"235/55R19", "LT285/70R17"} {
		for _, c := range []struct {
			name string
			svc  func(*testing.B) *vehicle.Service
		}{
			{"demo", func(b *testing.B) *vehicle.Service { return demoService(b) }},
			{"49582", func(b *testing.B) *vehicle.Service { _, svc := bigTires(b); return svc }},
		} {
			b.Run(c.name+" "+size, func(b *testing.B) {
				svc := c.svc(b)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := svc.LookupSize(vehicle.SizeQuery{Size: size, Page: 3}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPlusSizes: a fitment's plus sizes once cached, as the API
// sends them, next to its geometry.
func BenchmarkPlusSizes(b *testing.B) {
	svc := demoService(b)
	id := demo(b).TireSizes[0].UUID
	b.Run("geometry", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := svc.Geometry(id); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plus sizes JSON", func(b *testing.B) {
		var buf bytes.Buffer
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			if err := svc.WritePlusSizesJSON(&buf, id, 3); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkScanForSize is what the index saves: one pass over the
// 49,582 fitments comparing every size they carry.
func BenchmarkScanForSize(b *testing.B) {
	c, _ := bigTires(b)
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for i := range c.TireSizes {
			f := &c.TireSizes[i]
			if f.TireSize == "235/55R19" || f.RearTireSize != nil && *f.RearTireSize == "235/55R19" ||
				slices.Contains(f.AlternateSizes, "235/55R19") || slices.Contains(f.RearAlternateSizes, "235/55R19") {
				n++
			}
		}
		if n == 0 {
			b.Fatal("no fitment carries 235/55R19")
		}
	}
}

func BenchmarkNewSnapshotTires(b *testing.B) {
	c, _ := bigTires(b)
	b.ReportAllocs()
	for b.Loop() {
		snapshot(b, c, catalog.Version{})
	}
}

var (
	vpicOnce sync.Once
	vpicSvc  *vehicle.Service
)

// vpicService indexes the demo catalog with the whole vPIC snapshot's
// powersports catalog in place of its motorcycles, as `vds ingest --source
// vpic` leaves a server.
func vpicService(b *testing.B) *vehicle.Service {
	b.Helper()
	vpicOnce.Do(func() {
		off, err := vpic.Open(context.Background(), vpictest.File(b))
		if err != nil {
			b.Fatal(err)
		}
		c := *demo(b)
		c.Motorcycles, _ = off.Motorcycles()
		c.Motorcycles = append(c.Motorcycles, demo(b).Motorcycles...)
		vpicSvc = vehicle.NewService(snapshot(b, &c, catalog.Version{}))
	})
	return vpicSvc
}

// BenchmarkSearchPowersports runs each motorcycle search on the demo and
// on the full vPIC catalog alternately, so that both see the same load,
// and reports the median time of each and demo/full, the share of the
// demo's speed kept at full size (medians: the shared machine preempts).
func BenchmarkSearchPowersports(b *testing.B) {
	demoSvc, fullSvc := demoService(b), vpicService(b)
	for _, kv := range [][]string{
		{"q", "street glide"}, {"q", "rzr"}, {"q", "s"}, {"q", "harley 2019"}, {"make", "Harley-Davidson", "q", "street"},
		{"make", "Harley-Davidson"}, {"motorcycle_type", "Scooter"}, {"make", "Polaris", "year", "2019"},
		{"year", "2019", "vehicle_type", "ATV/UTV"},
	} {
		b.Run(strings.Join(kv, "="), func(b *testing.B) {
			svcs := [2]*vehicle.Service{demoSvc, fullSvc}
			var spent [2][]time.Duration
			for b.Loop() {
				for i, svc := range svcs {
					start := time.Now()
					if _, err := find(svc, catalog.KindMotorcycle, kv); err != nil {
						b.Fatal(err)
					}
					spent[i] = append(spent[i], time.Since(start))
				}
			}
			med := func(d []time.Duration) float64 { slices.Sort(d); return float64(d[len(d)/2].Nanoseconds()) }
			demo, full := med(spent[0]), med(spent[1])
			b.ReportMetric(demo, "demo-ns/op")
			b.ReportMetric(full, "full-ns/op")
			b.ReportMetric(demo/full, "demo/full")
		})
	}
}

// BenchmarkSearchScale times each car search on the demo and on the
// catalog file VDS_BENCH_CARS names (go run ./internal/bench/catalog -cars
// 1000000 -seed 1) alternately, so that both see the same load, and reports
// each one's p50 and p99 and the matches at scale (-benchtime 2000x).
func BenchmarkSearchScale(b *testing.B) {
	path := os.Getenv("VDS_BENCH_CARS")
	if path == "" {
		b.Skip("VDS_BENCH_CARS names no catalog file")
	}
	src, err := ingest.FileSources([]string{path})
	if err != nil {
		b.Fatal(err)
	}
	c, _, err := ingest.Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var after runtime.MemStats
	start := time.Now()
	snap := snapshot(b, c, catalog.Version{})
	built := time.Since(start)
	c = nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.Logf("%d cars: snapshot built in %v, heap %d MiB after it", snap.Version().Counts.Cars, built.Round(time.Millisecond),
		after.HeapAlloc>>20)
	svcs := [2]*vehicle.Service{demoService(b), vehicle.NewService(snap)}
	for _, kv := range [][]string{
		{"make", "Toyota"}, {"make", "Toyota", "model", "Camry", "page", "40"}, {"q", "camry"}, {"q", "toyota"},
		{"q", "camry le"}, {"q", "sport awd"}, {"q", "touring suv"}, {"q", "limited hybrid package"}, {"q", "toyota sport"},
		{"q", "sport awd", "year", "2020"}, {"q", "premium", "body", "SUV"},
	} {
		b.Run(strings.Join(kv, "="), func(b *testing.B) {
			var spent [2][]time.Duration
			total := 0
			for b.Loop() {
				for i, svc := range svcs {
					start := time.Now()
					res, err := find(svc, catalog.KindCar, kv)
					spent[i] = append(spent[i], time.Since(start))
					if err != nil {
						b.Fatal(err)
					}
					total = res.Meta.Total
				}
			}
			for i, name := range []string{"demo", "big"} {
				slices.Sort(spent[i])
				b.ReportMetric(float64(spent[i][len(spent[i])/2].Nanoseconds()), name+"-p50-ns")
				b.ReportMetric(float64(spent[i][len(spent[i])*99/100].Nanoseconds()), name+"-p99-ns")
			}
			b.ReportMetric(float64(total), "matches")
		})
	}
}

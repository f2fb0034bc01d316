package vehicle_test

import (
	"sync"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
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

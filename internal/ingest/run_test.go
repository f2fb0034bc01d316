package ingest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// stores returns an opener per backend; each opens a fresh, migrated store
// for the (sub)test it is given.
func stores() map[string]func(testing.TB) store.Store {
	return map[string]func(testing.TB) store.Store{
		"sqlite":   func(tb testing.TB) store.Store { return storetest.Empty(tb, "sqlite") },
		"postgres": func(tb testing.TB) store.Store { return storetest.Empty(tb, "postgres") },
	}
}

func demo(tb testing.TB) (*catalog.Catalog, []catalog.Kind) {
	src, err := ingest.DemoSources()
	if err != nil {
		tb.Fatal(err)
	}
	c, kinds, err := ingest.Parse(src)
	if err != nil {
		tb.Fatal(err)
	}
	return c, kinds
}

// TestDemoIngestIsIdempotent ingests the demo catalog twice on each store:
// the second run changes nothing and every record keeps its uuid.
func TestDemoIngestIsIdempotent(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		c, kinds := demo(t)
		first, err := ingest.Run(ctx, st, c, kinds, ingest.Options{Source: "demo"})
		if err != nil {
			t.Fatal(err)
		}
		if !first.Published || first.Version.Counts != c.Counts() {
			t.Fatalf("first ingest: %+v", first.Version)
		}
		before, _, err := st.LoadCatalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		again, kinds := demo(t)
		second, err := ingest.Run(ctx, st, again, kinds, ingest.Options{Source: "demo"})
		if err != nil {
			t.Fatal(err)
		}
		if second.Published || second.Version.Number != first.Version.Number {
			t.Fatalf("second ingest published version %d", second.Version.Number)
		}
		for _, s := range second.Changes.Summaries() {
			if s.Added+s.Changed+s.Removed != 0 {
				t.Fatalf("second ingest changed %s: %+v", s.Kind, s)
			}
		}
		after, _, err := st.LoadCatalog(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ch := catalog.Diff(before, after, map[catalog.Kind]bool{catalog.KindCar: true, catalog.KindMotorcycle: true, catalog.KindBoat: true, catalog.KindTireSize: true}); !ch.Empty() {
			t.Fatalf("records changed between identical ingests: %+v", ch.Summaries())
		}
	})
}

// BenchmarkIngestDemo measures a full ingest of the demo catalog into an
// empty database, per store.
func BenchmarkIngestDemo(b *testing.B) {
	for name, open := range stores() {
		b.Run(name, func(b *testing.B) {
			c, kinds := demo(b)
			for b.Loop() {
				b.StopTimer()
				st := open(b)
				b.StartTimer()
				if _, err := ingest.Run(context.Background(), st, c, kinds, ingest.Options{Source: "demo"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRemovalGuard: on each store, an ingest removing more than 10% of a
// type's records is refused with the numbers and writes nothing, unless
// removals are allowed; 10% exactly passes; a dry run writes nothing.
func TestRemovalGuard(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		c, kinds := demo(t)
		if _, err := ingest.Run(ctx, st, c, kinds, ingest.Options{Source: "demo"}); err != nil {
			t.Fatal(err)
		}
		cars := func(n int) *catalog.Catalog { return &catalog.Catalog{Cars: c.Cars[:n]} }
		only := []catalog.Kind{catalog.KindCar}
		version := func() int64 {
			v, err := st.CatalogVersion(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return v.Number
		}

		_, err := ingest.Run(ctx, st, cars(2), only, ingest.Options{Source: "two", Files: []string{"in/cars.csv", "in/boats.csv"}})
		var re *ingest.RemovalError
		if !errors.As(err, &re) || re.Removed != 560 || re.Current != 562 ||
			err.Error() != "in/cars.csv: would remove 560 of 562 cars (99.6%); pass --allow-removals to accept" {
			t.Fatalf("2 of 562 cars: err %v, want a RemovalError for 560 of 562 naming in/cars.csv only", err)
		}
		if _, err := ingest.Run(ctx, st, cars(505), only, ingest.Options{Source: "57 fewer"}); !errors.As(err, &re) || re.Removed != 57 {
			t.Fatalf("57 of 562 removed (10.1%%): err %v, want refused", err)
		}
		if v := version(); v != 1 {
			t.Fatalf("refused ingests published version %d", v)
		}

		res, err := ingest.Run(ctx, st, cars(2), only, ingest.Options{Source: "dry", DryRun: true, AllowRemovals: true})
		if err != nil || res.Published || res.Changes.Cars.Unchanged != 2 || len(res.Changes.Cars.Delete) != 560 || version() != 1 {
			t.Fatalf("dry run: %+v, %v at version %d; want 2 unchanged, 560 removed, nothing published", res.Changes.Summaries(), err, version())
		}

		res, err = ingest.Run(ctx, st, cars(506), only, ingest.Options{Source: "56 fewer"})
		if err != nil || !res.Published || len(res.Changes.Cars.Delete) != 56 {
			t.Fatalf("56 of 562 removed (9.96%%): %+v, %v; want published", res.Changes.Summaries(), err)
		}
		res, err = ingest.Run(ctx, st, cars(2), only, ingest.Options{Source: "allowed", AllowRemovals: true})
		if err != nil || !res.Published || res.Version.Counts.Cars != 2 {
			t.Fatalf("allowed: %+v, %v; want 2 cars published", res.Version, err)
		}
	})
}

package storetest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/postgres"
	"github.com/vds-dev/vds/internal/store/sqlite"
)

// Empty returns a migrated store without a catalog on the named backend,
// "sqlite" or "postgres" (a fresh database from PostgresURL, so the test
// skips without a server), closed when the test ends.
func Empty(tb testing.TB, backend string) store.Store {
	tb.Helper()
	var st store.Store
	var err error
	if backend == "postgres" {
		st, err = postgres.Open(context.Background(), PostgresURL(tb))
	} else {
		st, err = sqlite.Open(filepath.Join(tb.TempDir(), "vds.db"))
	}
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	if err := st.Migrate(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return st
}

// Backends runs fn once per store, each empty and migrated: SQLite always,
// PostgreSQL when a server is available (and always under CI).
func Backends(t *testing.T, fn func(t *testing.T, st store.Store)) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) { fn(t, Empty(t, backend)) })
	}
}

// DemoSQLite returns a migrated SQLite store in a temporary directory
// holding the embedded demo catalog, closed when the test ends, and the
// catalog as ingested. With enrichFirst, the first car also gets EPA fuel
// economy through EnrichCars, so tests see numbers in those fields as well
// as nulls; the returned catalog carries the same values.
func DemoSQLite(tb testing.TB, enrichFirst bool) (store.Store, *catalog.Catalog) {
	tb.Helper()
	ctx := context.Background()
	st, c := Demo(tb, "sqlite")
	if enrichFirst {
		mpg, rng, cost := 32.5, 0, 1450
		fe := catalog.FuelEconomy{MPGCity: catalog.Some(mpg), MPGHighway: catalog.Some(mpg), MPGCombined: catalog.Some(mpg), EPARangeMiles: catalog.Some(rng), AnnualFuelCost: catalog.Some(cost), CO2GPM: catalog.Some(mpg)}
		if _, _, err := st.EnrichCars(ctx, map[uuid.UUID]catalog.FuelEconomy{c.Cars[0].UUID: fe}, "test"); err != nil {
			tb.Fatal(err)
		}
		c.Cars[0].FuelEconomy = fe
	}
	return st, c
}

// Demo is DemoSQLite on the named backend, "sqlite" or "postgres" (a fresh
// database from PostgresURL, so the test skips without a server).
func Demo(tb testing.TB, backend string) (store.Store, *catalog.Catalog) {
	tb.Helper()
	if backend == "postgres" {
		st := Empty(tb, backend)
		return st, LoadDemo(tb, st)
	}
	raw, err := demoFile()
	if err != nil {
		tb.Fatalf("demo SQLite store: %v", err)
	}
	path := filepath.Join(tb.TempDir(), "vds.db")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		tb.Fatal(err)
	}
	st, err := sqlite.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	c, _, err := parseDemo()
	if err != nil {
		tb.Fatal(err)
	}
	return st, c
}

// demoFile is an SQLite database holding the demo catalog, ingested once
// per test binary: that takes seconds under the race detector, and a copy
// of the file milliseconds.
var demoFile = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "storetest-demo-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "vds.db")
	st, err := sqlite.Open(path)
	if err != nil {
		return nil, err
	}
	_, err = loadDemo(context.Background(), st)
	// Closing the last connection moves the write-ahead log into the file.
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil, errors.New("the write-ahead log outlived the last connection")
	}
	return os.ReadFile(path)
})

// LoadDemo migrates st and ingests the embedded demo catalog into it,
// returning the catalog as ingested.
func LoadDemo(tb testing.TB, st store.Store) *catalog.Catalog {
	tb.Helper()
	c, err := loadDemo(context.Background(), st)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func loadDemo(ctx context.Context, st store.Store) (*catalog.Catalog, error) {
	if err := st.Migrate(ctx); err != nil {
		return nil, err
	}
	c, kinds, err := parseDemo()
	if err != nil {
		return nil, err
	}
	_, err = ingest.Run(ctx, st, c, kinds, ingest.Options{Source: "demo"})
	return c, err
}

func parseDemo() (*catalog.Catalog, []catalog.Kind, error) {
	src, err := ingest.DemoSources()
	if err != nil {
		return nil, nil, err
	}
	return ingest.Parse(src)
}

// SavedItem is a record to save in a list.
type SavedItem struct {
	Kind catalog.Kind
	ID   uuid.UUID
}

// GarageWithGoneCar saves items, then c's last car, in the account's default
// list, and publishes c without that car, which it returns: the garage then
// holds a record that left the catalog.
func GarageWithGoneCar(tb testing.TB, st store.Store, c *catalog.Catalog, accountID, note string, items ...SavedItem) catalog.Car {
	tb.Helper()
	ctx := context.Background()
	saved := lists.New(st)
	garage, err := saved.Default(ctx, accountID)
	if err != nil {
		tb.Fatal(err)
	}
	gone := c.Cars[len(c.Cars)-1]
	for _, it := range append(items, SavedItem{catalog.KindCar, gone.UUID}) {
		if _, err := saved.Add(ctx, accountID, garage.ID, it.Kind, it.ID, note); err != nil {
			tb.Fatal(err)
		}
	}
	c.Cars = c.Cars[:len(c.Cars)-1]
	if _, err := ingest.Run(ctx, st, c, []catalog.Kind{catalog.KindCar}, ingest.Options{Source: "demo minus one"}); err != nil {
		tb.Fatal(err)
	}
	return gone
}

// FirstOfEachKind is c's first record of every kind.
func FirstOfEachKind(c *catalog.Catalog) []SavedItem {
	return []SavedItem{{catalog.KindCar, c.Cars[0].UUID}, {catalog.KindMotorcycle, c.Motorcycles[0].UUID},
		{catalog.KindBoat, c.Boats[0].UUID}, {catalog.KindTireSize, c.TireSizes[0].UUID}}
}

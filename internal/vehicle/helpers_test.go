package vehicle_test

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/vehicle"
)

var (
	demoOnce sync.Once
	demoCat  *catalog.Catalog
	demoErr  error
)

// demo returns the embedded demo catalog, parsed once per test binary.
func demo(tb testing.TB) *catalog.Catalog {
	tb.Helper()
	demoOnce.Do(func() {
		src, err := ingest.DemoSources()
		if err != nil {
			demoErr = err
			return
		}
		demoCat, _, demoErr = ingest.Parse(src)
	})
	if demoErr != nil {
		tb.Fatalf("load demo catalog: %v", demoErr)
	}
	return demoCat
}

func demoService(tb testing.TB) *vehicle.Service {
	tb.Helper()
	return vehicle.NewService(snapshot(tb, demo(tb), catalog.Version{Number: 1, Source: "demo"}))
}

// find runs a search whose parameters are read from name, value pairs
// through Query.Set, as an edge reads text; the first bad value fails it.
func find(svc *vehicle.Service, kind catalog.Kind, kv []string) (vehicle.Page, error) {
	q := vehicle.Query{Kind: kind}
	for i := 0; i+1 < len(kv); i += 2 {
		if err := q.Set(kv[i], kv[i+1]); err != nil {
			return vehicle.Page{}, err
		}
	}
	return svc.Search(q)
}

// wantError checks that err is a *vehicle.Error with the code and param.
func wantError(t *testing.T, err error, code, param string) *vehicle.Error {
	t.Helper()
	var e *vehicle.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want *vehicle.Error with code %s", err, err, code)
	}
	if e.Code != code || e.Param != param {
		t.Fatalf("error code/param = %s/%q, want %s/%q (message %q)", e.Code, e.Param, code, param, e.Message)
	}
	if e.Message == "" {
		t.Fatalf("error %s has no message", code)
	}
	return e
}

// rec is the part of any record the order and identity checks need.
type rec struct {
	id                uuid.UUID
	make, model, trim string
	year              int
}

func carRec(c catalog.Car) rec         { return rec{c.UUID, c.Make, c.Model, c.Trim, c.Year} }
func motoRec(m catalog.Motorcycle) rec { return rec{m.UUID, m.Make, m.Model, "", m.Year} }
func boatRec(b catalog.Boat) rec       { return rec{b.UUID, b.Make, b.Model, "", b.Year} }
func tireRec(f catalog.TireFitment) rec {
	return rec{f.UUID, f.Make, f.Model, f.Trim, f.Year}
}

// sortRecs sorts into the documented result order: make, model
// (case-insensitive), year descending, trim, uuid.
func sortRecs(rs []rec) {
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if x, y := strings.ToLower(a.make), strings.ToLower(b.make); x != y {
			return x < y
		}
		if x, y := strings.ToLower(a.model), strings.ToLower(b.model); x != y {
			return x < y
		}
		if a.year != b.year {
			return a.year > b.year
		}
		if x, y := strings.ToLower(a.trim), strings.ToLower(b.trim); x != y {
			return x < y
		}
		return a.id.String() < b.id.String()
	})
}

// filterRecs applies pred to records of any kind and returns the matches
// in result order.
func filterRecs[T any](recs []T, conv func(T) rec, pred func(T) bool) []rec {
	var out []rec
	for _, r := range recs {
		if pred(r) {
			out = append(out, conv(r))
		}
	}
	sortRecs(out)
	return out
}

// pageRecs converts a page's data to recs.
func pageRecs(t *testing.T, data any) []rec {
	t.Helper()
	var out []rec
	switch d := data.(type) {
	case []catalog.Car:
		for _, r := range d {
			out = append(out, carRec(r))
		}
	case []catalog.Motorcycle:
		for _, r := range d {
			out = append(out, motoRec(r))
		}
	case []catalog.Boat:
		for _, r := range d {
			out = append(out, boatRec(r))
		}
	case []catalog.TireFitment:
		for _, r := range d {
			out = append(out, tireRec(r))
		}
	default:
		t.Fatalf("page data is %T", data)
	}
	return out
}

// searchAll pages through every reachable page of a query (per_page 10)
// and returns the total and the records seen, checking each page's meta.
func searchAll(t *testing.T, svc *vehicle.Service, kind catalog.Kind, params []string) (int, []rec) {
	t.Helper()
	var all []rec
	total := -1
	for page := 1; ; page++ {
		res, err := find(svc, kind, append(slices.Clone(params), "page", fmt.Sprint(page)))
		if err != nil {
			t.Fatalf("search %v page %d: %v", params, page, err)
		}
		if total < 0 {
			total = res.Meta.Total
		} else if res.Meta.Total != total {
			t.Fatalf("total changed between pages: %d then %d", total, res.Meta.Total)
		}
		all = append(all, pageRecs(t, res.Records())...)
		if page >= res.Meta.MaxPage {
			return total, all
		}
	}
}

// checkSearch compares a query's results against the brute-force expectation:
// the same total, and the same records in the same order as far as paging reaches.
func checkSearch(t *testing.T, svc *vehicle.Service, kind catalog.Kind, params []string, want []rec) {
	t.Helper()
	// With q, the records whose make and model have every word come first.
	for i := 0; i+1 < len(params); i += 2 {
		if q := params[i+1]; params[i] == "q" {
			named := func(r rec) bool { return oracleMatch(q, oracleTokens([]string{r.make, r.model})) }
			want = append(slices.DeleteFunc(slices.Clone(want), func(r rec) bool { return !named(r) }),
				slices.DeleteFunc(slices.Clone(want), named)...)
		}
	}
	total, got := searchAll(t, svc, kind, params)
	if total != len(want) {
		t.Fatalf("total = %d, want %d", total, len(want))
	}
	reach := want[:min(len(want), vehicle.MaxReachable)]
	if len(got) != len(reach) {
		t.Fatalf("paged through %d records, want %d", len(got), len(reach))
	}
	for i := range reach {
		if got[i].id != reach[i].id {
			t.Fatalf("record %d = %v, want %v", i, got[i], reach[i])
		}
	}
}

var (
	runRE  = regexp.MustCompile(`[\p{L}\p{N}]+`)
	partRE = regexp.MustCompile(`\p{L}+|\p{N}+`)
)

// oracleTokens is a deliberately naive re-statement of the free-text rule:
// every letter/digit run, its letter and digit parts, and make and model
// with punctuation removed.
func oracleTokens(makeModel []string, other ...string) []string {
	var toks []string
	for i, f := range append(makeModel, other...) {
		runs := runRE.FindAllString(strings.ToLower(f), -1)
		for _, r := range runs {
			toks = append(toks, r)
			toks = append(toks, partRE.FindAllString(r, -1)...)
		}
		if i < len(makeModel) {
			toks = append(toks, strings.Join(runs, ""))
		}
	}
	return toks
}

// oracleMatch reports whether every word of q prefixes some token.
func oracleMatch(q string, toks []string) bool {
	for _, w := range runRE.FindAllString(strings.ToLower(q), -1) {
		found := false
		for _, tok := range toks {
			if strings.HasPrefix(tok, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// synthCars builds n normalized cars spread over makes "Make00".. with a
// few models each, years 2000..2024, for scaling and paging tests.
func synthCars(n, makes int) []catalog.Car {
	out := make([]catalog.Car, 0, n)
	fuels := catalog.CarFuels
	for i := range n {
		displ, cyl := 2.0+float64(i%30)/10, 4+2*(i%3)
		c := catalog.Car{
			Make:      fmt.Sprintf("Make%02d", i%makes),
			Model:     fmt.Sprintf("Model-%d", (i/makes)%7),
			Year:      2000 + (i/(makes*7))%25,
			Trim:      fmt.Sprintf("Trim %d", i),
			Body:      catalog.Bodies[i%len(catalog.Bodies)],
			FuelType:  fuels[i%len(fuels)],
			DriveType: catalog.Drives[i%len(catalog.Drives)],
		}
		if c.FuelType != catalog.FuelBEV && c.FuelType != catalog.FuelFCEV {
			c.DisplacementL, c.Cylinders = catalog.Some(displ), catalog.Some(cyl)
		}
		c.Normalize()
		out = append(out, c)
	}
	return out
}

// snapshot indexes c, failing the test when a record cannot be encoded.
func snapshot(tb testing.TB, c *catalog.Catalog, v catalog.Version) *vehicle.Snapshot {
	tb.Helper()
	s, err := vehicle.NewSnapshot(c, v)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

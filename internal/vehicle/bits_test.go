package vehicle_test

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// scaledCars draws n cars from the demo's as internal/bench/catalog does:
// a demo car's make, model, body, fuel and drive (a fifth of two-wheel
// drives made AWD), a year up to ten before it and its trim with an
// edition, a package and now and then a market code, so that trim,
// drive, body and fuel words reach many records of many models.
func scaledCars(tb testing.TB, n int, seed uint64) []catalog.Car {
	editions := []string{"", "Premium", "Limited", "Sport", "Touring", "Launch Edition", "Black Edition", "Luxury"}
	packages := []string{"", "Convenience Package", "Towing Package", "Performance Package", "Sun and Sound"}
	shapes := demo(tb).Cars
	rng := rand.New(rand.NewPCG(seed, 31))
	seen := map[string]bool{}
	out := make([]catalog.Car, 0, n)
	for len(out) < n {
		c := shapes[rng.IntN(len(shapes))]
		c.UUID = [16]byte{}
		c.Year = min(2026, c.Year-10+rng.IntN(12))
		c.Trim += " " + editions[rng.IntN(len(editions))] + " " + packages[rng.IntN(len(packages))]
		if rng.IntN(20) == 0 {
			c.Trim += " (" + strconv.Itoa(100+rng.IntN(900)) + ")"
		}
		if (c.DriveType == "FWD" || c.DriveType == "RWD") && rng.IntN(5) == 0 {
			c.DriveType = "AWD"
		}
		c.Trim = strings.Join(strings.Fields(c.Trim), " ")
		if errs := c.Normalize(); len(errs) > 0 {
			tb.Fatalf("drew an invalid car %s %s: %v", c.Make, c.Model, errs)
		}
		if key := c.UUID.String(); !seen[key] {
			seen[key] = true
			out = append(out, c)
		}
	}
	return out
}

// TestSearchBitsAgreesWithScan holds q searches, the ones whose words
// many records have outside make and model among them, to a scan of
// every record: the same total, the same page in the same order, on the
// demo and on a catalog drawn from it.
func TestSearchBitsAgreesWithScan(t *testing.T) {
	t.Parallel()
	vocab := []string{"sport", "s", "awd", "a", "fwd", "4wd", "suv", "sedan", "pickup", "gasoline", "hybrid", "electric",
		"e", "h", "premium", "limited", "lim", "package", "pack", "edition", "black", "touring", "le", "xle", "1", "12",
		"toyota", "camry", "c", "f150", "crv", "honda", "ford", "t"}
	for _, cars := range []struct {
		name string
		cars []catalog.Car
	}{{"demo", demo(t).Cars}, {"drawn", scaledCars(t, 3000, 1)}} {
		t.Run(cars.name, func(t *testing.T) {
			t.Parallel()
			svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: cars.cars}, catalog.Version{}))
			type scanned struct {
				rec
				key       [3]string
				body      string
				drive     string
				name, all []string
			}
			recs := make([]scanned, len(cars.cars))
			for i, c := range cars.cars {
				name := append(refTokens(c.Make, true), refTokens(c.Model, true)...)
				all := slices.Concat(name, refTokens(c.Trim, false), refTokens(c.Body, false), refTokens(c.FuelType, false),
					refTokens(c.DriveType, false))
				slices.Sort(name)
				slices.Sort(all)
				recs[i] = scanned{carRec(c), [3]string{strings.ToLower(c.Make), strings.ToLower(c.Model), strings.ToLower(c.Trim)},
					c.Body, c.DriveType, slices.Compact(name), slices.Compact(all)}
			}
			slices.SortFunc(recs, func(a, b scanned) int {
				return cmp.Or(strings.Compare(a.key[0], b.key[0]), strings.Compare(a.key[1], b.key[1]), cmp.Compare(b.year, a.year),
					strings.Compare(a.key[2], b.key[2]), bytes.Compare(a.id[:], b.id[:]))
			})
			// Sorted, a record's tokens hold one that w prefixes if the first at or above w is one.
			every := func(toks []string, words []string) bool {
				return !slices.ContainsFunc(words, func(w string) bool {
					i, _ := slices.BinarySearch(toks, w)
					return i == len(toks) || !strings.HasPrefix(toks[i], w)
				})
			}
			rng := rand.New(rand.NewPCG(31, 2))
			bits := 0
			for k := range 240 {
				words := make([]string, 1+rng.IntN(3))
				for i := range words {
					words[i] = vocab[rng.IntN(len(vocab))]
				}
				if k == 0 {
					words = []string{"sport", "awd"}
				}
				q := strings.Join(words, " ")
				kv := []string{"q", q, "page", []string{"1", "2", "9", "40"}[rng.IntN(4)], "per_page", []string{"3", "10"}[rng.IntN(2)]}
				mk, model := "", ""
				if rng.IntN(4) == 0 {
					c := cars.cars[rng.IntN(len(cars.cars))]
					mk, kv = strings.ToLower(c.Make), append(kv, "make", c.Make)
					if rng.IntN(2) == 0 {
						model, kv = strings.ToLower(c.Model), append(kv, "model", c.Model)
					}
				}
				// A year, a year window, a body or a drive narrows some.
				yearLo, yearHi, body, drive := 0, 9999, "", ""
				switch year := 2012 + rng.IntN(14); rng.IntN(6) {
				case 0:
					yearLo, yearHi, kv = year, year, append(kv, "year", strconv.Itoa(year))
				case 1:
					yearLo, yearHi = year-3, year
					kv = append(kv, "year_min", strconv.Itoa(yearLo), "year_max", strconv.Itoa(yearHi))
				case 2:
					body = catalog.Bodies[rng.IntN(len(catalog.Bodies))]
					kv = append(kv, "body", body)
				case 3:
					drive = catalog.Drives[rng.IntN(len(catalog.Drives))]
					kv = append(kv, "drive_type", drive)
				}
				var named, others []rec
				for _, r := range recs {
					if mk != "" && r.key[0] != mk || model != "" && r.key[1] != model || r.year < yearLo || r.year > yearHi ||
						body != "" && r.body != body || drive != "" && r.drive != drive {
						continue
					}
					switch {
					case every(r.name, words):
						named = append(named, r.rec)
					case every(r.all, words):
						others = append(others, r.rec)
					}
				}
				want := append(named, others...)
				in := vehicle.Query{Kind: catalog.KindCar}
				for i := 0; i < len(kv); i += 2 {
					if err := in.Set(kv[i], kv[i+1]); err != nil {
						t.Fatal(err)
					}
				}
				if svc.UsesBits(in) {
					bits++
				} else if k == 0 {
					t.Fatalf("%v is not answered from bitmaps", kv)
				}
				page, err := svc.Search(in)
				if err != nil {
					t.Fatalf("%v: %v", kv, err)
				}
				from := (page.Meta.Page - 1) * page.Meta.PerPage
				wantPage := want[min(from, len(want)):min(from+page.Meta.PerPage, len(want))]
				got := pageRecs(t, page.Records())
				if page.Meta.Total != len(want) || !slices.EqualFunc(got, wantPage, func(a, b rec) bool { return a.id == b.id }) {
					t.Fatalf("%v: total %d, page %s; want %d, %s", kv, page.Meta.Total, fmt.Sprint(got), len(want), fmt.Sprint(wantPage))
				}
			}
			if bits < 24 {
				t.Errorf("%d of 240 searches answered from bitmaps, want at least 24", bits)
			}
			t.Logf("%d of 240 searches answered from bitmaps", bits)
		})
	}
}

package vehicle_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
	"github.com/vds-dev/vds/internal/vehicle"
)

// plusOracle lists the grid by brute force, in millimetres rather
// than the package's inches: every width from 20 mm below to 40 mm above
// the OEM's (step 10), aspect 25..85 (step 5) and rim 2 below to 3 above,
// that Parse takes and whose diameter is within window percent; by name,
// the diameter difference in percent, the diameter and the sidewall in mm,
// and the rim.
func plusOracle(oem tire.Size, window float64) map[string][4]float64 {
	oemMM := oem.RimIn*25.4 + 2*oem.WidthMM*float64(oem.AspectRatio)/100
	base := oem.WidthMM
	if oem.Kind == tire.Flotation {
		oemMM = oem.DiameterIn * 25.4
		base = math.Round((base-5)/10)*10 + 5
	}
	prefix, cons := "", "R"
	if oem.Service == "LT" {
		prefix = "LT"
	}
	if oem.Construction == "ZR" {
		cons = "ZR"
	}
	want := map[string][4]float64{}
	for rim := math.Floor(oem.RimIn) - 2; rim <= math.Floor(oem.RimIn)+3; rim++ {
		for w := base - 20; w <= base+40; w += 10 {
			for a := 25; a <= 85; a += 5 {
				if w < 105 || w > 455 || rim < 10 || rim > 30 {
					continue
				}
				d := rim*25.4 + 2*w*float64(a)/100
				if pct := (d - oemMM) / oemMM * 100; math.Abs(pct) <= window+1e-9 {
					want[fmt.Sprintf("%s%g/%d%s%g", prefix, w, a, cons, rim)] = [4]float64{pct, d, w * float64(a) / 100, rim}
				}
			}
		}
	}
	return want
}

// checkPlusSet compares set with the oracle: the same sizes, each on its
// rim, in order, with figures to their rounding.
func checkPlusSet(t *testing.T, label string, oem tire.Size, window int, set vehicle.PlusSizeSet) {
	t.Helper()
	want := plusOracle(oem, float64(window))
	oemMM := oem.RimIn*25.4 + 2*oem.WidthMM*float64(oem.AspectRatio)/100
	if oem.Kind == tire.Flotation {
		oemMM = oem.DiameterIn * 25.4
	}
	oemSidewall := (oemMM - oem.RimIn*25.4) / 2
	near := func(got, want, tol float64) bool { return math.Abs(got-want) <= tol }
	seen := 0
	if len(set.Rims) != 6 {
		t.Fatalf("%s: %d rim groups, want 6", label, len(set.Rims))
	}
	for gi, g := range set.Rims {
		if g.RimOffset != gi-2 || g.RimIn != math.Floor(oem.RimIn)+float64(gi-2) {
			t.Errorf("%s: group %d is rim %+d (%g in)", label, gi, g.RimOffset, g.RimIn)
		}
		for i, p := range g.Sizes {
			w, ok := want[p.Size]
			if !ok {
				t.Errorf("%s ±%d: extra %s (%+.2f%%)", label, window, p.Size, p.DiameterDiffPct)
				continue
			}
			seen++
			if w[3] != g.RimIn {
				t.Errorf("%s: %s in the %+d group", label, p.Size, g.RimOffset)
			}
			if i > 0 && math.Abs(g.Sizes[i-1].DiameterDiffPct) > math.Abs(p.DiameterDiffPct) {
				t.Errorf("%s: %s after %s", label, p.Size, g.Sizes[i-1].Size)
			}
			if !near(p.DiameterDiffPct, w[0], 0.0051) || !near(p.Speedometer60, 60*oemMM/w[1], 0.051) ||
				!near(p.Speedometer100, 100*oemMM/w[1], 0.051) || !near(p.DiameterMM, w[1], 0.051) {
				t.Errorf("%s: %s %+.2f%% reads %.1f mph, %.1f km/h; want %+.4f%%, %.2f, %.2f", label, p.Size,
					p.DiameterDiffPct, p.Speedometer60, p.Speedometer100, w[0], 60*oemMM/w[1], 100*oemMM/w[1])
			}
			if want := w[2] - oemSidewall; !near(p.SidewallDiffMM, want, 0.051) {
				t.Errorf("%s: %s sidewall change %.1f mm, want %.2f", label, p.Size, p.SidewallDiffMM, want)
			}
			if p.OEM != (p.Size == oem.Canonical()) {
				t.Errorf("%s: %s oem %v", label, p.Size, p.OEM)
			}
			checkNeeds(t, label, oem, p)
		}
	}
	if seen != len(want) {
		t.Errorf("%s ±%d: %d sizes, want %d", label, window, seen, len(want))
	}
}

// checkNeeds: the load index carries the OEM load and one below does not,
// by the load table; the speed rating is the OEM's.
func checkNeeds(t *testing.T, label string, oem tire.Size, p vehicle.PlusSize) {
	if oem.LoadIndex == 0 {
		if p.MinLoadIndex != nil || p.MinSpeedRating != nil {
			t.Errorf("%s: %s needs a load index or speed rating of an OEM tire without them", label, p.Size)
		}
		return
	}
	need, _ := tire.LoadKg(oem.LoadIndex)
	if p.MinLoadIndex == nil || p.MinSpeedRating == nil || *p.MinSpeedRating != oem.SpeedRating {
		t.Fatalf("%s: %s load %v speed %v", label, p.Size, p.MinLoadIndex, p.MinSpeedRating)
	}
	got, _ := tire.LoadKg(*p.MinLoadIndex)
	below, _ := tire.LoadKg(*p.MinLoadIndex - 1)
	if got < need || below >= need {
		t.Errorf("%s: %s min load index %d (%d kg) for %d kg", label, p.Size, *p.MinLoadIndex, got, need)
	}
}

// TestPlusSizesMatchBruteForce checks every demo OEM size, front and rear,
// at every window, against the brute-force grid.
func TestPlusSizesMatchBruteForce(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	done := map[string]bool{}
	for _, f := range demo(t).TireSizes {
		for w := 1; w <= 5; w++ {
			ps, err := svc.PlusSizes(f.UUID, w)
			if err != nil {
				t.Fatal(err)
			}
			if ps.Fitment.UUID != f.UUID || ps.WindowPct != w || (ps.Rear == nil) != (f.RearTireSize == nil) {
				t.Fatalf("%s: answer for %s ±%d, rear %v", f.UUID, ps.Fitment.UUID, ps.WindowPct, ps.Rear)
			}
			axles := []struct {
				size string
				li   *int
				sr   *string
				set  *vehicle.PlusSizeSet
			}{{f.TireSize, f.LoadIndex, f.SpeedRating, &ps.Front}, {"", f.RearLoadIndex, f.RearSpeedRating, ps.Rear}}
			if f.RearTireSize != nil {
				axles[1].size = *f.RearTireSize
			}
			for _, a := range axles {
				key := fmt.Sprint(a.size, a.li, a.sr, w)
				if a.set == nil || done[key] {
					continue
				}
				done[key] = true
				oem, err := tire.Parse(a.size)
				if err != nil {
					t.Fatal(err)
				}
				if a.li != nil && a.sr != nil {
					oem.LoadIndex, oem.SpeedRating = *a.li, *a.sr
				}
				checkPlusSet(t, f.Make+" "+f.Model+" "+a.size, oem, w, *a.set)
			}
		}
	}
	if len(done) < 5*100 {
		t.Errorf("only %d OEM sizes and windows checked", len(done))
	}
}

// TestLookupPlusSizesOfAnySize covers the grid's edges: flotation and LT
// sizes, half-inch rims, and the parser's width and rim limits.
func TestLookupPlusSizesOfAnySize(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	for _, size := range []string{"225/45R17 94W", "P215/65R16", "245/35ZR19 92Y", "LT285/70R17 121S", "35x12.50R17LT",
		"33x12.50R16.5", "155/80R13", "195/65R10", "305/25R30", "445/30R22"} {
		oem, _ := tire.Parse(size)
		for _, w := range []int{1, 3, 5} {
			got, err := svc.LookupSize(vehicle.SizeQuery{Size: size, Window: w})
			if err != nil {
				t.Fatal(err)
			}
			checkPlusSet(t, size, oem, w, got.PlusSizes)
		}
	}
}

func TestPlusSizesErrors(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	f := demo(t).TireSizes[0]
	for _, w := range []int{0, 6, -1} {
		_, err := svc.PlusSizes(f.UUID, w)
		wantError(t, err, vehicle.CodeInvalidParameter, "window")
	}
	_, err := svc.PlusSizes(demo(t).Cars[0].UUID, 3)
	wantError(t, err, vehicle.CodeNotFound, "")
	var buf bytes.Buffer
	if err := svc.WritePlusSizesJSON(&buf, f.UUID, 6); vehicle.CodeOf(err) != vehicle.CodeInvalidParameter || buf.Len() != 0 {
		t.Errorf("window 6: %v, wrote %q", err, buf.Bytes())
	}
	for _, q := range []vehicle.SizeQuery{{Size: "225/45R17", Window: 9}, {Size: "225/45R17", Page: 41},
		{Size: "225/45R17", PerPage: 11}, {Size: "225/45R17", Year: 1200}} {
		_, err := svc.LookupSize(q)
		if vehicle.CodeOf(err) != vehicle.CodeInvalidParameter {
			t.Errorf("%+v: %v", q, err)
		}
	}
	_, err = svc.LookupSize(vehicle.SizeQuery{Size: " "})
	wantError(t, err, vehicle.CodeMissingParameter, "size")
	for _, bad := range []string{"225/45", "abc", "225/45R17LT", "999/45R17", "35x12.50"} {
		_, err := svc.LookupSize(vehicle.SizeQuery{Size: bad})
		e := wantError(t, err, vehicle.CodeInvalidParameter, "size")
		if e != nil && (!strings.Contains(e.Message, "225/45R17") || !strings.Contains(e.Message, "35x12.50R17LT")) {
			t.Errorf("%q: %s does not name the format", bad, e.Message)
		}
	}
}

// sizeOracle scans the demo for the fitments carrying size, with their roles.
func sizeOracle(t *testing.T, c *catalog.Catalog, size string) map[string][]string {
	t.Helper()
	canon, err := tire.Canonical(size)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, f := range c.TireSizes {
		var roles []string
		if f.TireSize == canon {
			roles = append(roles, vehicle.RoleOEM)
		}
		if f.RearTireSize != nil && *f.RearTireSize == canon {
			roles = append(roles, vehicle.RoleRearOEM)
		}
		if slices.Contains(f.AlternateSizes, canon) {
			roles = append(roles, vehicle.RoleAlternate)
		}
		if slices.Contains(f.RearAlternateSizes, canon) {
			roles = append(roles, vehicle.RoleRearAlternate)
		}
		if roles != nil {
			out[f.UUID.String()] = roles
		}
	}
	return out
}

// lookupAll pages through a lookup, checking meta and facets on the way.
func lookupAll(t *testing.T, svc *vehicle.Service, q vehicle.SizeQuery) (map[string][]string, vehicle.SizeLookup) {
	t.Helper()
	got := map[string][]string{}
	var first vehicle.SizeLookup
	for page := 1; ; page++ {
		q.Page = page
		ans, err := svc.LookupSize(q)
		if err != nil {
			t.Fatal(err)
		}
		if page == 1 {
			first = ans
		}
		for _, m := range ans.Fitments {
			if _, dup := got[m.Fitment.UUID.String()]; dup {
				t.Errorf("%s: %s on two pages", q.Size, m.Fitment.UUID)
			}
			got[m.Fitment.UUID.String()] = m.Roles
		}
		if page >= ans.Meta.MaxPage {
			if len(got) != ans.Meta.Total {
				t.Errorf("%s: %d fitments over the pages, meta.total %d", q.Size, len(got), ans.Meta.Total)
			}
			return got, first
		}
	}
}

func TestLookupSize(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	for _, spellings := range [][]string{
		{"235/55R19", "235/55 r 19 105V", "P235/55R19"},
		{"LT285/70R17", "lt285/70r17 121s"},
		{"35x12.50R17LT", "35X12.50R17 LT", "LT35x12.50R17", "35x12.5R17 LT 121Q"},
		{"255/45R20"},
		{"305/30ZR20"},
	} {
		want := sizeOracle(t, c, spellings[0])
		for _, s := range spellings {
			got, ans := lookupAll(t, svc, vehicle.SizeQuery{Size: s, PerPage: 7})
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: fitments %v\nwant %v", s, got, want)
			}
			if canon, _ := tire.Canonical(s); ans.Size.Size != canon || ans.PlusSizes.OEM != ans.Size {
				t.Errorf("%s: size %s, plus sizes of %s", s, ans.Size.Size, ans.PlusSizes.OEM.Size)
			}
			checkFacets(t, c, s, want, ans.Facets)
		}
		if len(want) == 0 {
			t.Errorf("%s: no demo fitment carries it; pick another", spellings[0])
		}
	}
}

// checkFacets counts the oracle's fitments by make and year.
func checkFacets(t *testing.T, c *catalog.Catalog, size string, want map[string][]string, f vehicle.SizeFacets) {
	t.Helper()
	makes, years := map[string]int{}, map[int]int{}
	for _, rec := range c.TireSizes {
		if _, ok := want[rec.UUID.String()]; ok {
			makes[rec.Make]++
			years[rec.Year]++
		}
	}
	gotMakes, gotYears := map[string]int{}, map[int]int{}
	for i, m := range f.Makes {
		gotMakes[m.Name] = m.Count
		if i > 0 && strings.ToLower(f.Makes[i-1].Name) >= strings.ToLower(m.Name) {
			t.Errorf("%s: make facets out of order at %s", size, m.Name)
		}
	}
	for i, y := range f.Years {
		gotYears[y.Year] = y.Count
		if i > 0 && f.Years[i-1].Year <= y.Year {
			t.Errorf("%s: year facets out of order at %d", size, y.Year)
		}
	}
	if fmt.Sprint(gotMakes) != fmt.Sprint(makes) || fmt.Sprint(gotYears) != fmt.Sprint(years) {
		t.Errorf("%s: facets %v %v, want %v %v", size, gotMakes, gotYears, makes, years)
	}
}

// TestLookupSizeNarrows: make and year narrow the list, never the facets,
// and each facet's count is the total it narrows to.
func TestLookupSizeNarrows(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	all, err := svc.LookupSize(vehicle.SizeQuery{Size: "235/55R19"})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all.Facets.Makes {
		got, err := svc.LookupSize(vehicle.SizeQuery{Size: "235/55R19", Make: strings.ToUpper(m.Name)})
		if err != nil {
			t.Fatal(err)
		}
		if got.Meta.Total != m.Count || fmt.Sprint(got.Facets) != fmt.Sprint(all.Facets) {
			t.Errorf("make=%s: %d fitments, facet says %d", m.Name, got.Meta.Total, m.Count)
		}
		for _, f := range got.Fitments {
			if f.Fitment.Make != m.Name {
				t.Errorf("make=%s gave %s", m.Name, f.Fitment.Make)
			}
		}
	}
	for _, y := range all.Facets.Years {
		got, _ := svc.LookupSize(vehicle.SizeQuery{Size: "235/55R19", Year: y.Year})
		if got.Meta.Total != y.Count {
			t.Errorf("year=%d: %d fitments, facet says %d", y.Year, got.Meta.Total, y.Count)
		}
	}
	empty, err := svc.LookupSize(vehicle.SizeQuery{Size: "215/45R10"})
	if err != nil || empty.Meta.Total != 0 || len(empty.Fitments) != 0 || len(empty.Facets.Makes) != 0 {
		t.Errorf("a size no fitment carries: %+v, %v", empty.Meta, err)
	}
}

// TestPlusSizesJSON: the cached JSON the API sends is PlusSizes encoded.
func TestPlusSizesJSON(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	fits := demo(t).TireSizes
	// A staggered fitment and a few others: every set shares one encoder.
	staggered := slices.IndexFunc(fits, func(f catalog.TireFitment) bool { return f.RearTireSize != nil })
	for _, f := range append([]catalog.TireFitment{fits[staggered]}, fits[:6]...) {
		for _, w := range []int{1, 3} {
			typed, err := svc.PlusSizes(f.UUID, w)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := svc.WritePlusSizesJSON(&buf, f.UUID, w); err != nil {
				t.Fatal(err)
			}
			raw := buf.Bytes()
			enc, _ := json.Marshal(typed)
			var a, b any
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Fatalf("%s: %v in %s", f.UUID, err, raw)
			}
			_ = json.Unmarshal(enc, &b)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s ±%d: cached JSON differs from the answer:\n%s\n%s", f.UUID, w, raw, enc)
			}
		}
	}
}

package vpic

import (
	"context"
	"database/sql"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// powersportsWMIs are Harley-Davidson's (which also holds LiveWire's
// models), Polaris's, a Club Car LSV WMI, a multi-make off-road WMI with
// Arctic Cat's ATVs, Yamaha's snowmobiles and Piaggio's scooters.
var powersportsWMIs = []string{"1HD", "4XA", "5J5", "4UF", "JYE", "ZAP"}

var (
	psOnce sync.Once
	psSnap *Snapshot
	psPath string
	psErr  error
)

func powersports(t *testing.T) (*Snapshot, string) {
	t.Helper()
	path := vpictest.Cut(t, powersportsWMIs...)
	psOnce.Do(func() { psPath = path; psSnap, psErr = Open(context.Background(), path) })
	if psErr != nil {
		t.Fatal(psErr)
	}
	return psSnap, psPath
}

type mmy struct {
	make, model string
	year        int
}

// expected works out with SQL, apart from the builder, which make, model
// and years the year rule gives: the years of every link of a powersports
// WMI whose schema has a pattern of the model, open links capped.
func expected(t *testing.T, path string, last int) map[mmy]bool {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT DISTINCT mk.Name, mo.Name, ws.YearFrom, COALESCE(ws.YearTo, 9999)
		FROM Wmi w JOIN VehicleType vt ON vt.Id = w.VehicleTypeId
		JOIN Wmi_VinSchema ws ON ws.WmiId = w.Id
		JOIN Pattern p ON p.VinSchemaId = ws.VinSchemaId
		JOIN Element e ON e.Id = p.ElementId AND e.Code = 'Model'
		JOIN Model mo ON mo.Id = CAST(p.AttributeId AS INTEGER)
		JOIN Make_Model mm ON mm.ModelId = mo.Id JOIN Make mk ON mk.Id = mm.MakeId
		WHERE vt.Name IN ('Motorcycle', 'Off Road Vehicle', 'Low Speed Vehicle (LSV)')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := map[mmy]bool{}
	for rows.Next() {
		var k mmy
		var from, to int
		if err := rows.Scan(&k.make, &k.model, &from, &to); err != nil {
			t.Fatal(err)
		}
		k.make, k.model = fold(k.make), fold(k.model)
		for k.year = from; k.year <= min(to, last); k.year++ {
			want[k] = true
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}

func TestMotorcycles(t *testing.T) {
	t.Parallel()
	s, path := powersports(t)
	got, st := s.Motorcycles()
	if st.DataYear != 2026 || st.OpenLinks == 0 || st.CappedLinks < st.OpenLinks {
		t.Fatalf("stats %+v: want data year 2026 and every open link capped", st)
	}
	want := expected(t, path, st.DataYear+1)
	byKey := map[mmy]catalog.Motorcycle{}
	for _, m := range got {
		k := mmy{m.Make, m.Model, m.Year}
		if !want[mmy{fold(m.Make), fold(m.Model), m.Year}] {
			t.Errorf("%v: not a make, model and year the year rule gives (make through Make_Model)", k)
		}
		if m.Year > st.DataYear+1 {
			t.Errorf("%v: after the data year + 1", k)
		}
		if m.Source != "vPIC snapshot 2026-02-17" {
			t.Errorf("%v: source %q", k, m.Source)
		}
		check := m
		if errs := check.Normalize(); errs != nil || check.UUID != m.UUID || catalog.MotorcycleUUID(strings.ToUpper(m.Make), " "+m.Model, m.Year) != m.UUID {
			t.Errorf("%v: not normalized (%v) or uuid %s is not the natural key's %s", k, errs, m.UUID, check.UUID)
		}
		byKey[k] = m
	}
	// No model pattern of these WMIs keys position 10 (the year), which
	// the SQL leaves out.
	if len(byKey) != len(got) || len(got)+st.Invalid != len(want) || st.YearCode != 0 {
		t.Errorf("%d records (%d distinct, %d invalid, %d years ruled out by position 10), want %d", len(got), len(byKey), st.Invalid, st.YearCode, len(want))
	}

	for _, c := range []struct {
		mmy
		riding, body string
		cc           int
	}{
		{mmy{"Harley-Davidson", "Street Glide", 2019}, "Street Motorcycle", "Motorcycle - Touring / Sport Touring", 1750},
		{mmy{"Polaris", "RZR", 2020}, "UTV / SXS", "Off-road Vehicle - Multipurpose Off-Highway Utility Vehicle [MOHUV] or Recreational Off-Highway Vehicle [ROV]", 0},
		{mmy{"Yamaha", "Viking", 2024}, "Snowmobile", "Off-road Vehicle - Snowmobile", 0},
		{mmy{"Harley-Davidson", "Tri Glide Ultra", 2018}, "Three-Wheeler", "Motorcycle - Three-Wheeled Motorcycle [2 Rear Wheels]", 0},
	} {
		m, ok := byKey[c.mmy]
		if !ok {
			t.Errorf("no %v", c.mmy)
			continue
		}
		if m.MotorcycleType != c.riding || m.BodyClass != c.body || m.VehicleType != catalog.ClassOf(c.riding) {
			t.Errorf("%v: %q, %q, %q; want %q, %q", c.mmy, m.MotorcycleType, m.VehicleType, m.BodyClass, c.riding, c.body)
		}
		if c.cc != 0 && (m.DisplacementCC == nil || *m.DisplacementCC != c.cc) {
			t.Errorf("%v: displacement %v, want %d", c.mmy, m.DisplacementCC, c.cc)
		}
	}
	types := map[string]int{}
	makes := map[string]int{}
	for _, m := range got {
		types[m.MotorcycleType]++
		makes[m.Make]++
	}
	for _, want := range []string{"Street Motorcycle", "Scooter", "Three-Wheeler", "UTV / SXS", "ATV", "Snowmobile", "Low Speed Vehicle"} {
		if types[want] == 0 {
			t.Errorf("no %s in %v", want, types)
		}
	}
	for mk, n := range st.Types {
		if types[mk] != n {
			t.Errorf("stats count %d %s, records %d", n, mk, types[mk])
		}
	}
	// 1HD's LiveWire models sit under LiveWire, 4UF's under their own makes.
	for _, mk := range []string{"LiveWire", "Harley-Davidson", "Arctic Cat", "Polaris", "Club Car"} {
		if makes[mk] == 0 {
			t.Errorf("no records of %s: %v", mk, makes)
		}
	}
	if again, _ := s.Motorcycles(); !reflect.DeepEqual(again, got) {
		t.Error("a second build differs from the first")
	}
}

// A pattern keying position 10 holds for the years of that code only.
func TestKeysYears(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		keys string
		year int
		ok   bool
	}{
		{"*****|L", 2020, true}, {"*****|L", 1990, true}, {"*****|L", 2021, false},
		{"AB[C-E]**|[KL]", 2019, true}, {"AB[C-E]**|[KL]", 2018, false}, {"AB", 2018, true}, {"*****|L", 1979, true},
	} {
		m, ok := maskOf(c.keys)
		if !ok || (m[yearPos]&yearBit(c.year) != 0) != c.ok {
			t.Errorf("keys %q in %d: %v, want %v", c.keys, c.year, !ok || m[yearPos]&yearBit(c.year) != 0, c.ok)
		}
	}
	a, _ := maskOf("1KB7")
	b, _ := maskOf("1[J-L]*7*|*3")
	c, _ := maskOf("1KH")
	if !a.overlaps(&b) || a.overlaps(&c) {
		t.Errorf("1KB7 overlaps 1[J-L]*7*|*3: %v (want true), 1KH: %v (want false)", a.overlaps(&b), a.overlaps(&c))
	}
}

// BenchmarkMotorcycles builds the catalog from the whole snapshot (`go test
// ./internal/vpic -run X -bench Motorcycles`) and checks the goals on it:
// every riding type but Personal Watercraft, no year after the data year +
// 1, every model under its Make_Model make.
func BenchmarkMotorcycles(b *testing.B) {
	path := vpictest.File(b)
	s, err := Open(context.Background(), path)
	if err != nil {
		b.Fatal(err)
	}
	owner := map[string]string{}
	for _, ps := range s.schemas {
		for _, p := range ps {
			if p.element == elModel && p.make != 0 {
				owner[fold(s.strs[p.value])+"\x00"+fold(s.strs[p.make])] = s.strs[p.make]
			}
		}
	}
	var got []catalog.Motorcycle
	var st MotorcycleStats
	for b.Loop() {
		got, st = s.Motorcycles()
	}
	b.ReportMetric(float64(len(got)), "records")
	for _, typ := range catalog.MotorcycleTypes {
		if st.Types[typ] == 0 && typ != "Personal Watercraft" {
			b.Errorf("no %s records: %v", typ, st.Types)
		}
	}
	for _, m := range got {
		if m.Year > st.DataYear+1 {
			b.Errorf("%s %s %d: after the data year + 1", m.Make, m.Model, m.Year)
		}
		if owner[fold(m.Model)+"\x00"+fold(m.Make)] == "" {
			b.Errorf("%s %s: no Make_Model row gives the model that make", m.Make, m.Model)
		}
	}
}

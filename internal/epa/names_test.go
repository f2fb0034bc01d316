package epa

import (
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// The real file's models take the market's names: every marketNames entry
// renames rows (as many as docs/data.md counts), each keeps EPA's name in
// source_model, and a search by the fitments' and VINs' F-150 finds them.
func TestCanonicalModelsOfRealFile(t *testing.T) {
	cars, err := Cars(realTable(t))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"F-150": 670, "F-250": 173, "S-10 Pickup": 161, "3000GT": 33, "500L": 9, "500X": 9,
		"GR86": 8, "ActiveE": 1, "F40": 1, "575M Maranello": 4}
	renamed := map[string]int{}
	for _, c := range cars {
		if c.Model == c.SourceModel {
			continue
		}
		if marketNames[[2]string{c.Make, c.SourceModel}] != c.Model {
			t.Fatalf("%s %s renamed %s, not by marketNames", c.Make, c.SourceModel, c.Model)
		}
		renamed[c.Model]++
	}
	if len(renamed) != len(marketNames) {
		t.Errorf("%d of %d marketNames entries rename rows: %v", len(renamed), len(marketNames), renamed)
	}
	for name, n := range want {
		if renamed[name] != n {
			t.Errorf("%s: %d rows renamed, want %d", name, renamed[name], n)
		}
	}
	snap, err := vehicle.NewSnapshot(&catalog.Catalog{Cars: cars}, catalog.Version{})
	if err != nil {
		t.Fatal(err)
	}
	year := 2021
	for _, model := range []string{"F-150", "f-150"} {
		p, err := vehicle.NewService(snap).Search(vehicle.Query{Kind: catalog.KindCar, Make: "Ford", Model: model, Year: &year})
		if err != nil || p.Meta.Total == 0 {
			t.Fatalf("Ford %s 2021: %d cars, %v; want EPA's F150 rows", model, p.Meta.Total, err)
		}
	}
}

// The real file's bodies follow the market where EPA's class misses it:
// each marketBodies entry sets the body of its rows, a crossover's station
// wagon rows are SUVs, and a body word in the model text still wins.
func TestMarketBodiesOfRealFile(t *testing.T) {
	tab := realTable(t)
	cars, err := Cars(tab)
	if err != nil {
		t.Fatal(err)
	}
	changed, byFamily := 0, map[[2]string]int{}
	for i, c := range cars {
		r := &tab.Rows[i]
		if c.Body != bodyOf(r, tab.facts[i].bodies) {
			changed++
			byFamily[[2]string{r.Make, r.BaseModel}]++
		}
	}
	for fam := range marketBodies {
		if byFamily[fam] == 0 {
			t.Errorf("marketBodies %v changes no row", fam)
		}
	}
	t.Logf("%d rows of %d families take the market's body", changed, len(byFamily))
	if changed != 752 {
		t.Errorf("%d rows take the market's body, want the 752 docs/data.md counts", changed)
	}
	// body is the bodies of the rows of EPA's make, model text and year.
	body := func(mk, model string, year int) map[string]bool {
		out := map[string]bool{}
		for i, c := range cars {
			if r := &tab.Rows[i]; r.Make == mk && r.Model == model && r.Year == year {
				out[c.Body] = true
			}
		}
		return out
	}
	for _, tc := range []struct {
		mk, model string
		year      int
		want      string
	}{
		{"Chevrolet", "Trax", 2026, "SUV"}, {"BMW", "X1 xDrive28i", 2015, "SUV"}, {"Honda", "HR-V AWD", 2018, "SUV"},
		{"BMW", "Z4 3.0i", 2007, "Convertible"}, {"BMW", "Z4 Coupe", 2007, "Coupe"}, {"BMW", "M5 Touring", 2025, "Wagon"},
		{"Volvo", "V60 FWD", 2016, "Wagon"}, {"Subaru", "Forester AWD", 1999, "SUV"},
	} {
		if got := body(tc.mk, tc.model, tc.year); len(got) != 1 || !got[tc.want] {
			t.Errorf("%s %s %d bodies %v, want %s", tc.mk, tc.model, tc.year, got, tc.want)
		}
	}
}

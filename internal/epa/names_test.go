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

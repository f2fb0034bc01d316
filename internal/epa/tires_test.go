package epa

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// engineTrim names an engine: a range extender, a hybrid, a diesel, or a
// displacement (2.5T, 3.8).
var engineTrim = regexp.MustCompile(`(?i)\b(rex|range extender|hybrid|plug-in|phev|diesel)\b|\d\.\d`)

// checkEVTires loads the EPA cars beside the demo's fitments, as `vds
// ingest --source epa` leaves them, and asserts that no battery-electric
// car gets a fitment written for an engine: its trim names one, or the
// demo has a car of its make, model, year and trim that burns fuel. Only
// the models with fitments and a battery-electric car are loaded: a car's
// fitments depend on its own model's cars alone.
func checkEVTires(t *testing.T, cars []catalog.Car) {
	t.Helper()
	demo := demoCatalog(t)
	key := func(mk, model string) string { return family(mk) + "|" + family(model) }
	fitted, burns := map[string]bool{}, map[string]bool{}
	for _, f := range demo.TireSizes {
		fitted[key(f.Make, f.Model)] = true
	}
	for _, c := range demo.Cars {
		if c.FuelType != catalog.FuelBEV && c.FuelType != catalog.FuelFCEV {
			burns[key(c.Make, c.Model)+fmt.Sprint(c.Year, family(c.Trim))] = true
		}
	}
	electric := map[string]bool{}
	for _, c := range cars {
		if c.FuelType == catalog.FuelBEV {
			electric[key(c.Make, c.Model)] = true
		}
	}
	var mine []catalog.Car
	for _, c := range cars {
		if k := key(c.Make, c.Model); fitted[k] && electric[k] {
			mine = append(mine, c)
		}
	}
	snap, err := vehicle.NewSnapshot(&catalog.Catalog{Cars: mine, TireSizes: demo.TireSizes}, catalog.Version{})
	if err != nil {
		t.Fatal(err)
	}
	svc := vehicle.NewService(snap)
	evs, linked := 0, 0
	for _, c := range mine {
		if c.FuelType != catalog.FuelBEV {
			continue
		}
		evs++
		got, err := svc.TiresForCar(c.UUID)
		if err != nil {
			t.Fatal(err)
		}
		for _, fg := range got.Fitments {
			f := fg.Fitment
			if engineTrim.MatchString(f.Trim) || burns[key(f.Make, f.Model)+fmt.Sprint(f.Year, family(f.Trim))] {
				t.Errorf("EPA %d %s %s %s (BEV) gets the fitment of the %d %s %s", c.Year, c.Make, c.Model, c.Trim, f.Year, f.Model, f.Trim)
			}
		}
		linked += len(got.Fitments)
	}
	// The check means something only if EVs of models sold both ways get fitments at all.
	if evs < 100 || linked < 100 {
		t.Errorf("%d EPA battery-electric cars of models with demo fitments got %d fitments; want at least 100 each", evs, linked)
	}
	t.Logf("%d EPA cars of models with demo fitments and an EV, %d battery-electric, %d fitments linked to them", len(mine), evs, linked)
}

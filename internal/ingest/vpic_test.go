package ingest

import (
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
)

func moto(t *testing.T, make, model, source string, hp *float64, engine string) catalog.Motorcycle {
	t.Helper()
	m := catalog.Motorcycle{Make: make, Model: model, Year: 2024, MotorcycleType: "Street Motorcycle", Source: source, PowerHP: hp, EngineType: engine}
	if errs := m.Normalize(); errs != nil {
		t.Fatal(errs)
	}
	return m
}

func TestKeepMotorcycles(t *testing.T) {
	t.Parallel()
	hp := 105.0
	const snap = "vPIC snapshot 2026-02-17"
	demoGlide := moto(t, "Harley-Davidson", "Street Glide", "", &hp, "V-twin")
	demoOnly := moto(t, "Zero", "SR/F", "", nil, "Electric")
	oldVPIC := moto(t, "Honda", "Gone", "vPIC snapshot 2025-01-01", nil, "")
	vpicGlide := moto(t, "HARLEY-DAVIDSON", "Street Glide", snap, nil, "")
	vpicNew := moto(t, "Polaris", "RZR", snap, nil, "")
	if vpicGlide.UUID != demoGlide.UUID {
		t.Fatal("the natural key folds case: one Street Glide")
	}
	for _, exact := range []bool{false, true} {
		current := &catalog.Catalog{Motorcycles: []catalog.Motorcycle{demoGlide, demoOnly, oldVPIC}}
		next := &catalog.Catalog{Motorcycles: []catalog.Motorcycle{vpicGlide, vpicNew}}
		KeepMotorcycles(exact)(current, next)
		got := next.Motorcycles
		want := 3
		if exact {
			want = 2
		}
		if len(got) != want || got[0].UUID != vpicGlide.UUID || got[1] != vpicNew || (!exact && got[2] != demoOnly) {
			t.Fatalf("exact %v: %+v", exact, got)
		}
		if g := got[0]; g.Make != "HARLEY-DAVIDSON" || g.Source != snap || g.PowerHP != &hp || g.EngineType != "V-twin" {
			t.Errorf("exact %v: the Street Glide %+v, want vPIC's with the demo's power and engine", exact, g)
		}
	}
}

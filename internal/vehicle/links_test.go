package vehicle_test

import (
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

func TestLinksAndCanonicalMake(t *testing.T) {
	t.Parallel()
	f150 := catalog.Car{Make: "Ford", Model: "F150", Year: 2021, Trim: "XLT", Body: "Pickup", FuelType: catalog.FuelGasoline,
		DriveType: "4WD", Transmission: "Automatic (S10)", DisplacementL: ptr(2.7), Cylinders: ptr(6)}
	other := f150
	other.Year, other.Trim = 2020, "Lariat"
	silverado := catalog.Car{Make: "Chevrolet", Model: "Silverado", Year: 2021, Trim: "LT", Body: "Pickup", FuelType: catalog.FuelGasoline,
		DriveType: "4WD", Transmission: "Automatic (S10)", DisplacementL: ptr(5.3), Cylinders: ptr(8)}
	fit := catalog.TireFitment{Make: "Ford", Model: "F-150", Year: 2021, TireSize: "275/65R18", AlternateSizes: []string{"285/60R18"}}
	for _, n := range []interface{ Normalize() catalog.FieldErrors }{&f150, &other, &silverado} {
		if errs := n.Normalize(); errs != nil {
			t.Fatal(errs)
		}
	}
	if errs := fit.Normalize(); errs != nil {
		t.Fatal(errs)
	}
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: []catalog.Car{f150, other, silverado}, TireSizes: []catalog.TireFitment{fit}}, catalog.Version{}))

	if name, ok := svc.CanonicalMake("FORD"); !ok || name != "Ford" {
		t.Fatalf("CanonicalMake(FORD) = %q, %v", name, ok)
	}
	if _, ok := svc.CanonicalMake("Bugatti"); ok {
		t.Fatal("an unknown make was found")
	}
	l := svc.Links("FORD", "F-150", 2021)
	if !slices.Equal(l.Cars, []uuid.UUID{f150.UUID}) || !slices.Equal(l.TireSizes, []uuid.UUID{fit.UUID}) {
		t.Fatalf("F-150 2021 links = %+v", l)
	}
	if l := svc.Links("CHEVROLET", "Silverado 1500", 2021); len(l.Cars) != 1 || l.Cars[0] != silverado.UUID {
		t.Fatalf("Silverado 1500 links = %+v, want the Silverado by prefix", l)
	}
	if l := svc.Links("Ford", "Mustang", 2021); l.Cars == nil || len(l.Cars)+len(l.TireSizes) != 0 {
		t.Fatalf("Mustang links = %+v, want two empty lists", l)
	}
}

func ptr[T any](v T) *T { return &v }

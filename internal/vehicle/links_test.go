package vehicle_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

func TestLinksAndCanonicalMake(t *testing.T) {
	t.Parallel()
	f150 := catalog.Car{Make: "Ford", Model: "F150", Year: 2021, Trim: "XLT", Body: "Pickup", FuelType: catalog.FuelGasoline,
		DriveType: "4WD", Transmission: "Automatic (S10)", DisplacementL: catalog.Some(2.7), Cylinders: catalog.Some(6)}
	other := f150
	other.Year, other.Trim = 2020, "Lariat"
	silverado := catalog.Car{Make: "Chevrolet", Model: "Silverado", Year: 2021, Trim: "LT", Body: "Pickup", FuelType: catalog.FuelGasoline,
		DriveType: "4WD", Transmission: "Automatic (S10)", DisplacementL: catalog.Some(5.3), Cylinders: catalog.Some(8)}
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
	l := svc.Links("FORD", "F-150", 2021, vehicle.Decoded{})
	if !slices.Equal(l.Cars, []uuid.UUID{f150.UUID}) || !slices.Equal(l.TireSizes, []uuid.UUID{fit.UUID}) {
		t.Fatalf("F-150 2021 links = %+v", l)
	}
	if l := svc.Links("CHEVROLET", "Silverado 1500", 2021, vehicle.Decoded{}); len(l.Cars) != 1 || l.Cars[0] != silverado.UUID {
		t.Fatalf("Silverado 1500 links = %+v, want the Silverado by prefix", l)
	}
	if l := svc.Links("Ford", "Mustang", 2021, vehicle.Decoded{}); l.Cars == nil || len(l.Cars)+len(l.TireSizes) != 0 {
		t.Fatalf("Mustang links = %+v, want two empty lists", l)
	}
}

func ptr[T any](v T) *T { return &v }

// Each join rule of docs/data.md links a decoded name to its catalog family.
func TestLinkJoinRules(t *testing.T) {
	car := func(mk, model string, year int, trim string) catalog.Car {
		c := catalog.Car{Make: mk, Model: model, Year: year, Trim: trim, Body: "Sedan", FuelType: catalog.FuelGasoline, DriveType: "FWD"}
		if errs := c.Normalize(); errs != nil {
			t.Fatal(errs)
		}
		return c
	}
	cars := []catalog.Car{car("BMW", "3 Series", 2006, "325i"), car("Audi", "TT Coupe", 2005, ""), car("Audi", "TT Roadster", 2005, ""),
		car("Subaru", "B9 Tribeca", 2007, ""), car("Subaru", "Tribeca", 2010, ""), car("Scion", "xD", 2012, ""),
		car("Mercedes-Benz", "ML-Class", 2001, "ML320"), car("Volkswagen", "Golf/GTI", 2015, "Golf"), car("Toyota", "Prius", 2026, "")}
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: cars}, catalog.Version{}))
	for _, tc := range []struct {
		mk, model string
		year      int
		want      []int
	}{
		{"BMW", "325i", 2006, []int{0}}, {"Audi", "TT", 2005, []int{1, 2}}, {"Subaru", "B9 Tribeca", 2010, []int{4}},
		{"Subaru", "B9 Tribeca", 2007, []int{3}}, {"Toyota", "Scion xD", 2012, []int{5}}, {"Mercedes-Benz", "M-Class", 2001, []int{6}},
		{"Volkswagen", "Golf R", 2015, []int{7}}, {"Toyota", "Prius Prime (PHEV)", 2026, []int{8}}, {"BMW", "325i", 2007, nil},
	} {
		got := svc.Links(tc.mk, tc.model, tc.year, vehicle.Decoded{}).Cars
		want := []uuid.UUID{}
		for _, i := range tc.want {
			want = append(want, cars[i].UUID)
		}
		slices.SortFunc(got, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
		slices.SortFunc(want, func(a, b uuid.UUID) int { return strings.Compare(a.String(), b.String()) })
		if !slices.Equal(got, want) {
			t.Errorf("%s %s %d links %v, want %v", tc.mk, tc.model, tc.year, got, want)
		}
	}
}

// Linked cars come best match first, each with the fields that agree and
// differ; a hybrid's gasoline neither matches nor rules it out.
func TestLinksRankByDecode(t *testing.T) {
	car := func(trim, body, fuel string, displ float64, cyl int) catalog.Car {
		c := catalog.Car{Make: "Ford", Model: "F-150", Year: 2021, Trim: trim, Body: body, FuelType: fuel, DriveType: "4WD",
			DisplacementL: catalog.Some(displ), Cylinders: catalog.Some(cyl)}
		if errs := c.Normalize(); errs != nil {
			t.Fatal(errs)
		}
		return c
	}
	cars := []catalog.Car{car("Pickup 2WD", "Pickup", catalog.FuelGasoline, 5.0, 8), car("Pickup 4WD", "Pickup", catalog.FuelGasoline, 2.7, 6),
		car("XLT Hybrid", "Pickup", catalog.FuelHEV, 3.5, 6), car("XLT Pickup 2WD", "Pickup", catalog.FuelGasoline, 3.5, 6),
		car("Van", "Van", catalog.FuelDiesel, 3.0, 6)}
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: cars}, catalog.Version{}))
	l := svc.Links("Ford", "F-150", 2021, vehicle.Decoded{Body: "Pickup", DisplacementL: catalog.Some(3.49), Cylinders: catalog.Some(6),
		FuelType: catalog.FuelGasoline, Trims: []string{"XLT"}})
	want := []struct {
		car     int
		level   string
		matched string
		differs string
	}{
		{3, "full", "body displacement_l cylinders fuel_type trim", ""},
		{2, "full", "body displacement_l cylinders trim", ""},
		{1, "partial", "body cylinders fuel_type", "displacement_l"},
		{0, "partial", "body fuel_type", "displacement_l cylinders"},
		{4, "partial", "cylinders", "body displacement_l fuel_type"},
	}
	if len(l.Cars) != len(want) || len(l.CarMatches) != len(want) {
		t.Fatalf("links = %+v, want %d cars", l, len(want))
	}
	for i, w := range want {
		m := l.CarMatches[i]
		if l.Cars[i] != cars[w.car].UUID || m.ID != cars[w.car].UUID || m.Level != w.level ||
			strings.Join(m.Matched, " ") != w.matched || strings.Join(m.Differs, " ") != w.differs {
			t.Errorf("rank %d = %s %+v, want car %d (%s) %s, matched %q, differs %q", i, l.Cars[i], m, w.car, cars[w.car].UUID, w.level, w.matched, w.differs)
		}
	}
	if m := svc.Links("Ford", "F-150", 2021, vehicle.Decoded{}).CarMatches[0]; m.Level != "family" || m.Matched == nil || m.Differs == nil {
		t.Errorf("a decode that says nothing gives %+v, want level family and empty lists", m)
	}
}

// A powersports VIN links the motorcycles of its make, model and year by
// the car rules (case, punctuation, "Fat Boy" is the Fat Boy 114) and no
// car; a car's VIN links no motorcycle; one of unknown type links both.
func TestLinksMotorcycles(t *testing.T) {
	t.Parallel()
	moto := func(mk, model string, year int) catalog.Motorcycle {
		m := catalog.Motorcycle{Make: mk, Model: model, Year: year, MotorcycleType: "Street Motorcycle", VehicleType: "Motorcycle"}
		if errs := m.Normalize(); errs != nil {
			t.Fatal(errs)
		}
		return m
	}
	motos := []catalog.Motorcycle{moto("Harley-Davidson", "Fat Boy 114", 2022), moto("Harley-Davidson", "Fat Boy 114", 2021),
		moto("Harley-Davidson", "Street Glide", 2022), moto("Honda", "Civic", 2022)}
	civic := catalog.Car{Make: "Honda", Model: "Civic", Year: 2022, Body: "Sedan", FuelType: catalog.FuelGasoline, DriveType: "FWD"}
	if errs := civic.Normalize(); errs != nil {
		t.Fatal(errs)
	}
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: []catalog.Car{civic}, Motorcycles: motos}, catalog.Version{}))
	for _, tc := range []struct {
		mk, model, vehicleType string
		motos, cars            []uuid.UUID
	}{
		{"HARLEY DAVIDSON", "Fat Boy", "MOTORCYCLE", []uuid.UUID{motos[0].UUID}, []uuid.UUID{}},
		{"harley-davidson", "STREET GLIDE", "", []uuid.UUID{motos[2].UUID}, []uuid.UUID{}},
		{"Honda", "Civic", "PASSENGER CAR", []uuid.UUID{}, []uuid.UUID{civic.UUID}},
		{"Honda", "Civic", "OFF ROAD VEHICLE", []uuid.UUID{motos[3].UUID}, []uuid.UUID{}},
		{"Honda", "Civic", "", []uuid.UUID{motos[3].UUID}, []uuid.UUID{civic.UUID}},
	} {
		l := svc.Links(tc.mk, tc.model, 2022, vehicle.Decoded{VehicleType: tc.vehicleType})
		if !slices.Equal(l.Motorcycles, tc.motos) || !slices.Equal(l.Cars, tc.cars) || l.TireSizes == nil {
			t.Errorf("%s %s (%q) links %+v, want motorcycles %v and cars %v", tc.mk, tc.model, tc.vehicleType, l, tc.motos, tc.cars)
		}
	}
}

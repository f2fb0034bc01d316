package vehicle_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

func TestGet(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	check := func(t *testing.T, kind catalog.Kind, id uuid.UUID, want any, typed func(uuid.UUID) (any, error)) {
		t.Helper()
		got, err := svc.Get(kind, id)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("Get(%s, %s) = %v, %v; want %v", kind, id, got, err, want)
		}
		if got, err := typed(id); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("typed getter for %s = %v, %v", id, got, err)
		}
	}
	t.Run("every car", func(t *testing.T) {
		for _, r := range c.Cars {
			check(t, catalog.KindCar, r.UUID, r, func(id uuid.UUID) (any, error) { return svc.Car(id) })
		}
	})
	t.Run("every motorcycle", func(t *testing.T) {
		for _, r := range c.Motorcycles {
			check(t, catalog.KindMotorcycle, r.UUID, r, func(id uuid.UUID) (any, error) { return svc.Motorcycle(id) })
		}
	})
	t.Run("every boat", func(t *testing.T) {
		for _, r := range c.Boats {
			check(t, catalog.KindBoat, r.UUID, r, func(id uuid.UUID) (any, error) { return svc.Boat(id) })
		}
	})
	t.Run("every tire fitment", func(t *testing.T) {
		for _, r := range c.TireSizes {
			check(t, catalog.KindTireSize, r.UUID, r, func(id uuid.UUID) (any, error) { return svc.TireFitment(id) })
		}
	})

	missing := uuid.MustParse("00000000-0000-4000-8000-000000000000")
	tests := []struct {
		name string
		kind catalog.Kind
		id   uuid.UUID
	}{
		{"unknown car", catalog.KindCar, missing},
		{"unknown motorcycle", catalog.KindMotorcycle, missing},
		{"unknown boat", catalog.KindBoat, missing},
		{"unknown fitment", catalog.KindTireSize, missing},
		{"car uuid asked as a boat", catalog.KindBoat, c.Cars[0].UUID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Get(tt.kind, tt.id)
			e := wantError(t, err, vehicle.CodeNotFound, "")
			if !errors.Is(err, vehicle.ErrNotFound) || !strings.Contains(e.Message, tt.id.String()) {
				t.Errorf("error %v: want errors.Is ErrNotFound and the uuid in the message", err)
			}
			if vehicle.CodeOf(err) != vehicle.CodeNotFound {
				t.Errorf("CodeOf = %q", vehicle.CodeOf(err))
			}
		})
	}
	t.Run("unknown kind", func(t *testing.T) {
		_, err := svc.Get("plane", missing)
		wantError(t, err, vehicle.CodeInvalidParameter, "type")
		if errors.Is(err, vehicle.ErrNotFound) {
			t.Error("invalid kind matches ErrNotFound")
		}
	})
	t.Run("CodeOf a foreign error", func(t *testing.T) {
		if got := vehicle.CodeOf(errors.New("boom")); got != "" {
			t.Errorf("CodeOf = %q, want empty", got)
		}
	})
}

// TestCarKeepsEveryField reads back a car whose every field is set: a
// built snapshot keeps its cars packed, so a field added to catalog.Car
// and not to the packing would come back empty.
func TestCarKeepsEveryField(t *testing.T) {
	t.Parallel()
	want := catalog.Car{
		UUID: uuid.MustParse("6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41"), Make: "Toyota", Model: "Prius Prime", SourceModel: "Prius Prime SE",
		Year: 2024, Trim: "XSE Premium", Body: "Hatchback", FuelType: "Plug-in Hybrid (PHEV)", DriveType: "FWD",
		Transmission: "Automatic (variable gear ratios)", DisplacementL: catalog.Some(2.0), Cylinders: catalog.Some(4),
		Engine: "2.0L I4 plug-in hybrid",
		FuelEconomy: catalog.FuelEconomy{
			EPAID: catalog.Some(47200), MPGCity: catalog.Some(52.0), MPGHighway: catalog.Some(48.5), MPGCombined: catalog.Some(50.25),
			EPARangeMiles: catalog.Some(600), EPAElectricRangeMiles: catalog.Some(39), AnnualFuelCost: catalog.Some(850), CO2GPM: catalog.Some(112.5),
		},
		Electrified: true,
	}
	var unset func(prefix string, v reflect.Value)
	unset = func(prefix string, v reflect.Value) {
		for i := range v.NumField() {
			f, name := v.Field(i), prefix+v.Type().Field(i).Name
			switch {
			case v.Type().Field(i).Anonymous:
				unset(name+".", f)
			case f.IsZero():
				t.Errorf("the test car leaves %s unset: set it, and pack it (carRow)", name)
			}
		}
	}
	unset("", reflect.ValueOf(want))
	other := want
	other.UUID, other.Trim, other.DisplacementL, other.FuelEconomy = uuid.MustParse("6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e42"), "LE", catalog.Opt[float64]{}, catalog.FuelEconomy{}
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: []catalog.Car{other, want}}, catalog.Version{Number: 1}))
	for _, c := range []catalog.Car{want, other} {
		if got, err := svc.Car(c.UUID); err != nil || got != c {
			t.Errorf("Car(%s) = %+v, %v; want %+v", c.UUID, got, err, c)
		}
	}
}

func TestParseUUID(t *testing.T) {
	t.Parallel()
	const canon = "6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41"
	tests := []struct {
		name  string
		in    string
		valid bool
	}{
		{"canonical", canon, true},
		{"upper case", strings.ToUpper(canon), true},
		{"mixed case", "6F1c1D1e-52A3-4c55-9d7e-0B5a3f2c9e41", true},
		{"empty", "", false},
		{"short", "6f1c1d1e", false},
		{"32 hex digits", strings.ReplaceAll(canon, "-", ""), false},
		{"braces", "{" + canon + "}", false},
		{"urn", "urn:uuid:" + canon, false},
		{"non-hex", "zf1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41", false},
		{"dash misplaced", "6f1c1d1e5-2a3-4c55-9d7e-0b5a3f2c9e41", false},
		{"padded", " " + canon, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := vehicle.ParseUUID(tt.in)
			if tt.valid {
				if err != nil || id.String() != canon {
					t.Fatalf("ParseUUID(%q) = %v, %v; want %s", tt.in, id, err, canon)
				}
				return
			}
			wantError(t, err, vehicle.CodeInvalidUUID, "uuid")
			if id != uuid.Nil {
				t.Errorf("ParseUUID(%q) returned %v with an error", tt.in, id)
			}
		})
	}
}

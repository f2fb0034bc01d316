package vehicle_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// TestUnknownFilterValuesRefused: a value outside a closed filter's
// vocabulary used to match nothing, a 200 with an empty list that reads as
// "no such vehicles". It is an invalid_parameter naming the filter, with
// the accepted values and the closest one.
func TestUnknownFilterValuesRefused(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	for _, tc := range []struct {
		kind        catalog.Kind
		param, v    string
		accepted    []string
		suggestion  string
		messageHint string
	}{
		{catalog.KindCar, "body", "Truck", catalog.Bodies, "Pickup", "did you mean Pickup?"},
		{catalog.KindCar, "body", "sedann", catalog.Bodies, "Sedan", "did you mean Sedan?"},
		{catalog.KindCar, "drive_type", "xyz", catalog.Drives, "", "FWD, RWD, AWD, 4WD"},
		{catalog.KindCar, "drive_type", "4x4", catalog.Drives, "4WD", "did you mean 4WD?"},
		{catalog.KindCar, "fuel_type", "petrol", catalog.CarFuels, catalog.FuelGasoline, "or the codes gas, gasoline, diesel, ffv, hev, phev, bev, fcev"},
		{catalog.KindCar, "fuel_type", "phve", catalog.CarFuels, "phev", "did you mean phev?"},
		{catalog.KindMotorcycle, "motorcycle_type", "Scooters", catalog.MotorcycleTypes, "Scooter", "did you mean Scooter?"},
		{catalog.KindMotorcycle, "vehicle_type", "car", catalog.VehicleClasses, "", "Motorcycle, ATV/UTV"},
		{catalog.KindBoat, "hull_type", "alu", catalog.HullTypes, "Aluminum", "did you mean Aluminum?"},
		{catalog.KindBoat, "model_type", "yacht", catalog.VesselCategories, "Motor Yacht", "did you mean Motor Yacht?"},
		{catalog.KindBoat, "fuel_type", "petrol", catalog.BoatFuels, "Gas", "did you mean Gas?"},
		// A car fuel code is not a boat fuel.
		{catalog.KindBoat, "fuel_type", "bev", catalog.BoatFuels, "", "Gas, Diesel, Electric"},
	} {
		_, err := find(svc, tc.kind, []string{"make", "Toyota", tc.param, tc.v})
		e := wantError(t, err, vehicle.CodeInvalidParameter, tc.param)
		if !slices.Equal(e.AcceptedValues, tc.accepted) {
			t.Errorf("%s=%s: accepted values %q, want %q", tc.param, tc.v, e.AcceptedValues, tc.accepted)
		}
		if tc.suggestion != "" && e.Suggestion != tc.suggestion {
			t.Errorf("%s=%s: suggestion %q, want %q", tc.param, tc.v, e.Suggestion, tc.suggestion)
		}
		if e.Suggestion == "" {
			t.Errorf("%s=%s: no suggestion", tc.param, tc.v)
		}
		if !strings.Contains(e.Message, `"`+tc.v+`"`) || !strings.Contains(e.Message, tc.messageHint) {
			t.Errorf("%s=%s: message %q lacks the value or %q", tc.param, tc.v, e.Message, tc.messageHint)
		}
	}
}

// TestKnownFilterValuesAccepted: every spelling of the vocabulary, in any
// case, with the documented car fuel codes, still narrows a query; a known
// value no record has is an empty page, not an error.
func TestKnownFilterValuesAccepted(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	for _, tc := range []struct {
		kind  catalog.Kind
		param string
		vals  []string
	}{
		{catalog.KindCar, "body", catalog.Bodies},
		{catalog.KindCar, "fuel_type", append(slices.Clone(catalog.CarFuels), "gas", "GASOLINE", "Diesel", "ffv", "hev", "PHEV", "bev", "fcev")},
		{catalog.KindCar, "drive_type", []string{"fwd", "RWD", "awd", "4wd"}},
		{catalog.KindMotorcycle, "motorcycle_type", catalog.MotorcycleTypes},
		{catalog.KindMotorcycle, "vehicle_type", []string{"motorcycle", "atv/utv"}},
		{catalog.KindBoat, "hull_type", catalog.HullTypes},
		{catalog.KindBoat, "fuel_type", []string{"gas", "DIESEL", "Electric"}},
		{catalog.KindBoat, "model_type", catalog.VesselCategories},
	} {
		for _, v := range tc.vals {
			for _, spelling := range []string{v, strings.ToLower(v), strings.ToUpper(v), " " + v + " "} {
				if _, err := find(svc, tc.kind, []string{tc.param, spelling}); err != nil {
					t.Errorf("%s %s=%q: %v", tc.kind, tc.param, spelling, err)
				}
			}
		}
	}
	// The vocabulary follows the snapshot: a value outside the catalog's
	// lists that a loaded record holds is accepted too.
	// A copy, so that the demo catalog other tests share keeps its bodies.
	c := *demo(t)
	c.Cars = slices.Clone(c.Cars)
	c.Cars[0].Body = "Roadster"
	svc = vehicle.NewService(snapshot(t, &c, catalog.Version{}))
	page, err := find(svc, catalog.KindCar, []string{"body", "roadster"})
	if err != nil || page.Meta.Total != 1 {
		t.Fatalf("body=roadster on a snapshot holding it: %+v, %v", page.Meta, err)
	}
	_, err = find(svc, catalog.KindCar, []string{"body", "truck"})
	e := wantError(t, err, vehicle.CodeInvalidParameter, "body")
	if want := append(slices.Clone(catalog.Bodies), "Roadster"); !slices.Equal(e.AcceptedValues, want) {
		t.Errorf("accepted values %q, want %q", e.AcceptedValues, want)
	}
	// An empty snapshot (a server before its first load) accepts the lists.
	if _, err := find(vehicle.NewService(nil), catalog.KindBoat, []string{"hull_type", "wood"}); err != nil {
		t.Errorf("hull_type=wood on an empty snapshot: %v", err)
	}
}

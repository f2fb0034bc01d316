package client_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
)

// TestWireTypesMatchServer guards against drift between the server's
// encodings and the SDK's wire types, which are written separately so the
// SDK needs nothing internal. Each server value has every field set (by
// reflection, so a field added later is covered automatically); it must
// decode into the client type with no unknown field, and the client type
// must encode back to the same JSON, so a field missing on either side, or
// spelled differently, fails.
func TestWireTypesMatchServer(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		server any
		client any
	}{
		{"Car", &catalog.Car{}, &client.Car{}},
		{"Motorcycle", &catalog.Motorcycle{}, &client.Motorcycle{}},
		{"Boat", &catalog.Boat{}, &client.Boat{}},
		{"TireFitment", &catalog.TireFitment{}, &client.TireFitment{}},
		{"FuelEconomy", &catalog.FuelEconomy{}, &client.FuelEconomy{}},
		{"Meta", &vehicle.Meta{}, &client.Meta{}},
		{"MakeCount", &vehicle.MakeCount{}, &client.MakeCount{}},
		{"ModelRange", &vehicle.ModelRange{}, &client.ModelRange{}},
		{"NameCount", &vehicle.NameCount{}, &client.NameCount{}},
		{"TypeCount", &vehicle.TypeCount{}, &client.TypeCount{}},
		{"SizeGeometry", &vehicle.SizeGeometry{}, &client.SizeGeometry{}},
		{"AlternateGeometry", &vehicle.AlternateGeometry{}, &client.AlternateGeometry{}},
		{"FitmentGeometry", &vehicle.FitmentGeometry{}, &client.FitmentGeometry{}},
		{"CarRef", &vehicle.CarRef{}, &client.CarRef{}},
		{"CarTires", &vehicle.CarTires{}, &client.CarTires{}},
		{"VehicleTires", &vehicle.VehicleTires{}, &client.VehicleTires{}},
		{"FitmentPlusSizes", &vehicle.FitmentPlusSizes{}, &client.FitmentPlusSizes{}},
		{"SizeLookup", &vehicle.SizeLookup{}, &client.SizeLookup{}},
		{"Me", &httpapi.Me{}, &client.Me{}},
		{"Plan", &account.Plan{}, &client.Plan{}},
		{"List", &httpapi.List{}, &client.List{}},
		{"ListItem", &httpapi.ListItem{}, &client.ListItem{}},
		{"RecordRef", &httpapi.RecordRef{}, &client.RecordRef{}},
		{"ChangelogEntry", &httpapi.ChangelogEntry{}, &client.ChangelogEntry{}},
		{"RequestLine", &httpapi.RequestLine{}, &client.RequestLine{}},
		{"Problem", &edge.Problem{}, &client.Problem{}},
		{"VINReport", &lookup.VINReport{}, &client.VINReport{}},
		{"HINReport", &lookup.HINReport{}, &client.HINReport{}},
		{"HINFailure", &lookup.HINFailure{}, &client.HINEntry{}},
		{"CarRecalls", &lookup.CarRecalls{}, &client.CarRecalls{}},
		{"MotorcycleRecalls", &lookup.MotorcycleRecalls{}, &client.MotorcycleRecalls{}},
		{"Complaints", &lookup.Complaints{}, &client.Complaints{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fill(reflect.ValueOf(tt.server).Elem())
			want, err := json.Marshal(tt.server)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(want))
			dec.DisallowUnknownFields()
			if err := dec.Decode(tt.client); err != nil {
				t.Fatalf("server JSON does not fit the client type: %v\n%s", err, want)
			}
			got, err := json.Marshal(tt.client)
			if err != nil {
				t.Fatal(err)
			}
			var w, g any
			_ = json.Unmarshal(want, &w)
			_ = json.Unmarshal(got, &g)
			if !reflect.DeepEqual(w, g) {
				t.Errorf("round trip differs:\nserver %s\nclient %s", want, got)
			}
		})
	}
}

// fill sets every field reachable from v to a non-zero value: pointers are
// allocated, slices get one element, so that null and omitempty hide
// nothing from the comparison.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0))
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i))
		}
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	}
}

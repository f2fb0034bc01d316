package client_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/lookup"
)

// TestLookupWireTypesMatchServer is TestWireTypesMatchServer for the
// NHTSA-backed answers: VIN decoding and recalls.
func TestLookupWireTypesMatchServer(t *testing.T) {
	tests := []struct {
		name   string
		server any
		client any
	}{
		{"VINReport", &lookup.VINReport{}, &client.VINReport{}},
		{"CarRecalls", &lookup.CarRecalls{}, &client.CarRecalls{}},
		{"MotorcycleRecalls", &lookup.MotorcycleRecalls{}, &client.MotorcycleRecalls{}},
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

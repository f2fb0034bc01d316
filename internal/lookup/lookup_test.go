package lookup

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/vin"
)

func TestTitleCase(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"MERCEDES-BENZ": "Mercedes-Benz", "LAND ROVER": "Land Rover", "ford": "Ford", "BMW": "Bmw", "": "",
	} {
		if got := titleCase(in); got != want {
			t.Errorf("titleCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUpstreamErrorCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		code string
	}{
		{fmt.Errorf("decode: %w", upstream.ErrUpstreamBad), CodeUpstreamError},
		{fmt.Errorf("fetch: %w", upstream.ErrUpstreamUnavailable), CodeUpstreamUnavailable},
		{errors.New("connection refused"), CodeUpstreamUnavailable},
	}
	for _, tc := range tests {
		var ve *vehicle.Error
		if err := upstreamError("NHTSA", tc.err); !errors.As(err, &ve) || ve.Code != tc.code || ve.Message == "" {
			t.Errorf("upstreamError(%v) = %v, want code %s", tc.err, err, tc.code)
		}
	}
}

func TestInvalidVINNeverReachesUpstream(t *testing.T) {
	t.Parallel()
	// A nil upstream client would panic if it were called.
	s := New(vehicle.NewService(nil), nil, "auto", "")
	for _, bad := range []string{"", "SHORT", "1FTMW1T88MFA0000I", "1FTMW1T88MFA 0001"} {
		_, _, err := s.DecodeVIN(t.Context(), bad)
		if vehicle.CodeOf(err) != CodeInvalidVIN {
			t.Errorf("DecodeVIN(%q) = %v, want invalid_vin", bad, err)
		}
	}
}

// TestUnknownWMIIsNull: a region or country no table assigns is null, as
// documented, not "".
func TestUnknownWMIIsNull(t *testing.T) {
	for _, c := range []struct {
		vin, region, country string
	}{
		{"00000000000000000", "null", "null"},
		{"A0000000000000000", `"Africa"`, "null"},
		{"1FTMW1T88MFA00001", `"North America"`, `"United States"`},
	} {
		local, err := vin.Decode(c.vin)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(checksOf(local).WMI)
		if want := fmt.Sprintf(`{"code":%q,"region":%s,"country":%s}`, c.vin[:3], c.region, c.country); string(b) != want {
			t.Errorf("%s: wmi %s, want %s", c.vin, b, want)
		}
	}
}

// TestVehicleTypeSpelling: live vPIC, the snapshot and vPIC's padded
// spellings of a vehicle type give one spelling.
func TestVehicleTypeSpelling(t *testing.T) {
	for in, want := range map[string]string{"TRUCK": "TRUCK", "Truck": "TRUCK", "Truck ": "TRUCK",
		"Multipurpose Passenger Vehicle (MPV)": "MULTIPURPOSE PASSENGER VEHICLE (MPV)"} {
		if got := vehicleType(&in); got == nil || *got != want {
			t.Errorf("vehicleType(%q) = %v, want %q", in, got, want)
		}
	}
	if vehicleType(nil) != nil || vehicleType(new(string)) != nil {
		t.Error("an absent or empty vehicle type is not null")
	}
}

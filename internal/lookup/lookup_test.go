package lookup

import (
	"errors"
	"fmt"
	"testing"

	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
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
	s := New(vehicle.NewService(nil), nil, "auto")
	for _, bad := range []string{"", "SHORT", "1FTMW1T88MFA0000I", "1FTMW1T88MFA 0001"} {
		_, _, err := s.DecodeVIN(t.Context(), bad)
		if vehicle.CodeOf(err) != CodeInvalidVIN {
			t.Errorf("DecodeVIN(%q) = %v, want invalid_vin", bad, err)
		}
	}
}

package tire_test

import (
	"math"
	"testing"

	"github.com/vds-dev/vds/internal/tire"
)

// tol is the agreement required with the hand-computed literals below,
// which are written to four decimals.
const tol = 0.01

func TestGeometry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		size string
		want tire.Geometry
	}{
		{
			// sidewall = 225 * 0.45 = 101.25 mm = 101.25 / 25.4 = 3.9862 in
			// diameter = 17 + 2 * 3.9862 = 24.9724 in = 24.9724 * 25.4 = 634.30 mm
			//   (equivalently 17 * 25.4 + 2 * 101.25 = 431.8 + 202.5 = 634.3 mm)
			// circumference = pi * 24.9724 = 78.4532 in = pi * 634.3 = 1992.7122 mm
			// revs/mile = 63360 / 78.4532 = 807.6149
			name: "euro metric 225/45R17",
			size: "225/45R17",
			want: tire.Geometry{
				WidthMM: 225, WidthIn: 8.8583, // 225 / 25.4
				SidewallMM: 101.25, SidewallIn: 3.9862,
				DiameterIn: 24.9724, DiameterMM: 634.3,
				CircumferenceIn: 78.4532, CircumferenceMM: 1992.7122,
				RevsPerMile: 807.6149,
			},
		},
		{
			// sidewall = 215 * 0.65 = 139.75 mm = 5.5020 in
			// diameter = 16 + 2 * 5.5020 = 27.0039 in = 16 * 25.4 + 279.5 = 685.9 mm
			// circumference = pi * 27.0039 = 84.8354 in = pi * 685.9 = 2154.8184 mm
			// revs/mile = 63360 / 84.8354 = 746.8583
			name: "P-metric P215/65R16",
			size: "P215/65R16 95T",
			want: tire.Geometry{
				WidthMM: 215, WidthIn: 8.4646, // 215 / 25.4
				SidewallMM: 139.75, SidewallIn: 5.5020,
				DiameterIn: 27.0039, DiameterMM: 685.9,
				CircumferenceIn: 84.8354, CircumferenceMM: 2154.8184,
				RevsPerMile: 746.8583,
			},
		},
		{
			// sidewall = 265 * 0.70 = 185.5 mm = 7.3031 in
			// diameter = 17 + 2 * 7.3031 = 31.6063 in = 431.8 + 371 = 802.8 mm
			// circumference = pi * 31.6063 = 99.2941 in = pi * 802.8 = 2522.0706 mm
			// revs/mile = 63360 / 99.2941 = 638.1043
			name: "LT-metric LT265/70R17",
			size: "LT265/70R17",
			want: tire.Geometry{
				WidthMM: 265, WidthIn: 10.4331, // 265 / 25.4
				SidewallMM: 185.5, SidewallIn: 7.3031,
				DiameterIn: 31.6063, DiameterMM: 802.8,
				CircumferenceIn: 99.2941, CircumferenceMM: 2522.0706,
				RevsPerMile: 638.1043,
			},
		},
		{
			// sidewall = 245 * 0.40 = 98 mm = 3.8583 in
			// diameter = 18 + 2 * 3.8583 = 25.7165 in = 457.2 + 196 = 653.2 mm
			// circumference = pi * 25.7165 = 80.7909 in = pi * 653.2 = 2052.0883 mm
			// revs/mile = 63360 / 80.7909 = 784.2469
			name: "ZR 245/40ZR18",
			size: "245/40ZR18",
			want: tire.Geometry{
				WidthMM: 245, WidthIn: 9.6457, // 245 / 25.4
				SidewallMM: 98, SidewallIn: 3.8583,
				DiameterIn: 25.7165, DiameterMM: 653.2,
				CircumferenceIn: 80.7909, CircumferenceMM: 2052.0883,
				RevsPerMile: 784.2469,
			},
		},
		{
			// width = 12.50 in = 12.5 * 25.4 = 317.5 mm
			// sidewall = (33 - 15) / 2 = 9 in = 228.6 mm
			// diameter = 33 in = 33 * 25.4 = 838.2 mm
			// circumference = pi * 33 = 103.6726 in = pi * 838.2 = 2633.2830 mm
			// revs/mile = 63360 / 103.6726 = 611.1550
			name: "flotation 33x12.50R15",
			size: "33x12.50R15",
			want: tire.Geometry{
				WidthMM: 317.5, WidthIn: 12.5,
				SidewallMM: 228.6, SidewallIn: 9,
				DiameterIn: 33, DiameterMM: 838.2,
				CircumferenceIn: 103.6726, CircumferenceMM: 2633.2830,
				RevsPerMile: 611.1550,
			},
		},
		{
			// width = 12.50 in = 317.5 mm
			// sidewall = (37 - 16.5) / 2 = 10.25 in = 260.35 mm
			// diameter = 37 in = 939.8 mm
			// circumference = pi * 37 = 116.2389 in = pi * 939.8 = 2952.4688 mm
			// revs/mile = 63360 / 116.2389 = 545.0842
			name: "flotation half inch rim 37x12.50R16.5 LT",
			size: "37x12.50R16.5 LT",
			want: tire.Geometry{
				WidthMM: 317.5, WidthIn: 12.5,
				SidewallMM: 260.35, SidewallIn: 10.25,
				DiameterIn: 37, DiameterMM: 939.8,
				CircumferenceIn: 116.2389, CircumferenceMM: 2952.4688,
				RevsPerMile: 545.0842,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sz, err := tire.Parse(tt.size)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.size, err)
			}
			assertGeometry(t, sz.Geometry(), tt.want)
		})
	}
}

func assertGeometry(t *testing.T, got, want tire.Geometry) {
	t.Helper()
	fields := []struct {
		name      string
		got, want float64
	}{
		{"WidthMM", got.WidthMM, want.WidthMM},
		{"WidthIn", got.WidthIn, want.WidthIn},
		{"SidewallMM", got.SidewallMM, want.SidewallMM},
		{"SidewallIn", got.SidewallIn, want.SidewallIn},
		{"DiameterIn", got.DiameterIn, want.DiameterIn},
		{"DiameterMM", got.DiameterMM, want.DiameterMM},
		{"CircumferenceIn", got.CircumferenceIn, want.CircumferenceIn},
		{"CircumferenceMM", got.CircumferenceMM, want.CircumferenceMM},
		{"RevsPerMile", got.RevsPerMile, want.RevsPerMile},
	}
	for _, f := range fields {
		if math.Abs(f.got-f.want) > tol {
			t.Errorf("%s = %.6f, want %.4f ± %v", f.name, f.got, f.want, tol)
		}
	}
}

func TestGeometryUnknownKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		size tire.Size
	}{
		{"zero", tire.Size{}},
		{"unknown kind", tire.Size{Kind: "bias-ply", WidthMM: 225, RimIn: 17}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if g := tt.size.Geometry(); g != (tire.Geometry{}) {
				t.Errorf("Geometry() = %+v, want zero", g)
			}
		})
	}
}

func TestGeometryZeroDiameterHasNoRevs(t *testing.T) {
	t.Parallel()
	// A hand-built size with no dimensions must not report +Inf
	// revolutions, which would break JSON encoding downstream.
	g := tire.Size{Kind: tire.Flotation}.Geometry()
	if g.RevsPerMile != 0 {
		t.Errorf("RevsPerMile = %v, want 0", g.RevsPerMile)
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		oem, alt   tire.Geometry
		wantDiffIn float64
		wantPct    float64
		wantWithin bool
	}{
		{
			// 225/45R17 = 24.9724 in; 225/40R18 = 18 + 2 * 90 / 25.4 = 25.0866 in
			// diff = 25.0866 - 24.9724 = 0.1142 in = 0.1142 / 24.9724 = +0.4572 %
			name:       "within window 225/45R17 to 225/40R18",
			oem:        geometry(t, "225/45R17"),
			alt:        geometry(t, "225/40R18"),
			wantDiffIn: 0.1142, wantPct: 0.4572, wantWithin: true,
		},
		{
			// 265/70R17 = 31.6063 in; 285/75R17 = 17 + 2 * 213.75 / 25.4 = 33.8307 in
			// diff = 2.2244 in = 2.2244 / 31.6063 = +7.0379 %
			name:       "outside window 265/70R17 to 285/75R17",
			oem:        geometry(t, "LT265/70R17"),
			alt:        geometry(t, "LT285/75R17"),
			wantDiffIn: 2.2244, wantPct: 7.0379, wantWithin: false,
		},
		{
			// diff = 31.6063 - 33.8307 = -2.2244 in = -2.2244 / 33.8307 = -6.5751 %
			name:       "outside window smaller alternate",
			oem:        geometry(t, "LT285/75R17"),
			alt:        geometry(t, "LT265/70R17"),
			wantDiffIn: -2.2244, wantPct: -6.5751, wantWithin: false,
		},
		{
			// 33x12.50R15 vs 31x10.50R15: -2 / 33 = -6.0606 %
			name:       "outside window flotation",
			oem:        geometry(t, "33x12.50R15"),
			alt:        geometry(t, "31x10.50R15"),
			wantDiffIn: -2, wantPct: -6.0606, wantWithin: false,
		},
		{
			name:       "identical",
			oem:        geometry(t, "225/45R17"),
			alt:        geometry(t, "225/45R17"),
			wantDiffIn: 0, wantPct: 0, wantWithin: true,
		},
		{
			// 0.75 / 25 = 3 % exactly.
			name:       "exactly plus 3 percent",
			oem:        tire.Geometry{DiameterIn: 25},
			alt:        tire.Geometry{DiameterIn: 25.75},
			wantDiffIn: 0.75, wantPct: 3, wantWithin: true,
		},
		{
			// -0.75 / 25 = -3 % exactly.
			name:       "exactly minus 3 percent",
			oem:        tire.Geometry{DiameterIn: 25},
			alt:        tire.Geometry{DiameterIn: 24.25},
			wantDiffIn: -0.75, wantPct: -3, wantWithin: true,
		},
		{
			// 0.99 / 33 = 3 % on paper, but in float64 the quotient is
			// 3.000000000000006; the slack must keep it inside.
			name:       "3 percent with float rounding noise",
			oem:        tire.Geometry{DiameterIn: 33},
			alt:        tire.Geometry{DiameterIn: 33.99},
			wantDiffIn: 0.99, wantPct: 3, wantWithin: true,
		},
		{
			// 0.7501 / 25 = 3.0004 %
			name:       "just over plus 3 percent",
			oem:        tire.Geometry{DiameterIn: 25},
			alt:        tire.Geometry{DiameterIn: 25.7501},
			wantDiffIn: 0.7501, wantPct: 3.0004, wantWithin: false,
		},
		{
			// -0.7501 / 25 = -3.0004 %
			name:       "just over minus 3 percent",
			oem:        tire.Geometry{DiameterIn: 25},
			alt:        tire.Geometry{DiameterIn: 24.2499},
			wantDiffIn: -0.7501, wantPct: -3.0004, wantWithin: false,
		},
		{
			// No OEM diameter: the percentage is undefined and must
			// not become NaN or Inf.
			name:       "zero OEM diameter",
			oem:        tire.Geometry{},
			alt:        tire.Geometry{DiameterIn: 25},
			wantDiffIn: 25, wantPct: 0, wantWithin: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tire.Compare(tt.oem, tt.alt)
			if math.Abs(got.DiameterDiffIn-tt.wantDiffIn) > tol {
				t.Errorf("DiameterDiffIn = %.6f, want %.4f", got.DiameterDiffIn, tt.wantDiffIn)
			}
			if math.Abs(got.DiameterDiffPct-tt.wantPct) > tol {
				t.Errorf("DiameterDiffPct = %.6f, want %.4f", got.DiameterDiffPct, tt.wantPct)
			}
			if got.WithinWindow != tt.wantWithin {
				t.Errorf("WithinWindow = %v, want %v (pct %.12f)", got.WithinWindow, tt.wantWithin, got.DiameterDiffPct)
			}
		})
	}
}

func geometry(t *testing.T, size string) tire.Geometry {
	t.Helper()
	sz, err := tire.Parse(size)
	if err != nil {
		t.Fatalf("Parse(%q): %v", size, err)
	}
	return sz.Geometry()
}

func TestRound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		v      float64
		places int
		want   float64
	}{
		{"two places", 24.97244, 2, 24.97},
		{"half rounds up", 0.125, 2, 0.13},
		{"half rounds away from zero when negative", -0.125, 2, -0.13},
		{"one place", 807.6149, 1, 807.6},
		{"zero places", 611.55, 0, 612},
		{"negative places", 1234.5, -2, 1200},
		{"negative to zero normalises sign", -0.001, 2, 0},
		{"huge places leave value", 1.5, 400, 1.5},
		{"huge negative places give zero", 1.5, -400, 0},
		{"value too large for places", 1e300, 20, 1e300},
		{"max float negative places", math.MaxFloat64, -1, math.MaxFloat64},
		{"overflow when rounding up near max float", math.MaxFloat64, -6, math.MaxFloat64},
		{"positive infinity", math.Inf(1), 2, math.Inf(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tire.Round(tt.v, tt.places)
			if got != tt.want || math.Signbit(got) != math.Signbit(tt.want) {
				t.Errorf("Round(%v, %d) = %v, want %v", tt.v, tt.places, got, tt.want)
			}
		})
	}
	t.Run("NaN", func(t *testing.T) {
		if got := tire.Round(math.NaN(), 2); !math.IsNaN(got) {
			t.Errorf("Round(NaN, 2) = %v, want NaN", got)
		}
	})
}

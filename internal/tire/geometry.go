package tire

import "math"

const (
	mmPerInch     = 25.4
	inchesPerMile = 63360
)

// FitmentWindowPct is the largest overall-diameter difference, in percent of
// the OEM diameter, at which an alternate size fits.
const FitmentWindowPct = 3.0

// windowSlackPct keeps a size exactly at the window edge from falling out by a last-bit error.
const windowSlackPct = 1e-9

// Geometry is the unrounded geometry of an unloaded tire, in inches and millimetres.
type Geometry struct {
	WidthMM, WidthIn                 float64
	SidewallMM, SidewallIn           float64
	DiameterIn, DiameterMM           float64
	CircumferenceIn, CircumferenceMM float64
	// RevsPerMile ignores deflection; 0 when the diameter is not positive.
	RevsPerMile float64
}

// Geometry derives the geometry of s; the zero Geometry for a Size of no Kind.
func (s Size) Geometry() Geometry {
	var g Geometry
	switch s.Kind {
	case Metric:
		g.SidewallMM = s.WidthMM * float64(s.AspectRatio) / 100
		g.SidewallIn = g.SidewallMM / mmPerInch
		g.DiameterIn = s.RimIn + 2*g.SidewallIn
	case Flotation:
		g.DiameterIn = s.DiameterIn
		g.SidewallIn = (s.DiameterIn - s.RimIn) / 2
		g.SidewallMM = g.SidewallIn * mmPerInch
	default:
		return Geometry{}
	}
	g.WidthMM = s.WidthMM
	g.WidthIn = s.WidthMM / mmPerInch
	g.DiameterMM = g.DiameterIn * mmPerInch
	g.CircumferenceIn = math.Pi * g.DiameterIn
	g.CircumferenceMM = math.Pi * g.DiameterMM
	// A zero Size must not yield +Inf, which JSON encoding rejects.
	if g.CircumferenceIn > 0 {
		g.RevsPerMile = inchesPerMile / g.CircumferenceIn
	}
	return g
}

// Comparison is how an alternate's overall diameter differs from the OEM's.
type Comparison struct {
	DiameterDiffIn  float64
	DiameterDiffPct float64
	WithinWindow    bool
}

// Compare compares alt against oem. A non-positive OEM diameter gives 0% and
// not within the window, rather than NaN or infinity in API responses.
func Compare(oem, alt Geometry) Comparison {
	return compareWithin(oem, alt, FitmentWindowPct)
}

func compareWithin(oem, alt Geometry, windowPct float64) Comparison {
	c := Comparison{DiameterDiffIn: alt.DiameterIn - oem.DiameterIn}
	if !(oem.DiameterIn > 0) {
		return c
	}
	c.DiameterDiffPct = c.DiameterDiffIn / oem.DiameterIn * 100
	c.WithinWindow = math.Abs(c.DiameterDiffPct) <= windowPct+windowSlackPct
	return c
}

// Round rounds v to places decimals, halves away from zero; NaN and infinities stay.
func Round(v float64, places int) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	var r float64
	if places >= 0 {
		p := math.Pow10(places)
		x := v * p
		if math.IsInf(p, 0) || math.IsInf(x, 0) {
			return v
		}
		r = math.Round(x) / p
	} else {
		p := math.Pow10(-places)
		if math.IsInf(p, 0) {
			return 0
		}
		r = math.Round(v/p) * p
		if math.IsInf(r, 0) {
			return v
		}
	}
	// No "-0" in JSON for a tiny negative that rounds away.
	if r == 0 {
		return 0
	}
	return r
}

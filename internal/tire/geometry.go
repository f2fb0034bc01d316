package tire

import "math"

const (
	mmPerInch     = 25.4
	inchesPerMile = 63360
)

// FitmentWindowPct is the largest overall-diameter difference, in
// percent of the OEM diameter, at which an alternate size is considered
// a fit. Beyond it speedometer error and clearance changes are
// generally unacceptable.
const FitmentWindowPct = 3.0

// windowSlackPct absorbs floating-point error in diameters derived
// through unit conversions, so an alternate that is exactly at the
// window edge on paper is not excluded by a last-bit rounding artefact.
const windowSlackPct = 1e-9

// Geometry is the unrounded physical geometry of an unloaded tire,
// in both inches and millimetres.
type Geometry struct {
	// WidthMM and WidthIn are the section width.
	WidthMM, WidthIn float64
	// SidewallMM and SidewallIn are the sidewall height, from rim to
	// tread.
	SidewallMM, SidewallIn float64
	// DiameterIn and DiameterMM are the overall diameter.
	DiameterIn, DiameterMM float64
	// CircumferenceIn and CircumferenceMM are the overall
	// circumference.
	CircumferenceIn, CircumferenceMM float64
	// RevsPerMile is the number of revolutions the tire makes per mile,
	// ignoring deflection under load; 0 when the diameter is not
	// positive.
	RevsPerMile float64
}

// Geometry derives the geometry of s. Metric sizes derive the diameter
// from width and aspect ratio; flotation sizes state it and derive the
// sidewall instead. A Size whose Kind is neither Metric nor Flotation
// yields the zero Geometry.
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
	// Guarded so a hand-built zero Size cannot yield +Inf, which JSON
	// encoding rejects.
	if g.CircumferenceIn > 0 {
		g.RevsPerMile = inchesPerMile / g.CircumferenceIn
	}
	return g
}

// Comparison describes how an alternate tire's overall diameter differs
// from the OEM tire's.
type Comparison struct {
	// DiameterDiffIn is the alternate diameter minus the OEM diameter,
	// in inches.
	DiameterDiffIn float64
	// DiameterDiffPct is DiameterDiffIn as a percentage of the OEM
	// diameter.
	DiameterDiffPct float64
	// WithinWindow reports whether |DiameterDiffPct| is at most
	// FitmentWindowPct.
	WithinWindow bool
}

// Compare compares an alternate tire's geometry against the OEM tire's.
// If the OEM diameter is not positive the percentage is meaningless, so
// DiameterDiffPct is 0 and WithinWindow is false rather than a NaN or
// infinity leaking into API responses.
func Compare(oem, alt Geometry) Comparison {
	c := Comparison{DiameterDiffIn: alt.DiameterIn - oem.DiameterIn}
	if !(oem.DiameterIn > 0) {
		return c
	}
	c.DiameterDiffPct = c.DiameterDiffIn / oem.DiameterIn * 100
	c.WithinWindow = math.Abs(c.DiameterDiffPct) <= FitmentWindowPct+windowSlackPct
	return c
}

// Round rounds v to the given number of decimal places, halves away
// from zero; negative places round to tens, hundreds and so on. NaN and
// infinities are returned unchanged.
func Round(v float64, places int) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	var r float64
	if places >= 0 {
		p := math.Pow10(places)
		x := v * p
		if math.IsInf(p, 0) || math.IsInf(x, 0) {
			// Too many places to change a float64's value.
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
			// Rounding up near MaxFloat64 overflowed.
			return v
		}
	}
	// Normalise -0, which JSON encodes as "-0", for tiny negatives such
	// as a diameter difference that rounds away.
	if r == 0 {
		return 0
	}
	return r
}

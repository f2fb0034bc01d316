package vehicle

import (
	"strings"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
)

// SizeGeometry is the rounded geometry of one tire size.
type SizeGeometry struct {
	Size            string  `json:"size" jsonschema:"The tire size, in canonical form, e.g. 225/45R17."`
	WidthMM         float64 `json:"width_mm" jsonschema:"Section width in millimetres." unit:"mm"`
	WidthIn         float64 `json:"width_in" jsonschema:"Section width in inches." unit:"in"`
	SidewallMM      float64 `json:"sidewall_mm" jsonschema:"Sidewall height in millimetres." unit:"mm"`
	SidewallIn      float64 `json:"sidewall_in" jsonschema:"Sidewall height in inches." unit:"in"`
	DiameterIn      float64 `json:"diameter_in" jsonschema:"Overall diameter in inches." unit:"in"`
	DiameterMM      float64 `json:"diameter_mm" jsonschema:"Overall diameter in millimetres." unit:"mm"`
	CircumferenceIn float64 `json:"circumference_in" jsonschema:"Circumference in inches." unit:"in"`
	CircumferenceMM float64 `json:"circumference_mm" jsonschema:"Circumference in millimetres." unit:"mm"`
	RevsPerMile     float64 `json:"revs_per_mile" jsonschema:"Revolutions per mile of the unloaded tire." unit:"rev/mi"`
}

// AlternateGeometry compares an alternate size's diameter with the OEM size's.
type AlternateGeometry struct {
	SizeGeometry
	DiameterDiffIn  float64 `json:"diameter_diff_in" jsonschema:"Diameter of this size minus the OEM size's, in inches." unit:"in"`
	DiameterDiffPct float64 `json:"diameter_diff_pct" jsonschema:"Diameter difference from the OEM size, in percent of the OEM diameter." unit:"%"`
	// WithinWindow is judged on the unrounded difference.
	WithinWindow bool `json:"within_window" jsonschema:"True when the diameter difference is within ±window_pct percent."`
}

// FitmentGeometry is the geometry of a fitment's sizes.
type FitmentGeometry struct {
	Fitment    catalog.TireFitment `json:"fitment" jsonschema:"The tire fitment."`
	OEM        SizeGeometry        `json:"oem" jsonschema:"Geometry of the OEM size (the front size when staggered)."`
	Rear       *SizeGeometry       `json:"rear" jsonschema:"Geometry of the rear size of a staggered fitment; null otherwise."`
	Alternates []AlternateGeometry `json:"alternates" jsonschema:"The alternate sizes, compared with the OEM (front) size."`
	// RearAlternates is empty, never nil, when the fitment is not staggered.
	RearAlternates []AlternateGeometry `json:"rear_alternates" jsonschema:"The rear alternate sizes, compared with the rear size; empty when not staggered."`
	WindowPct      float64             `json:"window_pct" jsonschema:"The accepted fitment window, ± percent of the OEM diameter." unit:"%"`
}

// CarRef identifies the car a tire lookup was made for.
type CarRef struct {
	UUID  uuid.UUID `json:"uuid" jsonschema:"The car's uuid."`
	Make  string    `json:"make" jsonschema:"The car's make."`
	Model string    `json:"model" jsonschema:"The car's model."`
	Year  int       `json:"year" jsonschema:"The car's model year."`
	Trim  string    `json:"trim" jsonschema:"The car's trim; empty when it has none."`
}

// Tire match kinds: which fitments a lookup returned.
const (
	MatchExactYear   = "exact_year"
	MatchNearestYear = "nearest_year"
	MatchNone        = "none"
)

// CarTires is the answer of /cars/{uuid}/tire-sizes.
type CarTires struct {
	Car      CarRef            `json:"car" jsonschema:"The car the fitments were looked up for."`
	Match    string            `json:"match" jsonschema:"exact_year, nearest_year or none."`
	Fitments []FitmentGeometry `json:"fitments" jsonschema:"The matched fitments with their geometry; empty when match is none."`
}

func (CarTires) SchemaDescription() string { return "The tire fitments matched to a car." }

var matchKinds = []string{MatchExactYear, MatchNearestYear, MatchNone}

func (CarTires) SchemaEnums() map[string][]string { return map[string][]string{"match": matchKinds} }
func (VehicleTires) SchemaEnums() map[string][]string {
	return map[string][]string{"match": matchKinds}
}

// VehicleTires is the answer of a make/model/year tire lookup (the
// tire_sizes_for_vehicle tool): CarTires without the car.
type VehicleTires struct {
	Match    string            `json:"match"`
	Fitments []FitmentGeometry `json:"fitments"`
}

// sizeGeometry gives a size that does not parse zero geometry rather than
// failing the snapshot.
func sizeGeometry(size string) (SizeGeometry, tire.Geometry, bool) {
	sz, err := tire.Parse(size)
	if err != nil {
		return SizeGeometry{Size: size}, tire.Geometry{}, false
	}
	g := sz.Geometry()
	return roundGeometry(sz.Canonical(), g), g, true
}

func roundGeometry(name string, g tire.Geometry) SizeGeometry {
	return SizeGeometry{
		Size:            name,
		WidthMM:         tire.Round(g.WidthMM, 1),
		WidthIn:         tire.Round(g.WidthIn, 2),
		SidewallMM:      tire.Round(g.SidewallMM, 1),
		SidewallIn:      tire.Round(g.SidewallIn, 2),
		DiameterIn:      tire.Round(g.DiameterIn, 2),
		DiameterMM:      tire.Round(g.DiameterMM, 1),
		CircumferenceIn: tire.Round(g.CircumferenceIn, 2),
		CircumferenceMM: tire.Round(g.CircumferenceMM, 1),
		RevsPerMile:     tire.Round(g.RevsPerMile, 1),
	}
}

// GeometryOf computes a fitment's geometry, rounding last; rear
// alternates compare with the rear size.
func GeometryOf(f *catalog.TireFitment) FitmentGeometry {
	fg := FitmentGeometry{Fitment: *f, WindowPct: tire.FitmentWindowPct, RearAlternates: []AlternateGeometry{}}
	var oem tire.Geometry
	var oemOK bool
	fg.OEM, oem, oemOK = sizeGeometry(f.TireSize)
	fg.Alternates = alternateGeometry(oem, oemOK, f.AlternateSizes)
	if f.RearTireSize != nil {
		rear, g, ok := sizeGeometry(*f.RearTireSize)
		fg.Rear = &rear
		fg.RearAlternates = alternateGeometry(g, ok, f.RearAlternateSizes)
	}
	return fg
}

// alternateGeometry compares each alternate with the OEM size of its axle.
func alternateGeometry(oem tire.Geometry, oemOK bool, sizes []string) []AlternateGeometry {
	out := make([]AlternateGeometry, 0, len(sizes))
	for _, a := range sizes {
		sg, g, ok := sizeGeometry(a)
		alt := AlternateGeometry{SizeGeometry: sg}
		if ok && oemOK {
			c := tire.Compare(oem, g)
			alt.DiameterDiffIn = tire.Round(c.DiameterDiffIn, 2)
			alt.DiameterDiffPct = tire.Round(c.DiameterDiffPct, 2)
			alt.WithinWindow = c.WithinWindow
		}
		out = append(out, alt)
	}
	return out
}

func familyKey(mk, model string) string {
	return squash(mk) + "\x00" + squash(model)
}

// MaxNearestYears bounds how far from a car's model year its fitments may
// come: a facelift, never a generation.
const MaxNearestYears = 2

// tiresFor returns the fitments of a make, model and powertrain pt (any:
// all) for a year, else of the nearest years within MaxNearestYears.
func (s *Snapshot) tiresFor(mk, model string, year int, pt powertrain) (string, []FitmentGeometry) {
	cands := s.families.byKey[familyKey(mk, model)]
	ours := func(p int32) bool { return pt == anyPowertrain || s.fitPowertrain[p] == pt }
	best := -1
	for _, p := range cands {
		if !ours(p) {
			continue
		}
		if d := absInt(s.tires.recs[p].Year - year); best < 0 || d < best {
			best = d
		}
	}
	if best < 0 || best > MaxNearestYears {
		return MatchNone, []FitmentGeometry{}
	}
	out := make([]FitmentGeometry, 0, len(cands))
	for _, p := range cands {
		if ours(p) && absInt(s.tires.recs[p].Year-year) == best {
			out = append(out, s.geometry[p])
		}
	}
	if best == 0 {
		return MatchExactYear, out
	}
	return MatchNearestYear, out
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func checkVehicle(mk, model string, year int) error {
	switch {
	case strings.TrimSpace(mk) == "":
		return paramError(CodeMissingParameter, "make", "make is required: give the vehicle's make, e.g. make=Toyota")
	case strings.TrimSpace(model) == "":
		return paramError(CodeMissingParameter, "model", "model is required: give the vehicle's model, e.g. model=Camry")
	case year < MinQueryYear || year > MaxQueryYear:
		return invalidf("year", "year=%d is outside %d..%d: give a four-digit model year", year, MinQueryYear, MaxQueryYear)
	}
	return nil
}

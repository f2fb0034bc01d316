package tire

import (
	"cmp"
	"math"
	"slices"
)

// The plus-size grid around an OEM size (docs/data.md, Plus sizes).
const (
	PlusWidthBelowMM, PlusWidthAboveMM = 20, 40
	plusWidthStepMM                    = 10
	PlusMinAspect, PlusMaxAspect       = 25, 85
	plusAspectStep                     = 5
	PlusRimBelow, PlusRimAbove         = 2, 3
	// MinPlusWindowPct and MaxPlusWindowPct bound the diameter window a caller may ask for.
	MinPlusWindowPct, MaxPlusWindowPct = 1, 5
)

// Plus is one size of the grid within the window of the OEM diameter.
type Plus struct {
	Size      Size
	RimOffset int
	Geometry  Geometry
	Compare   Comparison
}

// PlusSizes returns the grid's metric sizes whose overall diameter is
// within windowPct of oem's, by rim offset, then by the size of the
// difference. A flotation OEM's grid starts from the nearest metric width
// (ending in 5), and a half-inch rim's from the whole inch below.
func PlusSizes(oem Size, windowPct float64) []Plus {
	og := oem.Geometry()
	if !(og.DiameterIn > 0) {
		return nil
	}
	base := oem.WidthMM
	if oem.Kind != Metric {
		base = math.Round((base-5)/plusWidthStepMM)*plusWidthStepMM + 5
	}
	cand := Size{Kind: Metric, Construction: "R"}
	if oem.Construction == "ZR" {
		cand.Construction = "ZR"
	}
	if oem.Service == "LT" {
		cand.Service = "LT"
	}
	var out []Plus
	for off := -PlusRimBelow; off <= PlusRimAbove; off++ {
		cand.RimIn = math.Floor(oem.RimIn) + float64(off)
		if cand.RimIn < minRimIn || cand.RimIn > maxRimIn {
			continue
		}
		for w := base - PlusWidthBelowMM; w <= base+PlusWidthAboveMM; w += plusWidthStepMM {
			if w < minWidthMM || w > maxWidthMM {
				continue
			}
			cand.WidthMM = w
			for a := PlusMinAspect; a <= PlusMaxAspect; a += plusAspectStep {
				cand.AspectRatio = a
				g := cand.Geometry()
				c := compareWithin(og, g, windowPct)
				if c.WithinWindow {
					out = append(out, Plus{Size: cand, RimOffset: off, Geometry: g, Compare: c})
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Plus) int {
		return cmp.Or(cmp.Compare(a.RimOffset, b.RimOffset),
			cmp.Compare(math.Abs(a.Compare.DiameterDiffPct), math.Abs(b.Compare.DiameterDiffPct)))
	})
	return out
}

// Speedometer returns what a speedometer set for oem reads at a true speed
// on alt.
func Speedometer(oem, alt Geometry, trueSpeed float64) float64 {
	if !(alt.DiameterIn > 0) {
		return 0
	}
	return trueSpeed * (oem.DiameterIn / alt.DiameterIn)
}

// NeedsReinforced reports whether alt, built to the same load class as
// oem, carries less than oem: the load formula of the Tire and Rim
// Association scales with Sd^1.39·(Dr+Sd), Sd = (0.34848+0.6497·A)·W, at
// equal pressure, so the ratio needs no pressure or constant.
func NeedsReinforced(oem, alt Size) bool {
	return loadScale(alt) < loadScale(oem)*(1-1e-9)
}

func loadScale(s Size) float64 {
	g := s.Geometry()
	if !(g.WidthMM > 0) {
		return 0
	}
	sd := (0.34848 + 0.6497*g.SidewallMM/g.WidthMM) * g.WidthMM
	return math.Pow(sd, 1.39) * (math.Round(s.RimIn*mmPerInch) + sd)
}

package epa

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
)

// Score says which configuration facts of a car an EPA row agrees with.
type Score struct {
	Fuel         bool
	Drive        bool
	Displacement bool
	Cylinders    bool
	Transmission bool
	// TrimWords counts the car's trim words in EPA's model text; it ranks rows
	// EPA files separately with the same engine and drive.
	TrimWords int
	// Prefix marks a row found by the model-prefix fallback.
	Prefix bool
}

// maxTrimWords keeps TrimWords from carrying into the facts' bits.
const maxTrimWords = 15

// Points ranks a score lexicographically: each fact is a bit above all lesser
// ones, so no number of minor agreements outweighs a major one.
func (s Score) Points() int {
	p := 0
	for _, f := range []bool{s.Fuel, s.Drive, s.Displacement, s.Cylinders, s.Transmission} {
		p <<= 1
		if f {
			p |= 1
		}
	}
	return p<<4 | min(s.TrimWords, maxTrimWords)
}

// Match picks the EPA row for one car (docs/data.md, EPA matching); ok is
// false when no row of its make, family and year has its fuel class.
func (t *Table) Match(c *catalog.Car) (Row, Score, bool) {
	mk := fold(c.Make)
	if i, s, ok := t.best(t.byFamily[familyKey{mk, fold(c.Model), c.Year}], c, nil); ok {
		return t.Rows[i], s, true
	}
	// The fallback: a few families are filed under a longer baseModel, or none.
	target := fold(c.Model)
	if target == "" {
		return Row{}, Score{}, false
	}
	keep := func(r *Row) bool { return hasWordPrefix(r.Model, target) }
	if i, s, ok := t.best(t.byMakeYear[makeYearKey{mk, c.Year}], c, keep); ok {
		s.Prefix = true
		return t.Rows[i], s, true
	}
	return Row{}, Score{}, false
}

// best keeps the first of equal scores; idx ascends by EPA id, so the lowest id wins ties.
func (t *Table) best(idx []int, c *catalog.Car, keep func(*Row) bool) (int, Score, bool) {
	drive := catalogDrive(c.DriveType)
	trim := words(c.Trim)
	found, bestI, bestS, bestP := false, 0, Score{}, -1
	for _, i := range idx {
		r := &t.Rows[i]
		if keep != nil && !keep(r) {
			continue
		}
		f := t.facts[i]
		if f.fuel == "" || f.fuel != c.FuelType {
			continue
		}
		s := Score{
			Fuel:         true,
			Drive:        drive != 0 && f.drives&drive != 0,
			Displacement: sameDispl(c.DisplacementL, r.Displ),
			Cylinders:    sameCylinders(c.Cylinders, r.Cylinders),
			Transmission: c.Transmission != "" && strings.EqualFold(collapse(c.Transmission), collapse(r.Trany)),
			TrimWords:    common(trim, words(r.Model)),
		}
		if p := s.Points(); p > bestP {
			found, bestI, bestS, bestP = true, i, s, p
		}
	}
	return bestI, bestS, found
}

// sameDispl allows 0.05 l (EPA rounds to one decimal); no engine on both sides is equal.
func sameDispl(car *float64, epa float64) bool {
	if car == nil || *car == 0 {
		return epa == 0
	}
	return math.Abs(*car-epa) <= 0.05+1e-9
}

func sameCylinders(car *int, epa int) bool {
	if car == nil || *car == 0 {
		return epa == 0
	}
	return *car == epa
}

// fold drops case and all but letters and digits: "F-150" and "F150" are one family.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r < 0x80 && ('a' <= r && r <= 'z' || '0' <= r && r <= '9'):
			b.WriteRune(r)
		case r < 0x80 && 'A' <= r && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
		case r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// words splits at non-alphanumerics ("XLE/SE" is xle and se), folded, without repeats.
func words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		w = strings.ToLower(w)
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func common(a, b []string) int {
	n := 0
	for _, w := range a {
		if slices.Contains(b, w) {
			n++
		}
	}
	return n
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// hasWordPrefix matches at word boundaries, so "M3" never finds "M340i".
func hasWordPrefix(model, target string) bool {
	acc := ""
	for _, w := range strings.Fields(model) {
		acc += fold(w)
		if acc == target {
			return true
		}
		if len(acc) >= len(target) || !strings.HasPrefix(target, acc) {
			return false
		}
	}
	return false
}

type driveMask uint8

const (
	driveFWD driveMask = 1 << iota
	driveRWD
	driveAWD
	drive4WD
)

func catalogDrive(d string) driveMask {
	switch strings.ToUpper(strings.TrimSpace(d)) {
	case "FWD":
		return driveFWD
	case "RWD":
		return driveRWD
	case "AWD":
		return driveAWD
	case "4WD":
		return drive4WD
	}
	return 0
}

// epaDrives maps EPA's drive text to catalog drives, its umbrella values to two each.
func epaDrives(d string) driveMask {
	switch strings.ToLower(collapse(d)) {
	case "front-wheel drive":
		return driveFWD
	case "rear-wheel drive":
		return driveRWD
	case "all-wheel drive":
		return driveAWD
	case "4-wheel drive", "part-time 4-wheel drive":
		return drive4WD
	case "4-wheel or all-wheel drive":
		return driveAWD | drive4WD
	case "2-wheel drive":
		return driveFWD | driveRWD
	}
	return 0
}

// fuelClass maps atvType (else fuelType1) to the catalog fuel type, "" for none.
func fuelClass(atvType, fuelType1 string) string {
	switch strings.ToLower(collapse(atvType)) {
	case "hybrid":
		return catalog.FuelHEV
	case "plug-in hybrid":
		return catalog.FuelPHEV
	case "ev":
		return catalog.FuelBEV
	case "fcv":
		return catalog.FuelFCEV
	case "ffv":
		return catalog.FuelFlex
	case "diesel":
		return catalog.FuelDiesel
	case "":
		f := strings.ToLower(fuelType1)
		switch {
		case strings.Contains(f, "gasoline"):
			return catalog.FuelGasoline
		case strings.Contains(f, "diesel"):
			return catalog.FuelDiesel
		case strings.Contains(f, "electricity"):
			return catalog.FuelBEV
		case strings.Contains(f, "hydrogen"):
			return catalog.FuelFCEV
		}
	}
	return ""
}

// Economy converts a row into a car's fields; zero figures stay null, except
// the real zero tailpipe CO2 of an electric or fuel-cell car.
func Economy(r Row) catalog.FuelEconomy {
	var fe catalog.FuelEconomy
	pos := func(v float64) *float64 {
		if v <= 0 {
			return nil
		}
		return &v
	}
	posInt := func(v int) *int {
		if v <= 0 {
			return nil
		}
		return &v
	}
	fe.MPGCity = pos(r.City08)
	fe.MPGHighway = pos(r.Highway08)
	fe.MPGCombined = pos(r.Comb08)
	fe.EPARangeMiles = posInt(r.Range)
	fe.AnnualFuelCost = posInt(r.FuelCost08)
	switch fuel := fuelClass(r.ATVType, r.FuelType1); {
	case r.CO2TailpipeGpm > 0:
		fe.CO2GPM = pos(r.CO2TailpipeGpm)
	case r.CO2TailpipeGpm == 0 && (fuel == catalog.FuelBEV || fuel == catalog.FuelFCEV):
		zero := 0.0
		fe.CO2GPM = &zero
	}
	return fe
}

// Result is the outcome of Enrich: new fields and EPA id per matched car, and
// the unmatched cars in input order.
type Result struct {
	Matched     map[uuid.UUID]catalog.FuelEconomy
	MatchedRows map[uuid.UUID]int
	Unmatched   []catalog.Car
}

// Enrich matches every car; publishing the result is the caller's all-or-nothing step.
func Enrich(t *Table, cars []catalog.Car) Result {
	res := Result{
		Matched:     make(map[uuid.UUID]catalog.FuelEconomy, len(cars)),
		MatchedRows: make(map[uuid.UUID]int, len(cars)),
	}
	for i := range cars {
		c := &cars[i]
		row, _, ok := t.Match(c)
		if !ok {
			res.Unmatched = append(res.Unmatched, *c)
			continue
		}
		res.Matched[c.UUID] = Economy(row)
		res.MatchedRows[c.UUID] = row.ID
	}
	return res
}

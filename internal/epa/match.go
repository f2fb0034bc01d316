package epa

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
)

// Score says which configuration facts of a car an EPA row agrees with.
type Score struct {
	Fuel bool
	// Motors is false when the row names another motor count than the
	// car's trim (Quad for a Dual).
	Motors bool
	// Axles is true when the row drives the car's wheels, whether it says
	// AWD or 4WD: makers flip between the labels, so Drive ranks lower.
	Axles        bool
	Displacement bool
	Cylinders    bool
	// Body is 3 when the row's text or class names the car's body, 2 when
	// only EPA's per-body volumes allow it, 1 when silent, 0 when another.
	Body         int
	Drive        bool
	Transmission bool
	// TrimWords counts the car's trim words in EPA's model text; it ranks rows
	// EPA files separately with the same engine and drive.
	TrimWords int
	// Wheel is true when the row names the car's wheel diameter.
	Wheel bool
	// Retail is false for a fleet configuration EPA rates apart (its
	// engine description says Municipal or Police).
	Retail bool
	// Extra counts words of EPA's model text the car does not explain: the
	// fewer, the closer to the plain variant ("Silverado 4WD" before
	// "Silverado Mud Terrain Tires 4WD").
	Extra int
	// Prefix marks a row found by the model-prefix fallback.
	Prefix bool
}

// maxWords keeps TrimWords and Extra from carrying into other fields.
const maxWords = 15

// Points ranks a score lexicographically: each fact is above all lesser
// ones, so no number of minor agreements outweighs a major one.
func (s Score) Points() int {
	p := 0
	bit := func(f bool) {
		p <<= 1
		if f {
			p |= 1
		}
	}
	bit(s.Fuel)
	bit(s.Motors)
	bit(s.Axles)
	bit(s.Displacement)
	bit(s.Cylinders)
	p = p<<2 | s.Body
	bit(s.Drive)
	bit(s.Transmission)
	p = p<<4 | min(s.TrimWords, maxWords)
	bit(s.Wheel)
	bit(s.Retail)
	return p<<4 | maxWords - min(s.Extra, maxWords)
}

// Match picks the EPA row for one car (docs/data.md, EPA matching); wheel
// is its wheel diameter in inches, 0 when unknown.
func (t *Table) Match(c *catalog.Car, wheel int) (Row, Score, bool) {
	m := t.match(c, wheel)
	if !m.ok {
		return Row{}, Score{}, false
	}
	return t.Rows[m.best], m.score, true
}

// matched is the best row for one car, and the rows of other figures that
// tie with it.
type matched struct {
	best  int
	score Score
	ties  []int
	ok    bool
}

func (t *Table) match(c *catalog.Car, wheel int) matched {
	mk := fold(c.Make)
	if m := t.best(t.byFamily[familyKey{mk, fold(c.Model), c.Year}], c, wheel, nil); m.ok {
		return m
	}
	// The fallback: a few families are filed under a longer baseModel, or none.
	target := fold(c.Model)
	if target == "" {
		return matched{}
	}
	modelWords := words(c.Model)
	keep := func(r *Row) bool { return hasWordPrefix(r.Model, target) || hasAllWords(r.Model, modelWords) }
	m := t.best(t.byMakeYear[makeYearKey{mk, c.Year}], c, wheel, keep)
	m.score.Prefix = true
	return m
}

// best keeps the first of equal scores: the lowest EPA id.
func (t *Table) best(idx []int, c *catalog.Car, wheel int, keep func(*Row) bool) matched {
	drive := catalogDrive(c.DriveType)
	trim := words(c.Trim)
	known := append(append(words(c.Model), fold(c.Model)), trim...)
	motors := motorWord(trim)
	if wheel == 0 {
		wheel = wheelInches(c.Trim)
	}
	m, bestP := matched{}, -1
	for _, i := range idx {
		r := &t.Rows[i]
		if keep != nil && !keep(r) {
			continue
		}
		f := &t.facts[i]
		if f.fuel == "" || f.fuel != c.FuelType {
			continue
		}
		s := Score{
			Fuel:         true,
			Axles:        axles(drive)&f.drives != 0,
			Drive:        drive != 0 && f.drives&drive != 0,
			Displacement: sameDispl(c.DisplacementL, r.Displ),
			Cylinders:    sameCylinders(c.Cylinders, r.Cylinders),
			Body:         bodyFit(f.bodies, f.named, c.Body),
			Transmission: c.Transmission != "" && strings.EqualFold(collapse(c.Transmission), collapse(r.Trany)),
			Motors:       motors == "" || f.motors == "" || motors == f.motors,
			TrimWords:    common(trim, f.words),
			Wheel:        wheel != 0 && f.wheel == wheel,
			Retail:       !f.fleet,
			Extra:        extraWords(f.words, known),
		}
		switch p := s.Points(); {
		case p > bestP:
			m, bestP = matched{best: i, score: s, ok: true}, p
		case p == bestP && !sameFigures(r, &t.Rows[m.best]):
			m.ties = append(m.ties, i)
		}
	}
	return m
}

func sameFigures(a, b *Row) bool {
	return a.City08 == b.City08 && a.Highway08 == b.Highway08 && a.Comb08 == b.Comb08 &&
		a.Range == b.Range && a.FuelCost08 == b.FuelCost08 && a.CO2TailpipeGpm == b.CO2TailpipeGpm
}

type bodyMask uint16

func bodyBit(body string) bodyMask {
	if i := slices.Index(catalog.Bodies, body); i >= 0 {
		return 1 << i
	}
	return 0
}

var bodyWords = map[string]string{
	"convertible": "Convertible", "cabriolet": "Convertible", "roadster": "Convertible", "spyder": "Convertible",
	"spider": "Convertible", "volante": "Convertible",
	"coupe": "Coupe", "2dr": "Coupe",
	"hatchback": "Hatchback", "5dr": "Hatchback", "sportback": "Hatchback",
	"sedan": "Sedan", "4dr": "Sedan",
	"wagon": "Wagon", "sportwagen": "Wagon", "estate": "Wagon", "avant": "Wagon", "allroad": "Wagon",
	"suv": "SUV",
}

// wordBodies are the bodies a row's model text words name.
func wordBodies(ws []string) bodyMask {
	var m bodyMask
	for i, w := range ws {
		if b, ok := bodyWords[w]; ok {
			m |= bodyBit(b)
		}
		// "2-Dr", "5-Door", "4 door" split into a number and a word.
		if i > 0 && (w == "door" || w == "dr") {
			switch ws[i-1] {
			case "2":
				m |= bodyBit("Coupe")
			case "3", "5":
				m |= bodyBit("Hatchback")
			case "4":
				m |= bodyBit("Sedan")
			}
		}
	}
	return m
}

// rowBodies is what a row says about its body: model text words, else its
// class, both named, else which per-body volumes a car row lists.
func rowBodies(r *Row, ws []string) (m bodyMask, named bool) {
	if m := wordBodies(ws); m != 0 {
		return m, true
	}
	class := strings.ToLower(r.VClass)
	switch {
	case strings.Contains(class, "pickup"):
		return bodyBit("Pickup"), true
	case strings.Contains(class, "sport utility"):
		return bodyBit("SUV"), true
	case strings.Contains(class, "minivan"):
		return bodyBit("Minivan"), true
	case strings.Contains(class, "van"):
		return bodyBit("Van"), true
	case strings.Contains(class, "station wagon"):
		return bodyBit("Wagon"), true
	}
	if r.PV4 > 0 || r.LV4 > 0 {
		m |= bodyBit("Sedan")
	}
	if r.PV2 > 0 || r.LV2 > 0 {
		m |= bodyBit("Coupe") | bodyBit("Convertible")
	}
	if r.HPV > 0 || r.HLV > 0 {
		m |= bodyBit("Hatchback")
	}
	return m, false
}

func bodyFit(rowBodies bodyMask, named bool, body string) int {
	switch {
	case rowBodies == 0:
		return 1
	case rowBodies&bodyBit(body) == 0:
		return 0
	case named:
		return 3
	}
	return 2
}

func fleetRow(engDscr string) bool {
	d := strings.ToLower(engDscr)
	return strings.Contains(d, "municipal") || strings.Contains(d, "police")
}

// wheelInches finds a wheel diameter in text: "(19 inch wheels)", "21in",
// "with19 inch", "20-inch"; 0 when there is none.
func wheelInches(text string) int {
	t := strings.ToLower(text)
	for i := 0; i+1 < len(t); i++ {
		if t[i] < '1' || t[i] > '2' || t[i+1] < '0' || t[i+1] > '9' || (i > 0 && t[i-1] >= '0' && t[i-1] <= '9') {
			continue
		}
		rest := strings.TrimLeft(t[i+2:], " -")
		if strings.HasPrefix(rest, "inch") || strings.HasPrefix(rest, "in ") || strings.HasPrefix(rest, "in)") ||
			rest == "in" || strings.HasPrefix(rest, "\"") {
			return int(t[i]-'0')*10 + int(t[i+1]-'0')
		}
	}
	return 0
}

// motorWord is the motor count words name: "Dual Motor", "Quad Large".
// Tesla's "Plaid" names three motors without saying so, and must not pass
// for the Dual Motor car its wheel size happens to share.
func motorWord(ws []string) string {
	for _, w := range ws {
		switch w {
		case "single", "dual", "tri", "quad":
			return w
		case "plaid":
			return "tri"
		}
	}
	return ""
}

// neutralWords say nothing about which variant a row is beyond what other
// facts score: drive, body, wheel, charger and fuel words.
var neutralWords = map[string]bool{
	"2wd": true, "4wd": true, "awd": true, "fwd": true, "rwd": true, "4x4": true, "4x2": true, "4matic": true,
	"quattro": true, "xdrive": true, "sdrive": true, "all4": true, "4motion": true, "drive": true, "wheel": true,
	"wheels": true, "inch": true, "in": true, "w": true, "with": true, "door": true, "dr": true, "kw": true,
	"kwh": true, "charger": true, "ffv": true, "pickup": true, "motor": true,
	// Fuel is scored on its own.
	"ev": true, "hybrid": true, "phev": true, "electric": true, "plug": true,
	// Marketing, not a variant: "New Range Rover".
	"new": true,
}

// extraWords counts the words of a row's model text that the car does not
// have and that are not neutral, body or number words.
func extraWords(rowWords, known []string) int {
	n := 0
	for _, w := range rowWords {
		if neutralWords[w] || bodyWords[w] != "" || allDigits(w) || slices.Contains(known, w) {
			continue
		}
		n++
	}
	return n
}

func allDigits(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// sameDispl allows 0.05 l (EPA rounds to one decimal); no engine on both sides is equal.
func sameDispl(car catalog.Opt[float64], epa float64) bool {
	if car.V == 0 {
		return epa == 0
	}
	return math.Abs(car.V-epa) <= 0.05+1e-9
}

func sameCylinders(car catalog.Opt[int], epa int) bool {
	if car.V == 0 {
		return epa == 0
	}
	return car.V == epa
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

// hasAllWords reports whether text holds every one of ws as a word:
// "Macan 4 Electric" for the model Macan Electric.
func hasAllWords(text string, ws []string) bool {
	have := words(text)
	for _, w := range ws {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return len(ws) > 0
}

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

// axles widens a drive to every label for the same driven wheels.
func axles(d driveMask) driveMask {
	if d&(driveAWD|drive4WD) != 0 {
		return driveAWD | drive4WD
	}
	return d
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

// fuelClass maps atvType (else fuelType1) to the catalog fuel type, "" for
// none. A mild hybrid, which EPA files as "Hybrid", is gasoline in the
// catalog: it never drives on electricity alone.
func fuelClass(r *Row) string {
	atvType, fuelType1 := r.ATVType, r.FuelType1
	if strings.EqualFold(collapse(atvType), "hybrid") && strings.Contains(strings.ToLower(r.EngDscr), "mild hybrid") {
		return catalog.FuelGasoline
	}
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
	fe := catalog.FuelEconomy{EPAID: catalog.Some(r.ID)}
	fe.MPGCity = positive(r.City08)
	fe.MPGHighway = positive(r.Highway08)
	fe.MPGCombined = positive(r.Comb08)
	fe.EPARangeMiles = positive(r.Range)
	if fuelClass(&r) == catalog.FuelPHEV {
		fe.EPAElectricRangeMiles = positive(r.RangeA)
	}
	fe.AnnualFuelCost = positive(r.FuelCost08)
	switch fuel := fuelClass(&r); {
	case r.CO2TailpipeGpm > 0:
		fe.CO2GPM = positive(r.CO2TailpipeGpm)
	case r.CO2TailpipeGpm == 0 && (fuel == catalog.FuelBEV || fuel == catalog.FuelFCEV):
		fe.CO2GPM = catalog.Some(0.0)
	}
	return fe
}

// positive returns v when it is above zero, and no figure otherwise.
func positive[T int | float64](v T) catalog.Opt[T] {
	if v <= 0 {
		return catalog.Opt[T]{}
	}
	return catalog.Some(v)
}

// Result is the outcome of Enrich: the EPA id and figures of every matched
// car, the unmatched cars in input order, and the matches another row tied.
type Result struct {
	Matched   map[uuid.UUID]catalog.FuelEconomy
	Unmatched []catalog.Car
	Ambiguous []Ambiguity
	// Pinned counts the cars whose pinned epa_id was found in the table.
	Pinned int
}

// Ambiguity is a car whose best row tied, on every fact the matcher
// scores, with rows of other figures; the lowest EPA id won.
type Ambiguity struct {
	Car        catalog.Car
	Chosen     Row
	Candidates []Row
}

// Enrich gives every car its EPA row: the one its epa_id pins when the
// table has it, else the best match; wheels holds known wheel diameters.
func Enrich(t *Table, cars []catalog.Car, wheels map[uuid.UUID]int) Result {
	res := Result{Matched: make(map[uuid.UUID]catalog.FuelEconomy, len(cars))}
	for i := range cars {
		c := &cars[i]
		if c.EPAID.Valid {
			if r, ok := t.Row(c.EPAID.V); ok {
				res.Matched[c.UUID] = Economy(r)
				res.Pinned++
				continue
			}
		}
		m := t.match(c, wheels[c.UUID])
		if !m.ok {
			res.Unmatched = append(res.Unmatched, *c)
			continue
		}
		res.Matched[c.UUID] = Economy(t.Rows[m.best])
		if len(m.ties) > 0 {
			a := Ambiguity{Car: *c, Chosen: t.Rows[m.best]}
			for _, j := range m.ties {
				a.Candidates = append(a.Candidates, t.Rows[j])
			}
			res.Ambiguous = append(res.Ambiguous, a)
		}
	}
	return res
}

// WheelSizes gives each car the rim diameter of its own trim's fitment
// (else the only one), for Enrich: EPA files wheel sizes as variants.
func WheelSizes(cars []catalog.Car, fitments []catalog.TireFitment) map[uuid.UUID]int {
	type key struct {
		make, model string
		year        int
	}
	byVehicle := map[key][]*catalog.TireFitment{}
	for i := range fitments {
		f := &fitments[i]
		k := key{fold(f.Make), fold(f.Model), f.Year}
		byVehicle[k] = append(byVehicle[k], f)
	}
	out := map[uuid.UUID]int{}
	for _, c := range cars {
		fs := byVehicle[key{fold(c.Make), fold(c.Model), c.Year}]
		var pick *catalog.TireFitment
		for _, f := range fs {
			if strings.EqualFold(f.Trim, c.Trim) {
				pick = f
			}
		}
		if pick == nil && len(fs) == 1 {
			pick = fs[0]
		}
		if pick == nil {
			continue
		}
		if sz, err := tire.Parse(pick.TireSize); err == nil {
			out[c.UUID] = int(sz.RimIn)
		}
	}
	return out
}

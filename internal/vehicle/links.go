package vehicle

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
)

// Links are the catalog records a decoded VIN points at: cars, tire
// fitments and motorcycles of the same make, model and year, the cars best
// match first.
type Links struct {
	Cars        []uuid.UUID `json:"cars" jsonschema:"The linked cars' ids, the best match to the decode first (as car_matches)."`
	CarMatches  []CarMatch  `json:"car_matches" jsonschema:"How well each linked car matches the decode, in the order of cars."`
	TireSizes   []uuid.UUID `json:"tire_sizes" jsonschema:"Uuids of tire fitments of the decoded make, model and year (GET /v1/tire-sizes/{uuid})."`
	Motorcycles []uuid.UUID `json:"motorcycles" jsonschema:"Uuids of motorcycle records (motorcycles, ATVs, UTVs, LSVs ...) of the decoded make, model and year (GET /v1/motorcycles/{uuid}); empty for a car's VIN, and cars and tire_sizes are empty for a powersports VIN."`
}

// NoLinks are the links of a decode that names no make, model and year.
func NoLinks() Links {
	return Links{Cars: []uuid.UUID{}, CarMatches: []CarMatch{}, TireSizes: []uuid.UUID{}, Motorcycles: []uuid.UUID{}}
}

// CarMatch is how a linked car agrees with the decode (docs/data.md, VIN links).
type CarMatch struct {
	ID      uuid.UUID `json:"id" jsonschema:"The car's id."`
	Level   string    `json:"level" jsonschema:"full: every field both the decode and the car give agrees; partial: some agree and some differ; family: none agrees, only make, model and year."`
	Matched []string  `json:"matched" jsonschema:"The fields that agree, of body, displacement_l, cylinders, fuel_type and trim."`
	Differs []string  `json:"differs" jsonschema:"The fields both give that disagree, of body, displacement_l, cylinders and fuel_type."`
}

// Decoded is what a VIN decode says that tells a make's cars apart; empty
// or unset fields are unknown.
type Decoded struct {
	Body          string
	DisplacementL catalog.Opt[float64]
	Cylinders     catalog.Opt[int]
	FuelType      string   // a catalog fuel type
	Trims         []string // vPIC's trim and series
	// VehicleType is vPIC's, upper case: a car's VIN links no motorcycle.
	VehicleType string
}

// powersportsTypes are vPIC's vehicle types of the motorcycle catalog: a
// VIN of one links motorcycles only, another's cars and tire fitments
// only, and one of unknown type all three.
var powersportsTypes = []string{"MOTORCYCLE", "LOW SPEED VEHICLE (LSV)", "OFF ROAD VEHICLE"}

// CanonicalMake returns the catalog's spelling of a make ("TOYOTA" and
// "toyota" become "Toyota"), and whether the catalog knows the make at all.
func (s *Service) CanonicalMake(mk string) (string, bool) {
	name, ok := s.Snapshot().makeNames[squash(mk)]
	return name, ok
}

// Links finds the cars, tire fitments and motorcycles of a make, model and
// year by the first join rule that finds any (docs/data.md, VIN links), and
// ranks the cars by how well they match d.
func (s *Service) Links(mk, model string, year int, d Decoded) Links {
	snap := s.Snapshot()
	powersports := slices.Contains(powersportsTypes, d.VehicleType)
	var motos, cars, tires []int32
	if powersports || d.VehicleType == "" {
		motos = linked(snap, snap.motoFamilies, mk, model, func(p int32) (string, int) {
			m := &snap.motos.recs[p]
			return m.Model, m.Year
		}, year)
	}
	if !powersports {
		cars = linked(snap, snap.carFamilies, mk, model, func(p int32) (string, int) {
			c := snap.cars.rec(p)
			return c.Model, c.Year
		}, year)
		tires = linked(snap, snap.families, mk, model, func(p int32) (string, int) {
			f := &snap.tires.recs[p]
			return f.Model, f.Year
		}, year)
	}
	l := Links{Cars: make([]uuid.UUID, len(cars)), CarMatches: make([]CarMatch, len(cars)), TireSizes: make([]uuid.UUID, len(tires)),
		Motorcycles: make([]uuid.UUID, len(motos))}
	for i, p := range cars {
		c := snap.cars.rec(p)
		l.CarMatches[i] = d.match(&c)
	}
	slices.SortStableFunc(l.CarMatches, func(a, b CarMatch) int {
		return cmp.Or(cmp.Compare(len(b.Matched)-len(b.Differs), len(a.Matched)-len(a.Differs)), cmp.Compare(len(a.Differs), len(b.Differs)))
	})
	for i, m := range l.CarMatches {
		l.Cars[i] = m.ID
	}
	for i, p := range tires {
		l.TireSizes[i] = snap.tires.recs[p].UUID
	}
	for i, p := range motos {
		l.Motorcycles[i] = snap.motos.recs[p].UUID
	}
	return l
}

// match compares the fields both d and c give.
func (d Decoded) match(c *catalog.Car) CarMatch {
	m := CarMatch{ID: c.UUID, Matched: []string{}, Differs: []string{}}
	add := func(field string, known, agree bool) {
		switch {
		case !known:
		case agree:
			m.Matched = append(m.Matched, field)
		default:
			m.Differs = append(m.Differs, field)
		}
	}
	add("body", d.Body != "" && c.Body != "", d.Body == c.Body)
	add("displacement_l", d.DisplacementL.Valid && c.DisplacementL.Valid,
		math.Round(d.DisplacementL.V*10) == math.Round(c.DisplacementL.V*10))
	add("cylinders", d.Cylinders.Valid && c.Cylinders.Valid, d.Cylinders.V == c.Cylinders.V)
	if d.FuelType != "" && c.FuelType != "" && !slices.Contains(fuelNeutral[d.FuelType], c.FuelType) {
		add("fuel_type", true, d.FuelType == c.FuelType)
	}
	if trim := words(c.Trim); slices.ContainsFunc(d.Trims, func(t string) bool { return containsWords(trim, words(t)) }) {
		m.Matched = append(m.Matched, "trim")
	}
	switch {
	case len(m.Matched) == 0:
		m.Level = "family"
	case len(m.Differs) == 0:
		m.Level = "full"
	default:
		m.Level = "partial"
	}
	return m
}

// fuelNeutral are the car fuels a decoded fuel neither matches nor rules
// out: vPIC's primary fuel of a hybrid or a bi-fuel car is gasoline.
var fuelNeutral = map[string][]string{
	catalog.FuelGasoline: {catalog.FuelFlex, catalog.FuelHEV, catalog.FuelPHEV, catalog.FuelCNG, catalog.FuelLPG},
	catalog.FuelFlex:     {catalog.FuelGasoline},
	catalog.FuelBEV:      {catalog.FuelPHEV},
}

// containsWords reports whether want, not empty, is a run of have.
func containsWords(have, want []string) bool {
	for i := 0; len(want) > 0 && i+len(want) <= len(have); i++ {
		if slices.Equal(have[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// aliases are the decoded models no rule joins to the catalog's family name.
var aliases = map[[2]string][]string{
	{"mercedesbenz", "mclass"}: {"ML-Class"},
	{"chevrolet", "gmt400"}:    {"C1500 Pickup", "K1500 Pickup"},
	{"nissan", "pickup"}:       {"Truck"},
}

var (
	parenthesized = regexp.MustCompile(`\s*\([^)]*\)`)
	bmwNumber     = regexp.MustCompile(`^([1-8])\d\d[a-z]*$`)
)

// family is one make and model of a table, with its model's words.
type family struct {
	words []string // of the model, or of one of its "/"-joined names
	pos   []int32
}

// linked returns the records of year the first rule finds, in catalog order.
func linked(snap *Snapshot, families familyIndex, mk, model string, rec func(int32) (string, int), year int) []int32 {
	for _, try := range candidates(snap, mk, model) {
		fams := familiesOf(families, try[0], year, rec)
		for _, rule := range joinRules {
			if pos := rule(fams, try[1]); len(pos) > 0 {
				slices.Sort(pos)
				return slices.Compact(pos)
			}
		}
	}
	return nil
}

// candidates are the make and model to try in turn: as decoded, then
// without parentheses ("Prius Prime (PHEV)"), under another make the
// model starts with ("Toyota Scion xD" is Scion xD), and by the aliases and
// the BMW rule ("325i" is the 3 Series).
func candidates(snap *Snapshot, mk, model string) [][2]string {
	out := [][2]string{{mk, model}}
	if m := parenthesized.ReplaceAllString(model, ""); m != model && m != "" {
		out = append(out, [2]string{mk, m})
	}
	if first, rest, ok := strings.Cut(strings.TrimSpace(model), " "); ok {
		if other, known := snap.makeNames[squash(first)]; known && squash(other) != squash(mk) {
			out = append(out, [2]string{other, rest})
		}
	}
	for _, a := range aliases[[2]string{squash(mk), squash(model)}] {
		out = append(out, [2]string{mk, a})
	}
	if m := bmwNumber.FindStringSubmatch(strings.ToLower(model)); m != nil && squash(mk) == "bmw" {
		out = append(out, [2]string{mk, m[1] + " Series"})
	}
	return out
}

// familiesOf lists the families of mk with records of year, once under
// their name and once under each name of a "/"-joined one ("Golf/GTI").
func familiesOf(families familyIndex, mk string, year int, rec func(int32) (string, int)) []family {
	var out []family
	for _, key := range families.byMake[squash(mk)] {
		all := families.byKey[key]
		var pos []int32
		for _, p := range all {
			if _, y := rec(p); y == year {
				pos = append(pos, p)
			}
		}
		if len(pos) == 0 {
			continue
		}
		name, _ := rec(pos[0])
		out = append(out, family{words: words(name), pos: pos})
		if strings.Contains(name, "/") {
			for part := range strings.SplitSeq(name, "/") {
				out = append(out, family{words: words(part), pos: pos})
			}
		}
	}
	return out
}

// familyIndex groups a kind's records by make and model, and the models by
// make, so that a link reads one make's families.
type familyIndex struct {
	byKey  map[string][]int32  // familyKey -> positions
	byMake map[string][]string // squashed make -> its familyKeys, in first-seen order
}

func newFamilyIndex() familyIndex {
	return familyIndex{byKey: map[string][]int32{}, byMake: map[string][]string{}}
}

func (fi familyIndex) add(mk, model string, pos int) {
	key := familyKey(mk, model)
	if _, ok := fi.byKey[key]; !ok {
		m := squash(mk)
		fi.byMake[m] = append(fi.byMake[m], key)
	}
	fi.byKey[key] = append(fi.byKey[key], int32(pos))
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) })
}

// joinRules match a decoded model to families, in order: the same name
// (ignoring case and punctuation); the longest family name the model
// starts with ("Silverado 1500" is the Silverado); the families whose
// names start with the model's words ("TT" is the TT Coupe and TT
// Roadster); the longest family name the model ends with ("B9 Tribeca" is
// the Tribeca).
var joinRules = []func(fams []family, model string) []int32{
	func(fams []family, model string) []int32 {
		want := strings.Join(words(model), "")
		return union(fams, func(f family) bool { return strings.Join(f.words, "") == want })
	},
	func(fams []family, model string) []int32 {
		want := strings.Join(words(model), "")
		return longest(fams, func(f family) bool { return strings.HasPrefix(want, strings.Join(f.words, "")) })
	},
	func(fams []family, model string) []int32 {
		w := words(model)
		return union(fams, func(f family) bool { return len(f.words) > len(w) && equalWords(f.words[:len(w)], w) })
	},
	func(fams []family, model string) []int32 {
		w := words(model)
		return longest(fams, func(f family) bool { return len(f.words) < len(w) && equalWords(w[len(w)-len(f.words):], f.words) })
	},
}

func equalWords(a, b []string) bool {
	return len(a) > 0 && strings.Join(a, " ") == strings.Join(b, " ")
}

func union(fams []family, ok func(family) bool) []int32 {
	var out []int32
	for _, f := range fams {
		if ok(f) {
			out = append(out, f.pos...)
		}
	}
	return out
}

// longest is the family of the most words that passes ok.
func longest(fams []family, ok func(family) bool) []int32 {
	var best *family
	for i := range fams {
		if f := &fams[i]; len(f.words) > 0 && ok(*f) && (best == nil || len(f.words) > len(best.words)) {
			best = f
		}
	}
	if best == nil {
		return nil
	}
	return best.pos
}

// Boats returns the ids of the catalog's boats of any of makes (any case)
// and the model year, in catalog order; never nil.
func (s *Service) Boats(makes []string, year int) []uuid.UUID {
	snap := s.Snapshot()
	out := []uuid.UUID{}
	for i := range snap.boats.recs {
		b := &snap.boats.recs[i]
		if b.Year == year && slices.ContainsFunc(makes, func(mk string) bool { return strings.EqualFold(mk, b.Make) }) {
			out = append(out, b.UUID)
		}
	}
	return out
}

// BoatMake returns the catalog's spelling of a boat make (any case), and
// whether the catalog has boats of it.
func (s *Service) BoatMake(mk string) (string, bool) {
	snap := s.Snapshot()
	for i := range snap.boats.recs {
		if b := &snap.boats.recs[i]; strings.EqualFold(b.Make, mk) {
			return b.Make, true
		}
	}
	return "", false
}

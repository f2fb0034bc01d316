package vehicle

import (
	"regexp"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// Links are the catalog records a decoded VIN points at: cars and tire
// fitments of the same make, model and year.
type Links struct {
	Cars      []uuid.UUID `json:"cars"`
	TireSizes []uuid.UUID `json:"tire_sizes"`
}

// CanonicalMake returns the catalog's spelling of a make ("TOYOTA" and
// "toyota" become "Toyota"), and whether the catalog knows the make at all.
func (s *Service) CanonicalMake(mk string) (string, bool) {
	name, ok := s.Snapshot().makeNames[squash(mk)]
	return name, ok
}

// Links finds the cars and tire fitments of a make, model and year by the
// first join rule that finds any (docs/data.md, VIN links).
func (s *Service) Links(mk, model string, year int) Links {
	snap := s.Snapshot()
	return Links{
		Cars: linked(snap, snap.carFamilies, mk, model, func(p int32) (string, int, uuid.UUID) {
			c := &snap.cars.recs[p]
			return c.Model, c.Year, c.UUID
		}, year),
		TireSizes: linked(snap, snap.families, mk, model, func(p int32) (string, int, uuid.UUID) {
			f := &snap.tires.recs[p]
			return f.Model, f.Year, f.UUID
		}, year),
	}
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
func linked(snap *Snapshot, families map[string][]int32, mk, model string, rec func(int32) (string, int, uuid.UUID), year int) []uuid.UUID {
	for _, try := range candidates(snap, mk, model) {
		fams := familiesOf(families, try[0], year, rec)
		for _, rule := range joinRules {
			if pos := rule(fams, try[1]); len(pos) > 0 {
				slices.Sort(pos)
				pos = slices.Compact(pos)
				out := make([]uuid.UUID, len(pos))
				for i, p := range pos {
					_, _, out[i] = rec(p)
				}
				return out
			}
		}
	}
	return []uuid.UUID{}
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
func familiesOf(families map[string][]int32, mk string, year int, rec func(int32) (string, int, uuid.UUID)) []family {
	prefix := squash(mk) + "\x00"
	var out []family
	for key, all := range families {
		if !strings.HasPrefix(key, prefix) {
			continue
		}
		var pos []int32
		for _, p := range all {
			if _, y, _ := rec(p); y == year {
				pos = append(pos, p)
			}
		}
		if len(pos) == 0 {
			continue
		}
		name, _, _ := rec(pos[0])
		out = append(out, family{words: words(name), pos: pos})
		if strings.Contains(name, "/") {
			for part := range strings.SplitSeq(name, "/") {
				out = append(out, family{words: words(part), pos: pos})
			}
		}
	}
	return out
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

package vehicle

import (
	"slices"
	"strings"

	"github.com/google/uuid"
)

// Links are the catalog records a decoded VIN points at: cars and tire
// fitments of the same make, model and year.
type Links struct {
	Cars      []uuid.UUID `json:"cars" jsonschema:"Uuids of catalog cars of the decoded make, model and year (GET /v1/cars/{uuid})."`
	TireSizes []uuid.UUID `json:"tire_sizes" jsonschema:"Uuids of tire fitments of the decoded make, model and year (GET /v1/tire-sizes/{uuid})."`
}

// CanonicalMake returns the catalog's spelling of a make ("TOYOTA" and
// "toyota" become "Toyota"), and whether the catalog knows the make at all.
func (s *Service) CanonicalMake(mk string) (string, bool) {
	name, ok := s.Snapshot().makeNames[squash(mk)]
	return name, ok
}

// Links finds the cars and tire fitments of a make, model and year. Models
// match ignoring case and punctuation, else by the longest catalog model
// the given one starts with ("Silverado 1500" finds "Silverado").
func (s *Service) Links(mk, model string, year int) Links {
	snap := s.Snapshot()
	out := Links{Cars: []uuid.UUID{}, TireSizes: []uuid.UUID{}}
	for _, p := range familyMatch(snap.carFamilies, mk, model) {
		if c := &snap.cars.recs[p]; c.Year == year {
			out.Cars = append(out.Cars, c.UUID)
		}
	}
	for _, p := range familyMatch(snap.families, mk, model) {
		if f := &snap.tires.recs[p]; f.Year == year {
			out.TireSizes = append(out.TireSizes, f.UUID)
		}
	}
	return out
}

// familyMatch returns the positions of the family of mk and model, falling
// back to the longest family of the make whose model prefixes model.
func familyMatch(families map[string][]int32, mk, model string) []int32 {
	if ps, ok := families[familyKey(mk, model)]; ok {
		return ps
	}
	prefix := squash(mk) + "\x00"
	want := squash(model)
	best := ""
	for key := range families {
		m, ok := strings.CutPrefix(key, prefix)
		if ok && m != "" && strings.HasPrefix(want, m) && len(m) > len(best) {
			best = m
		}
	}
	if best == "" {
		return nil
	}
	return slices.Clone(families[prefix+best])
}

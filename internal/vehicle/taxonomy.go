package vehicle

import (
	"slices"
	"strings"
)

// MakeCount is one make of a kind with its record count.
type MakeCount struct {
	Name  string `json:"name" jsonschema:"The make, in the catalog's spelling."`
	Count int    `json:"count" jsonschema:"Records of this make."`
}

// ModelRange is one model of a make with its record count and year range.
type ModelRange struct {
	Name    string `json:"name" jsonschema:"The model, in the catalog's spelling."`
	Count   int    `json:"count" jsonschema:"Records of this model."`
	YearMin int    `json:"year_min" jsonschema:"The earliest model year of its records."`
	YearMax int    `json:"year_max" jsonschema:"The latest model year of its records."`
}

// YearCount is one model year of a make and model with its record count.
type YearCount struct {
	Year  int `json:"year"`
	Count int `json:"count"`
}

// NameCount is a body or hull type with its record count.
type NameCount struct {
	Name  string `json:"name" jsonschema:"The type's name, as the type filter accepts it."`
	Count int    `json:"count" jsonschema:"Records of this type; may be 0."`
}

// TypeCount is a motorcycle riding type with its vehicle class and record count.
type TypeCount struct {
	Name        string `json:"name" jsonschema:"The riding type, as motorcycle_type accepts it."`
	VehicleType string `json:"vehicle_type" jsonschema:"Its broad class: Motorcycle, ATV/UTV, Snowmobile or Golf Cart / LSV."`
	Count       int    `json:"count" jsonschema:"Records of this type; may be 0."`
}

// spelling names a case-insensitive group by its most frequent spelling,
// ties to the first in byte order.
type spelling map[string]int

func (s spelling) best() string {
	name, n := "", -1
	for k, c := range s {
		if c > n || c == n && k < name {
			name, n = k, c
		}
	}
	return name
}

// taxonomy is a kind's makes and models, precomputed at build time, and
// their answers for the API in its envelope: at full size, encoding them,
// then copying them into the envelope, was most of a call.
type taxonomy struct {
	makes      []MakeCount
	models     map[string][]ModelRange
	makesBody  Answer
	modelsBody map[string]Answer // by lowercase make
}

// Answer is a taxonomy answer encoded once per catalog version, shared:
// the caller must not change it.
type Answer struct {
	// Body is {"data":[...]}\n. The HTTP answer cache keeps it compressed.
	Body []byte
}

// Envelope bounds of a taxonomy body: {"data":JSON}\n.
const (
	bodyPrefix = `{"data":`
	bodySuffix = "}\n"
)

// envelope encodes v as an answer.
func envelope(v any) (Answer, error) {
	raw, err := encodeJSON(v)
	if err != nil {
		return Answer{}, err
	}
	return Answer{Body: slices.Concat([]byte(bodyPrefix), raw, []byte(bodySuffix))}, nil
}

// buildTaxonomy reads makes and models off their runs in one pass.
func (t *table[T]) buildTaxonomy(makeNames, modelNames []string) error {
	ix := &t.idx
	t.makes = make([]MakeCount, 0, len(ix.makes))
	t.models = make(map[string][]ModelRange, len(ix.makes))
	for k := 0; k < ix.n; {
		lmake := ix.values.names[ix.lmake[k]]
		me := ix.makes[lmake]
		makeSpellings := spelling{}
		var models []ModelRange
		for k < int(me.hi) {
			ms := me.models[ix.values.names[ix.lmodel[k]]]
			modelSpellings := spelling{}
			mr := ModelRange{Count: int(ms.hi - ms.lo), YearMin: int(ix.year[ms.hi-1]), YearMax: int(ix.year[ms.lo])}
			for ; k < int(ms.hi); k++ {
				makeSpellings[makeNames[k]]++
				modelSpellings[modelNames[k]]++
			}
			mr.Name = modelSpellings.best()
			models = append(models, mr)
		}
		t.makes = append(t.makes, MakeCount{Name: makeSpellings.best(), Count: int(me.hi - me.lo)})
		t.models[lmake] = models
	}
	var err error
	if t.makesBody, err = envelope(t.makes); err != nil {
		return err
	}
	t.modelsBody = make(map[string]Answer, len(t.models))
	for lmake, models := range t.models {
		if t.modelsBody[lmake], err = envelope(models); err != nil {
			return err
		}
	}
	return nil
}

func (ix *index) modelYears(lmake, lmodel string) []YearCount {
	out := []YearCount{}
	me := ix.makes[lmake]
	if me == nil {
		return out
	}
	ms, ok := me.models[lmodel]
	if !ok {
		return out
	}
	for k := ms.lo; k < ms.hi; k++ {
		y := int(ix.year[k])
		if n := len(out); n > 0 && out[n-1].Year == y {
			out[n-1].Count++
			continue
		}
		out = append(out, YearCount{Year: y, Count: 1})
	}
	return out
}

// countBy counts recs by a field, ignoring case: known values first
// (zeros included), then any other, sorted.
func countBy[T any](recs []T, field func(*T) string, known []string) []NameCount {
	counts := map[string]int{}
	names := map[string]spelling{}
	for i := range recs {
		v := field(&recs[i])
		if v == "" {
			continue
		}
		lv := strings.ToLower(v)
		counts[lv]++
		if names[lv] == nil {
			names[lv] = spelling{}
		}
		names[lv][v]++
	}
	out := make([]NameCount, 0, len(known)+len(counts))
	for _, k := range known {
		lk := strings.ToLower(k)
		out = append(out, NameCount{Name: k, Count: counts[lk]})
		delete(counts, lk)
	}
	extra := make([]NameCount, 0, len(counts))
	for lv, n := range counts {
		extra = append(extra, NameCount{Name: names[lv].best(), Count: n})
	}
	slices.SortFunc(extra, func(a, b NameCount) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return append(out, extra...)
}

package vehicle

import (
	"strings"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
)

// The roles a size has in a fitment.
const (
	RoleOEM           = "oem"
	RoleRearOEM       = "rear_oem"
	RoleAlternate     = "alternate"
	RoleRearAlternate = "rear_alternate"
)

var sizeRoles = []string{RoleOEM, RoleRearOEM, RoleAlternate, RoleRearAlternate}

// sizePost is a fitment carrying a size, with its roles as bits of sizeRoles.
type sizePost struct {
	pos   int32
	roles uint8
}

// SizeMatch is a fitment that carries the size looked up.
type SizeMatch struct {
	Roles   []string            `json:"roles" jsonschema:"Where the fitment carries the size, one or more of: oem, rear_oem, alternate, rear_alternate."`
	Fitment catalog.TireFitment `json:"fitment" jsonschema:"The tire fitment."`
}

// YearFacet counts the fitments of one model year.
type YearFacet struct {
	Year  int `json:"year" jsonschema:"A model year."`
	Count int `json:"count" jsonschema:"Fitments of this year carrying the size."`
}

// SizeFacets count every fitment carrying the size, whatever make and year select.
type SizeFacets struct {
	Makes []MakeCount `json:"makes" jsonschema:"Fitments carrying the size by make, sorted by name; give one as make= to narrow."`
	Years []YearFacet `json:"years" jsonschema:"Fitments carrying the size by model year, newest first; give one as year= to narrow."`
}

// SizeLookup is the answer of /tire-sizes/lookup.
type SizeLookup struct {
	Size      SizeGeometry `json:"size" jsonschema:"Geometry of the size, in canonical form."`
	WindowPct int          `json:"window_pct" jsonschema:"The plus-size diameter window, ± percent." unit:"%"`
	PlusSizes PlusSizeSet  `json:"plus_sizes" jsonschema:"The plus sizes of the size; load and speed fields are null unless the size was given with a load index and speed rating (225/45R17 94W)."`
	Fitments  []SizeMatch  `json:"fitments" jsonschema:"One page of the fitments carrying the size as OEM or alternate, front or rear, in list order."`
	Meta      Meta         `json:"meta" jsonschema:"Pagination of fitments, under the list limits."`
	Facets    SizeFacets   `json:"facets" jsonschema:"Counts of all fitments carrying the size, by make and by year."`
}

func (SizeLookup) SchemaDescription() string {
	return "A tire size's geometry, its plus sizes and the fitments that carry it."
}

// SizeQuery is a lookup by size; zero fields take their defaults.
type SizeQuery struct {
	Size          string
	Window        int
	Make          string
	Year          int
	Page, PerPage int
}

// SizeFormat names the spellings a lookup takes, for its 400s.
const SizeFormat = "a metric size such as 225/45R17, P225/45R17 94W or LT285/70R17, or a flotation size such as 35x12.50R17LT"

// indexSizes indexes every size a fitment carries, OEM or alternate,
// front or rear, by its filter key, and notes each OEM tire for the
// plus-size cache.
func (s *Snapshot) indexSizes() {
	recs := s.tires.recs
	keys := map[string]string{}
	key := func(raw string) string {
		k, ok := keys[raw]
		if !ok {
			if sz, err := tire.Parse(raw); err == nil {
				k = sizeKey(sz)
			}
			keys[raw] = k
		}
		return k
	}
	s.bySize = map[string][]sizePost{}
	s.plus.known = map[tire.Size]bool{}
	add := func(p int32, raw string, role uint8) {
		k := key(raw)
		if k == "" {
			return
		}
		l := s.bySize[k]
		if n := len(l); n > 0 && l[n-1].pos == p {
			l[n-1].roles |= role
			return
		}
		s.bySize[k] = append(l, sizePost{p, role})
	}
	for i := range recs {
		f, p := &recs[i], int32(i)
		add(p, f.TireSize, 1)
		if sz, ok := oemTire(f.TireSize, f.LoadIndex, f.SpeedRating); ok {
			s.plus.known[sz] = true
		}
		if f.RearTireSize != nil {
			add(p, *f.RearTireSize, 2)
			if sz, ok := oemTire(*f.RearTireSize, f.RearLoadIndex, f.RearSpeedRating); ok {
				s.plus.known[sz] = true
			}
		}
		for _, a := range f.AlternateSizes {
			add(p, a, 4)
		}
		for _, a := range f.RearAlternateSizes {
			add(p, a, 8)
		}
	}
}

func (q *SizeQuery) check() (tire.Size, error) {
	if strings.TrimSpace(q.Size) == "" {
		return tire.Size{}, paramError(CodeMissingParameter, "size", "size is required: give "+SizeFormat)
	}
	sz, err := tire.Parse(q.Size)
	if err != nil {
		_, why, _ := strings.Cut(err.Error(), `": `)
		return tire.Size{}, invalidf("size", "size %s is not a tire size (%s): give %s", Echo(q.Size), why, SizeFormat)
	}
	if q.Window == 0 {
		q.Window = DefaultPlusWindow
	}
	if q.Page == 0 {
		q.Page = 1
	}
	if q.PerPage == 0 {
		q.PerPage = DefaultPerPage
	}
	for _, c := range []struct {
		name       string
		v, lo, hi  int
		skipIfZero bool
	}{{"page", q.Page, 1, MaxPage, false}, {"per_page", q.PerPage, 1, MaxPerPage, false}, {"year", q.Year, MinQueryYear, MaxQueryYear, true}} {
		if c.skipIfZero && c.v == 0 {
			continue
		}
		if c.v < c.lo || c.v > c.hi {
			return tire.Size{}, invalidf(c.name, "%s=%d is outside %d..%d: %s", c.name, c.v, c.lo, c.hi, hintOf(c.name))
		}
	}
	return sz, checkWindow(q.Window)
}

// LookupSize answers a size: its geometry and plus sizes, and a page of
// the fitments that carry it, from the snapshot's size index.
func (s *Service) LookupSize(q SizeQuery) (SizeLookup, error) {
	sz, err := q.check()
	if err != nil {
		return SizeLookup{}, err
	}
	snap := s.Snapshot()
	posts := snap.bySize[sizeKey(sz)]
	out := SizeLookup{WindowPct: q.Window, PlusSizes: snap.plus.entry(sz, q.Window).set, Fitments: []SizeMatch{}}
	out.Size = out.PlusSizes.OEM
	out.Facets = snap.sizeFacets(posts)
	mk := strings.ToLower(strings.TrimSpace(q.Make))
	ix := &snap.tires.idx
	mkID := ix.values.lookup(mk)
	first, total := (q.Page-1)*q.PerPage, 0
	for _, sp := range posts {
		if mk != "" && ix.lmake[sp.pos] != mkID || q.Year != 0 && int(ix.year[sp.pos]) != q.Year {
			continue
		}
		if total >= first && total < first+q.PerPage {
			out.Fitments = append(out.Fitments, SizeMatch{Roles: rolesOf(sp.roles), Fitment: snap.tires.recs[sp.pos]})
		}
		total++
	}
	out.Meta = NewMeta(q.Page, q.PerPage, total)
	return out, nil
}

func rolesOf(bits uint8) []string {
	out := make([]string, 0, 2)
	for i, r := range sizeRoles {
		if bits&(1<<i) != 0 {
			out = append(out, r)
		}
	}
	return out
}

// sizeFacets counts posts, which are in list order: sorted by make.
func (s *Snapshot) sizeFacets(posts []sizePost) SizeFacets {
	f := SizeFacets{Makes: []MakeCount{}, Years: []YearFacet{}}
	ix := &s.tires.idx
	var years [MaxQueryYear - MinQueryYear + 1]int
	for i, sp := range posts {
		if i == 0 || ix.lmake[sp.pos] != ix.lmake[posts[i-1].pos] {
			f.Makes = append(f.Makes, MakeCount{Name: s.tires.recs[sp.pos].Make})
		}
		f.Makes[len(f.Makes)-1].Count++
		if y := int(ix.year[sp.pos]); y >= MinQueryYear && y <= MaxQueryYear {
			years[y-MinQueryYear]++
		}
	}
	for i := len(years) - 1; i >= 0; i-- {
		if years[i] > 0 {
			f.Years = append(f.Years, YearFacet{Year: MinQueryYear + i, Count: years[i]})
		}
	}
	return f
}

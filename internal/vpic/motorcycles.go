package vpic

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vin"
)

// The vehicle types (VehicleType.Name) whose WMIs make the powersports
// catalog, in order of preference, each with the riding type of a model
// whose patterns name no body class that maps to one.
var powersportsTypes = []struct{ vehicleType, fallback string }{
	{"Motorcycle", "Street Motorcycle"},
	{"Off Road Vehicle", "ATV"},
	{"Low Speed Vehicle (LSV)", "Low Speed Vehicle"},
}

// ridingTypes maps vPIC's body classes onto riding types.
var ridingTypes = map[string]string{
	"Motorcycle - Sport":                   "Street Motorcycle",
	"Motorcycle - Street":                  "Street Motorcycle",
	"Motorcycle - Cruiser":                 "Street Motorcycle",
	"Motorcycle - Custom":                  "Street Motorcycle",
	"Motorcycle - Touring / Sport Touring": "Street Motorcycle",
	"Motorcycle - Standard":                "Street Motorcycle",
	"Motorcycle - Small / Minibike":        "Street Motorcycle",
	"Motorcycle - Side Car":                "Street Motorcycle",
	"Motorcycle - Dual Sport / Adventure / Supermoto / On/Off-road": "Dual Sport Motorcycle",
	"Motorcycle - Scooter":                    "Scooter",
	"Motorcycle - Moped":                      "Scooter",
	"Motorcycle - Underbone":                  "Scooter",
	"Motorcycle - Competition":                "Off-road Motorcycle",
	"Motorcycle - Cross Country":              "Off-road Motorcycle",
	"Off-road Vehicle - Dirt Bike / Off-Road": "Off-road Motorcycle",
	"Off-road Vehicle - Motocross (Off-road short distance, closed track racing)":                                   "Off-road Motorcycle",
	"Off-road Vehicle - Enduro (Off-road long distance racing)":                                                     "Off-road Motorcycle",
	"Motorcycle - Three-Wheeled Motorcycle [2 Rear Wheels]":                                                         "Three-Wheeler",
	"Motorcycle - Unenclosed Three Wheeled or Open Autocycle [1 Rear Wheel]":                                        "Three-Wheeler",
	"Motorcycle - Enclosed Three Wheeled or Enclosed Autocycle [1 Rear Wheel]":                                      "Three-Wheeler",
	"Motorcycle - Three Wheeled, Unknown Enclosure or Autocycle, Unknown Enclosure":                                 "Three-Wheeler",
	"Off-road Vehicle - All Terrain Vehicle (ATV) (Motorcycle-style)":                                               "ATV",
	"Off-road Vehicle - Multipurpose Off-Highway Utility Vehicle [MOHUV] or Recreational Off-Highway Vehicle [ROV]": "UTV / SXS",
	"Off-road Vehicle - Snowmobile":                                                                                 "Snowmobile",
	"Off-road Vehicle - Golf Cart":                                                                                  "Golf Cart",
	"Low Speed Vehicle (LSV) / Neighborhood Electric Vehicle (NEV)":                                                 "Low Speed Vehicle",
}

// MotorcycleStats counts what Motorcycles built and left out.
type MotorcycleStats struct {
	// DataYear is the snapshot's data year; no record is later than DataYear+1.
	DataYear int `json:"data_year"`
	// Links are the Wmi_VinSchema links of powersports WMIs, OpenLinks
	// those without a YearTo, CappedLinks those cut at DataYear+1.
	Links       int `json:"links"`
	OpenLinks   int `json:"open_links"`
	CappedLinks int `json:"capped_links"`
	// Records per riding type; Fallback the records whose type comes from
	// the WMI's vehicle type, no body class mapping.
	Types    map[string]int `json:"types"`
	Fallback int            `json:"fallback"`
	// NoMake counts model names without a Make_Model row, Invalid the records
	// the catalog's validation refused: both left out.
	NoMake  int `json:"no_make"`
	Invalid int `json:"invalid"`
	// YearCode counts the model-years of links a model's patterns rule
	// out by their position-10 (model year) keys.
	YearCode int `json:"year_code"`
}

// keyMask is, per position of a pattern's keys (VIN 4-8, "|", 10-17), the
// characters it accepts as bits of vinChars.
type keyMask [14]uint64

const vinChars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ|"

const anyChar = 1<<len(vinChars) - 1

func maskOf(keys string) (keyMask, bool) {
	var m keyMask
	for i := range m {
		m[i] = anyChar
	}
	i := 0
	for k := 0; k < len(keys); k, i = k+1, i+1 {
		if i >= len(m) {
			return m, false
		}
		switch c := keys[k]; c {
		case '*':
		case '[':
			end := strings.IndexByte(keys[k:], ']')
			if end < 0 {
				return m, false
			}
			m[i] = 0
			for b := 0; b < len(vinChars); b++ {
				if inClass(keys[k+1:k+end], vinChars[b]) {
					m[i] |= 1 << b
				}
			}
			k += end
		default:
			if b := strings.IndexByte(vinChars, c); b >= 0 {
				m[i] = 1 << b
			} else {
				m[i] = 0
			}
		}
	}
	return m, true
}

// overlaps reports whether some VIN matches both masks.
func (m *keyMask) overlaps(o *keyMask) bool {
	for i := range m {
		if m[i]&o[i] == 0 {
			return false
		}
	}
	return true
}

// modelAttrs is what the patterns of one schema compatible with a model's
// patterns (keys some VIN matches with both) say of it.
type modelAttrs struct {
	make, model uint32
	years       uint64 // position-10 codes of the model's patterns
	hits        []hit
}

// hit is an attribute pattern compatible with a model's: n of them give
// value to element for the years whose position-10 code is in years.
type hit struct {
	value   uint32
	element uint8
	years   uint64
	n       int
}

// schemaModels returns the models of a schema with their attributes.
func (s *Snapshot) schemaModels(id int32) []*modelAttrs {
	type masked struct {
		p pattern
		m keyMask
	}
	var models, attrs []masked
	for _, p := range s.schemas[id] {
		if p.value == 0 {
			continue
		}
		switch p.element {
		case elModel, elBodyClass, elDisplacementCC, elFuelType:
		default:
			continue
		}
		m, ok := maskOf(s.strs[p.keys])
		if !ok {
			continue
		}
		if p.element == elModel {
			models = append(models, masked{p, m})
		} else {
			attrs = append(attrs, masked{p, m})
		}
	}
	type hitKey struct {
		value   uint32
		element uint8
		years   uint64
	}
	byModel := map[[2]uint32]*modelAttrs{}
	counts := map[*modelAttrs]map[hitKey]int{}
	var out []*modelAttrs
	for _, mp := range models {
		k := [2]uint32{mp.p.make, mp.p.value}
		a := byModel[k]
		if a == nil {
			a = &modelAttrs{make: mp.p.make, model: mp.p.value}
			byModel[k] = a
			counts[a] = map[hitKey]int{}
			out = append(out, a)
		}
		a.years |= mp.m[yearPos]
		for _, ap := range attrs {
			if mp.m.overlaps(&ap.m) {
				counts[a][hitKey{ap.p.value, ap.p.element, mp.m[yearPos] & ap.m[yearPos]}]++
			}
		}
	}
	for _, a := range out {
		for k, n := range counts[a] {
			a.hits = append(a.hits, hit{k.value, k.element, k.years, n})
		}
	}
	return out
}

// yearPos is VIN position 10 in a keyMask.
const yearPos = 6

// yearBit is the keyMask bit of a model year's position-10 code, every
// bit before 1980, which has no codes.
func yearBit(year int) uint64 {
	if b := strings.IndexByte(vinChars, vin.YearCode(year)); b >= 0 {
		return 1 << b
	}
	return anyChar
}

// recordAttrs gathers, for one make, model and year, the attributes of
// every schema that gives it.
type recordAttrs struct {
	make, model    uint32
	bodies         map[uint32]int // body class: compatible patterns
	cc, fuel       map[uint32]bool
	vehicleTypeIdx int // into powersportsTypes, of the most preferred WMI
}

func (r *recordAttrs) add(a *modelAttrs, bit uint64) {
	for _, h := range a.hits {
		if h.years&bit == 0 {
			continue
		}
		switch h.element {
		case elBodyClass:
			r.bodies[h.value] += h.n
		case elDisplacementCC:
			r.cc[h.value] = true
		case elFuelType:
			r.fuel[h.value] = true
		}
	}
}

// DataYear is the year of the snapshot's data date, 0 when unknown.
func (s *Snapshot) DataYear() int {
	y, _ := strconv.Atoi(strings.SplitN(s.Meta.DataDate, "-", 2)[0])
	return y
}

// Motorcycles builds the powersports catalog: one record per make, model
// and model year that the snapshot decodes for a WMI of vehicle type
// Motorcycle, Off Road Vehicle or Low Speed Vehicle (docs/data.md, the
// vPIC powersports catalog). The make is the model's own (Make_Model); the
// years are those of the WMI's schema links in which the model has a
// pattern, an open link ending at DataYear+1. Records are sorted by make,
// model and year, normalized, with their natural-key uuids.
func (s *Snapshot) Motorcycles() ([]catalog.Motorcycle, MotorcycleStats) {
	st := MotorcycleStats{DataYear: s.DataYear(), Types: map[string]int{}}
	last := int32(st.DataYear + 1)
	if st.DataYear == 0 {
		last = int32(catalog.MaxYear())
	}
	// Records are keyed by make and model folded as the natural-key uuid
	// folds them, numbered once per model of a schema.
	type key struct{ name, year int32 }
	names := map[string]int32{}
	nameOf := map[*modelAttrs]int32{}
	records := map[key]*recordAttrs{}
	cache := map[int32][]*modelAttrs{}
	noMake := map[uint32]bool{}
	for _, w := range s.wmis {
		vt := slices.IndexFunc(powersportsTypes, func(t struct{ vehicleType, fallback string }) bool {
			return t.vehicleType == s.strs[w.vehicleType]
		})
		if vt < 0 {
			continue
		}
		for _, ws := range w.schemas {
			st.Links++
			to := ws.to
			if to == 9999 {
				st.OpenLinks++
			}
			if to > last {
				to = last
				st.CappedLinks++
			}
			models, ok := cache[ws.schema]
			if !ok {
				models = s.schemaModels(ws.schema)
				cache[ws.schema] = models
			}
			for _, m := range models {
				if m.make == 0 {
					noMake[m.model] = true
					continue
				}
				name, ok := nameOf[m]
				if !ok {
					folded := fold(s.strs[m.make]) + "\x00" + fold(s.strs[m.model])
					if name, ok = names[folded]; !ok {
						name = int32(len(names))
						names[folded] = name
					}
					nameOf[m] = name
				}
				for y := ws.from; y <= to; y++ {
					bit := yearBit(int(y))
					if m.years&bit == 0 {
						st.YearCode++
						continue
					}
					k := key{name, y}
					r := records[k]
					if r == nil {
						r = &recordAttrs{make: m.make, model: m.model, bodies: map[uint32]int{}, cc: map[uint32]bool{}, fuel: map[uint32]bool{}, vehicleTypeIdx: vt}
						records[k] = r
					} else if s.strs[m.make]+"\x00"+s.strs[m.model] < s.strs[r.make]+"\x00"+s.strs[r.model] {
						r.make, r.model = m.make, m.model // one spelling, whatever the map's order
					}
					r.add(m, bit)
					r.vehicleTypeIdx = min(r.vehicleTypeIdx, vt)
				}
			}
		}
	}
	st.NoMake = len(noMake)
	out := make([]catalog.Motorcycle, 0, len(records))
	for k, r := range records {
		m := catalog.Motorcycle{Make: s.strs[r.make], Model: s.strs[r.model], Year: int(k.year), Source: s.Source()}
		m.BodyClass, m.MotorcycleType = s.bodyClass(r.bodies)
		if m.MotorcycleType == "" {
			m.MotorcycleType = powersportsTypes[r.vehicleTypeIdx].fallback
			st.Fallback++
		}
		if v, ok := only(r.cc); ok {
			if cc, err := strconv.ParseFloat(s.strs[v], 64); err == nil && cc >= 25 && cc <= 3000 {
				n := int(math.Round(cc))
				m.DisplacementCC = &n
			}
		}
		if v, ok := only(r.fuel); ok {
			m.FuelType = s.strs[v]
			if m.FuelType == "Electric" {
				m.EngineType = "Electric"
			}
		}
		if m.Normalize() != nil {
			st.Invalid++
			continue
		}
		st.Types[m.MotorcycleType]++
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b catalog.Motorcycle) int {
		return cmp.Or(cmp.Compare(a.Make, b.Make), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Year, b.Year))
	})
	return out, st
}

// bodyClass picks the body class named by most compatible patterns among
// those that map to a riding type (ties: the first by name).
func (s *Snapshot) bodyClass(bodies map[uint32]int) (body, riding string) {
	best := 0
	for v, n := range bodies {
		name := s.strs[v]
		t, ok := ridingTypes[name]
		if ok && (n > best || n == best && name < body) {
			body, riding, best = name, t, n
		}
	}
	if body == "" && len(bodies) == 1 {
		for v := range bodies {
			body = s.strs[v]
		}
	}
	return body, riding
}

func only(set map[uint32]bool) (uint32, bool) {
	if len(set) != 1 {
		return 0, false
	}
	for v := range set {
		return v, true
	}
	return 0, false
}

func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

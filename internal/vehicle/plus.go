package vehicle

import (
	"bytes"
	"math"
	"sync"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
)

// The plus-size window, in whole percent: by default, and the bounds.
const (
	DefaultPlusWindow = int(tire.FitmentWindowPct)
	MinPlusWindow     = tire.MinPlusWindowPct
	MaxPlusWindow     = tire.MaxPlusWindowPct
)

// PlusSize is one size of the plus-size grid within the window.
type PlusSize struct {
	SizeGeometry
	OEM             bool    `json:"oem" jsonschema:"True for the OEM size itself, which the grid holds with a difference of 0."`
	DiameterDiffIn  float64 `json:"diameter_diff_in" jsonschema:"Diameter of this size minus the OEM size's, in inches." unit:"in"`
	DiameterDiffPct float64 `json:"diameter_diff_pct" jsonschema:"Diameter difference from the OEM size, in percent of the OEM diameter." unit:"%"`
	SidewallDiffMM  float64 `json:"sidewall_diff_mm" jsonschema:"Sidewall height of this size minus the OEM size's, in millimetres." unit:"mm"`
	SidewallDiffIn  float64 `json:"sidewall_diff_in" jsonschema:"Sidewall height of this size minus the OEM size's, in inches." unit:"in"`
	Speedometer60   float64 `json:"speedometer_at_60_mph" jsonschema:"What a speedometer set for the OEM size reads at a true 60 mph on this size." unit:"mph"`
	Speedometer100  float64 `json:"speedometer_at_100_kmh" jsonschema:"What a speedometer set for the OEM size reads at a true 100 km/h on this size." unit:"km/h"`
	// MinLoadIndex and MinSpeedRating are the OEM tire's, null when unknown.
	MinLoadIndex   *int    `json:"min_load_index" jsonschema:"The lowest load index that carries at least the OEM tire's load (ISO 4000 table); null when the OEM load index is unknown."`
	Reinforced     bool    `json:"reinforced_needed" jsonschema:"True when this size, built to the OEM tire's load class, carries less than the OEM size (Tire and Rim Association load formula): min_load_index then needs a reinforced (XL) tire, or a higher load range for LT."`
	MinSpeedRating *string `json:"min_speed_rating" jsonschema:"The lowest speed rating allowed: the OEM tire's; null when unknown."`
}

// RimGroup holds the plus sizes on one rim diameter.
type RimGroup struct {
	RimOffset int        `json:"rim_offset" jsonschema:"Rim diameter minus the OEM rim's, in inches: -2 to +3." unit:"in"`
	RimIn     float64    `json:"rim_in" jsonschema:"Rim diameter, in inches." unit:"in"`
	Sizes     []PlusSize `json:"sizes" jsonschema:"The sizes on this rim within the window, by the size of the diameter difference; may be empty."`
}

// PlusSizeSet is the plus sizes of one OEM size.
type PlusSizeSet struct {
	OEM         SizeGeometry `json:"oem" jsonschema:"Geometry of the OEM size."`
	LoadIndex   *int         `json:"load_index" jsonschema:"Load index of the OEM tire; null when unknown."`
	LoadKg      *int         `json:"load_kg" jsonschema:"Load the OEM tire carries (ISO 4000 table); null when its load index is unknown." unit:"kg"`
	SpeedRating *string      `json:"speed_rating" jsonschema:"Speed rating of the OEM tire; null when unknown."`
	SpeedKmh    *int         `json:"speed_kmh" jsonschema:"Top speed of the OEM speed rating (Z: above 240); null when unknown." unit:"km/h"`
	SpeedMph    *int         `json:"speed_mph" jsonschema:"Top speed of the OEM speed rating in mph (Z: above 149); null when unknown." unit:"mph"`
	Rims        []RimGroup   `json:"rims" jsonschema:"The six rims from 2 inches below to 3 inches above the OEM rim, each with its sizes."`
}

// FitmentPlusSizes is the answer of /tire-sizes/{uuid}/plus-sizes.
type FitmentPlusSizes struct {
	Fitment   catalog.TireFitment `json:"fitment" jsonschema:"The tire fitment."`
	WindowPct int                 `json:"window_pct" jsonschema:"The diameter window, ± percent of the OEM diameter." unit:"%"`
	Front     PlusSizeSet         `json:"front" jsonschema:"Plus sizes of the OEM size (the front size when staggered)."`
	Rear      *PlusSizeSet        `json:"rear" jsonschema:"Plus sizes of the rear size of a staggered fitment; null otherwise."`
}

func (FitmentPlusSizes) SchemaDescription() string {
	return "The plus sizes of a fitment: sizes within the window of its OEM diameter, by rim."
}

// plusKey is one OEM tire and window: fitments sharing it share the answer.
type plusKey struct {
	size   tire.Size
	window int
}

// plusEntry is a computed set, and its JSON once the API asks for it.
type plusEntry struct {
	set  PlusSizeSet
	json func() []byte
}

// plusCache holds the sets of the catalog's own OEM tires; any other size
// is computed per call, so callers cannot grow it.
type plusCache struct {
	known map[tire.Size]bool
	sets  sync.Map // plusKey -> *plusEntry
}

func checkWindow(w int) error {
	if w < MinPlusWindow || w > MaxPlusWindow {
		return invalidf("window", "window=%d is outside %d..%d: give the diameter window in whole percent, e.g. window=3",
			w, MinPlusWindow, MaxPlusWindow)
	}
	return nil
}

// oemTire is a fitment axle's size with the tire's load index and speed rating.
func oemTire(size string, li *int, sr *string) (tire.Size, bool) {
	sz, err := tire.Parse(size)
	if err != nil {
		return tire.Size{}, false
	}
	if li != nil && sr != nil {
		sz.LoadIndex, sz.SpeedRating = *li, *sr
	}
	return sz, true
}

func (c *plusCache) entry(sz tire.Size, window int) *plusEntry {
	if !c.known[sz] {
		return newPlusEntry(sz, window)
	}
	k := plusKey{sz, window}
	if e, ok := c.sets.Load(k); ok {
		return e.(*plusEntry)
	}
	e, _ := c.sets.LoadOrStore(k, newPlusEntry(sz, window))
	return e.(*plusEntry)
}

func newPlusEntry(sz tire.Size, window int) *plusEntry {
	e := &plusEntry{set: plusSizes(sz, window)}
	e.json = sync.OnceValue(func() []byte {
		raw, err := encodeJSON(&e.set)
		if err != nil {
			panic("vehicle: encode plus sizes: " + err.Error())
		}
		return raw
	})
	return e
}

// plusSizes rounds last, like the geometry; the load and speed fields are
// null unless sz carries a load index and speed rating.
func plusSizes(sz tire.Size, window int) PlusSizeSet {
	og := sz.Geometry()
	set := PlusSizeSet{OEM: roundGeometry(sz.Canonical(), og)}
	var minLI *int
	if sz.LoadIndex != 0 {
		li, sr := sz.LoadIndex, sz.SpeedRating
		set.LoadIndex, set.SpeedRating = &li, &sr
		if kg, ok := tire.LoadKg(li); ok {
			set.LoadKg = &kg
			if m, ok := tire.MinLoadIndex(kg); ok {
				minLI = &m
			}
		}
		if kmh, mph, ok := tire.SpeedLimit(sr); ok {
			set.SpeedKmh, set.SpeedMph = &kmh, &mph
		}
	}
	base := math.Floor(sz.RimIn)
	for off := -tire.PlusRimBelow; off <= tire.PlusRimAbove; off++ {
		set.Rims = append(set.Rims, RimGroup{RimOffset: off, RimIn: base + float64(off), Sizes: []PlusSize{}})
	}
	oemName := set.OEM.Size
	for _, p := range tire.PlusSizes(sz, float64(window)) {
		g := &set.Rims[p.RimOffset+tire.PlusRimBelow]
		name := p.Size.Canonical()
		g.Sizes = append(g.Sizes, PlusSize{
			SizeGeometry:    roundGeometry(name, p.Geometry),
			OEM:             name == oemName,
			DiameterDiffIn:  tire.Round(p.Compare.DiameterDiffIn, 2),
			DiameterDiffPct: tire.Round(p.Compare.DiameterDiffPct, 2),
			SidewallDiffMM:  tire.Round(p.Geometry.SidewallMM-og.SidewallMM, 1),
			SidewallDiffIn:  tire.Round(p.Geometry.SidewallIn-og.SidewallIn, 2),
			Speedometer60:   tire.Round(tire.Speedometer(og, p.Geometry, 60), 1),
			Speedometer100:  tire.Round(tire.Speedometer(og, p.Geometry, 100), 1),
			MinLoadIndex:    minLI,
			Reinforced:      tire.NeedsReinforced(sz, p.Size),
			MinSpeedRating:  set.SpeedRating,
		})
	}
	return set
}

// PlusSizes returns the plus sizes of a fitment's OEM size (and rear size)
// within window percent, 1..5.
func (s *Service) PlusSizes(id uuid.UUID, window int) (FitmentPlusSizes, error) {
	snap := s.Snapshot()
	front, rear, p, err := snap.plusOf(id, window)
	if err != nil {
		return FitmentPlusSizes{}, err
	}
	out := FitmentPlusSizes{Fitment: snap.tires.recs[p], WindowPct: window, Front: front.set}
	if rear != nil {
		out.Rear = &rear.set
	}
	return out, nil
}

// WritePlusSizesJSON writes PlusSizes encoded to b, from the sets'
// cached JSON; on error b is untouched.
func (s *Service) WritePlusSizesJSON(b *bytes.Buffer, id uuid.UUID, window int) error {
	snap := s.Snapshot()
	front, rear, p, err := snap.plusOf(id, window)
	if err != nil {
		return err
	}
	b.WriteString(`{"fitment":`)
	b.Write(snap.tires.json(p))
	b.WriteString(`,"window_pct":`)
	b.WriteByte(byte('0' + window))
	b.WriteString(`,"front":`)
	b.Write(front.json())
	b.WriteString(`,"rear":`)
	if rear != nil {
		b.Write(rear.json())
	} else {
		b.WriteString("null")
	}
	b.WriteByte('}')
	return nil
}

func (s *Snapshot) plusOf(id uuid.UUID, window int) (front, rear *plusEntry, p int32, err error) {
	if err := checkWindow(window); err != nil {
		return nil, nil, 0, err
	}
	p, ok := s.tires.byID[id]
	if !ok {
		return nil, nil, 0, notFound(catalog.KindTireSize, id)
	}
	f := &s.tires.recs[p]
	sz, ok := oemTire(f.TireSize, f.LoadIndex, f.SpeedRating)
	if !ok {
		return nil, nil, 0, invalidf("uuid", "fitment %s has no readable OEM size %s", id, Echo(f.TireSize))
	}
	front = s.plus.entry(sz, window)
	if f.RearTireSize != nil {
		if rs, ok := oemTire(*f.RearTireSize, f.RearLoadIndex, f.RearSpeedRating); ok {
			rear = s.plus.entry(rs, window)
		}
	}
	return front, rear, p, nil
}

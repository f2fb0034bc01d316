package catalog

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/tire"
)

// FieldError is a problem with one field of one record.
type FieldError struct {
	Field  string
	Reason string
}

func (e FieldError) Error() string { return "field " + e.Field + ": " + e.Reason }

// FieldErrors collects the problems of one record; nil means valid.
type FieldErrors []FieldError

func (es FieldErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}

// Err returns es as an error, or nil when there is nothing in it.
func (es FieldErrors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// Year bounds: next year's models sell from the summer before, so the
// current year + 2 is the last plausible model year.
const (
	MinCarYear     = 1886 // Benz Patent-Motorwagen
	MinVehicleYear = 1900
)

// MaxYear returns the latest model year accepted today.
func MaxYear() int { return time.Now().UTC().Year() + 2 }

type checker struct{ errs FieldErrors }

func (c *checker) fail(field, format string, args ...any) {
	c.errs = append(c.errs, FieldError{Field: field, Reason: fmt.Sprintf(format, args...)})
}

// text trims s and checks that it is present (when required) and not too long.
func (c *checker) text(field string, s *string, required bool, maxLen int) {
	*s = strings.Join(strings.Fields(*s), " ")
	switch {
	case required && *s == "":
		c.fail(field, "is required")
	case len(*s) > maxLen:
		c.fail(field, "is longer than %d characters", maxLen)
	}
}

func (c *checker) year(y, minYear int) {
	if y < minYear || y > MaxYear() {
		c.fail("year", "%d is outside %d..%d", y, minYear, MaxYear())
	}
}

// enum canonicalizes *s to a member of allowed and reports whether it is one.
func (c *checker) enum(field string, s *string, allowed []string) bool {
	v, ok := canonical(*s, allowed)
	if !ok {
		if strings.TrimSpace(*s) == "" {
			c.fail(field, "is required; one of %s", strings.Join(allowed, ", "))
			return false
		}
		c.fail(field, "%s", enumError(*s, allowed))
		return false
	}
	*s = v
	return true
}

// rangeCheck refuses v outside lo..hi, NaN and ±Inf: a published NaN would
// stop every server from loading the catalog.
func rangeCheck[T int | float64](c *checker, field string, v, lo, hi T) {
	switch f := float64(v); {
	case math.IsNaN(f) || math.IsInf(f, 0):
		c.fail(field, "%v is not a finite number", v)
	case v < lo || v > hi:
		c.fail(field, "%v is outside %v..%v", v, lo, hi)
	}
}

// tireSize writes *s in canonical form and returns its geometry, moving a
// load index and speed rating written after it to *li and *sr.
func (c *checker) tireSize(field string, s *string, li **int, sr **string) (tire.Geometry, bool) {
	sz, err := tire.Parse(*s)
	if err != nil {
		c.fail(field, "%v", err)
		return tire.Geometry{}, false
	}
	*s = sz.Canonical()
	if sz.LoadIndex == 0 {
		return sz.Geometry(), true
	}
	if li == nil {
		c.fail(field, "%s: an alternate size takes no load index or speed rating", *s)
		return sz.Geometry(), true
	}
	prefix := strings.TrimSuffix(field, "tire_size")
	switch {
	case *li != nil && **li != sz.LoadIndex:
		c.fail(prefix+"load_index", "%d contradicts the load index %d in %s", **li, sz.LoadIndex, field)
	case *sr != nil && !strings.EqualFold(**sr, sz.SpeedRating):
		c.fail(prefix+"speed_rating", "%s contradicts the speed rating %s in %s", **sr, sz.SpeedRating, field)
	default:
		*li, *sr = &sz.LoadIndex, &sz.SpeedRating
	}
	return sz.Geometry(), true
}

// rating checks an OEM tire's load index and speed rating, which are optional.
func (c *checker) rating(prefix string, li *int, sr **string) {
	if li != nil && !tire.ValidLoadIndex(*li) {
		c.fail(prefix+"load_index", "%d is not a load index: give 60..150", *li)
	}
	if *sr == nil {
		return
	}
	r := strings.ToUpper(strings.TrimSpace(**sr))
	switch {
	case r == "":
		*sr = nil
	case !tire.ValidSpeedRating(r):
		c.fail(prefix+"speed_rating", "%q is not a speed rating: give one letter of L..Z such as V", **sr)
	default:
		*sr = &r
	}
}

// alternates canonicalizes one axle's alternate sizes, refusing repeats,
// OEM sizes, and sizes outside the window unless listed in outside.
func (c *checker) alternates(field string, alts []string, oem tire.Geometry, oemOK bool, oemSize string, taken map[string]string, outside map[string]bool) {
	seen := map[string]bool{}
	for i := range alts {
		f := fmt.Sprintf("%s[%d]", field, i)
		g, ok := c.tireSize(f, &alts[i], nil, nil)
		if !ok {
			continue
		}
		a := alts[i]
		switch {
		case taken[a] != "":
			c.fail(f, "%s is the %s", a, taken[a])
			continue
		case seen[a]:
			c.fail(f, "%s is listed twice", a)
			continue
		}
		seen[a] = true
		if !oemOK {
			continue
		}
		cmp := tire.Compare(oem, g)
		listed := outside[a]
		delete(outside, a)
		switch {
		case !cmp.WithinWindow && !listed:
			c.fail(f, "%s differs from %s in diameter by %+.2f%%, outside the ±%g%% window: drop it, or list it in alternates_outside_window",
				a, oemSize, tire.Round(cmp.DiameterDiffPct, 2), tire.FitmentWindowPct)
		case cmp.WithinWindow && listed:
			c.fail("alternates_outside_window", "%s is within ±%g%% of %s (%+.2f%%): do not list it", a, tire.FitmentWindowPct, oemSize, tire.Round(cmp.DiameterDiffPct, 2))
		}
	}
}

// Normalize canonicalizes and validates the car, and fills its derived fields.
func (c *Car) Normalize() FieldErrors {
	var ck checker
	ck.text("make", &c.Make, true, 60)
	ck.text("model", &c.Model, true, 80)
	if ck.text("source_model", &c.SourceModel, false, 80); c.SourceModel == "" {
		c.SourceModel = c.Model
	}
	ck.year(c.Year, MinCarYear)
	ck.text("trim", &c.Trim, false, 80)
	ck.enum("body", &c.Body, Bodies)
	ck.enum("fuel_type", &c.FuelType, CarFuels)
	if c.DriveType = strings.TrimSpace(c.DriveType); c.DriveType != "" {
		ck.enum("drive_type", &c.DriveType, Drives)
	}
	ck.text("transmission", &c.Transmission, false, 60)
	electric := c.FuelType == FuelBEV || c.FuelType == FuelFCEV
	switch {
	case electric && (c.DisplacementL.Valid || c.Cylinders.Valid):
		ck.fail("displacement_l", "must be empty for %s", c.FuelType)
	}
	if c.DisplacementL.Valid {
		rangeCheck(&ck, "displacement_l", c.DisplacementL.V, 0.6, 10.0)
	}
	if c.Cylinders.Valid {
		rangeCheck(&ck, "cylinders", c.Cylinders.V, 2, 16)
	}
	c.FuelEconomy.check(&ck)
	c.Derive()
	c.UUID = recordUUID(KindCar, c.NaturalKey()...)
	return ck.errs
}

// check bounds the EPA fields an input may carry; figures need their EPA id.
func (fe *FuelEconomy) check(ck *checker) {
	if !fe.EPAID.Valid {
		if *fe != (FuelEconomy{}) {
			ck.fail("epa_id", "is required with EPA figures (mpg_city, mpg_highway, mpg_combined, epa_range_miles, annual_fuel_cost, co2_gpm): give the EPA vehicle id they come from")
		}
		return
	}
	rangeCheck(ck, "epa_id", fe.EPAID.V, 1, 1<<31-1)
	for _, f := range []struct {
		name string
		v    Opt[float64]
	}{{"mpg_city", fe.MPGCity}, {"mpg_highway", fe.MPGHighway}, {"mpg_combined", fe.MPGCombined}, {"co2_gpm", fe.CO2GPM}} {
		if f.v.Valid {
			rangeCheck(ck, f.name, f.v.V, 0, 10000)
		}
	}
	if fe.EPARangeMiles.Valid {
		rangeCheck(ck, "epa_range_miles", fe.EPARangeMiles.V, 1, 2000)
	}
	if fe.EPAElectricRangeMiles.Valid {
		rangeCheck(ck, "epa_electric_range_miles", fe.EPAElectricRangeMiles.V, 1, 1000)
	}
	if fe.AnnualFuelCost.Valid {
		rangeCheck(ck, "annual_fuel_cost", fe.AnnualFuelCost.V, 1, 100000)
	}
}

// Derive fills the fields computed from others (engine, electrified); stores
// call it when they load a car, since derived fields are not persisted.
func (c *Car) Derive() {
	c.Engine = engineLabel(c.FuelType, c.DisplacementL, c.Cylinders)
	c.Electrified = IsElectrified(c.FuelType)
}

// Normalize validates a motorcycle-dataset record and derives its uuid. An
// empty vehicle_type is filled from the riding type; a contradicting one is an error.
func (m *Motorcycle) Normalize() FieldErrors {
	var ck checker
	// vPIC names makes and models at length: "Xinri E-Veh Hongkong Co.,
	// Limited dba Jiangsu Xinn International Trading", or a list of codes.
	ck.text("make", &m.Make, true, 100)
	ck.text("model", &m.Model, true, 160)
	ck.year(m.Year, MinVehicleYear)
	typeOK := ck.enum("motorcycle_type", &m.MotorcycleType, MotorcycleTypes)
	if typeOK && strings.TrimSpace(m.VehicleType) == "" {
		m.VehicleType = ClassOf(m.MotorcycleType)
	}
	classOK := ck.enum("vehicle_type", &m.VehicleType, VehicleClasses)
	if typeOK && classOK && m.VehicleType != ClassOf(m.MotorcycleType) {
		ck.fail("vehicle_type", "%q does not match motorcycle_type %q (its class is %s)", m.VehicleType, m.MotorcycleType, ClassOf(m.MotorcycleType))
	}
	if m.DisplacementCC != nil {
		rangeCheck(&ck, "displacement_cc", *m.DisplacementCC, 25, 3000)
	}
	ck.text("engine_type", &m.EngineType, false, 60)
	if m.PowerHP != nil {
		rangeCheck(&ck, "power_hp", *m.PowerHP, 0.5, 400)
	}
	ck.text("body_class", &m.BodyClass, false, 120)
	ck.text("fuel_type", &m.FuelType, false, 60)
	ck.text("source", &m.Source, false, 60)
	m.UUID = recordUUID(KindMotorcycle, m.NaturalKey()...)
	return ck.errs
}

// Normalize validates a boat and derives its uuid.
func (b *Boat) Normalize() FieldErrors {
	var ck checker
	ck.text("make", &b.Make, true, 60)
	ck.text("model", &b.Model, true, 80)
	ck.year(b.Year, MinVehicleYear)
	ck.enum("model_type", &b.ModelType, VesselCategories)
	rangeCheck(&ck, "length_ft", b.LengthFt, 6, 200)
	rangeCheck(&ck, "beam_ft", b.BeamFt, 2, 40)
	rangeCheck(&ck, "dry_weight_lbs", b.DryWeightLbs, 50, 500000)
	rangeCheck(&ck, "engine_count", b.EngineCount, 1, 6)
	rangeCheck(&ck, "hp", b.HP, 1, 10000)
	ck.enum("hull_type", &b.HullType, HullTypes)
	ck.enum("fuel_type", &b.FuelType, BoatFuels)
	if b.BeamFt > b.LengthFt && b.LengthFt > 0 {
		ck.fail("beam_ft", "%v is wider than the boat is long (%v)", b.BeamFt, b.LengthFt)
	}
	b.UUID = recordUUID(KindBoat, b.NaturalKey()...)
	return ck.errs
}

// MaxAlternates is the most alternate sizes a fitment may list per axle.
const MaxAlternates = 4

// Normalize validates a fitment, writes its sizes in canonical form and
// derives the uuid. An alternate outside tire.FitmentWindowPct of its
// axle's OEM size must be listed in outsideWindow.
func (t *TireFitment) Normalize(outsideWindow ...string) FieldErrors {
	var ck checker
	ck.text("make", &t.Make, true, 60)
	ck.text("model", &t.Model, true, 80)
	ck.year(t.Year, MinVehicleYear)
	ck.text("trim", &t.Trim, false, 80)
	ck.rating("", t.LoadIndex, &t.SpeedRating)
	ck.rating("rear_", t.RearLoadIndex, &t.RearSpeedRating)
	front, frontOK := ck.tireSize("tire_size", &t.TireSize, &t.LoadIndex, &t.SpeedRating)
	taken := map[string]string{t.TireSize: "OEM size"}
	var rear tire.Geometry
	rearOK := false
	if t.RearTireSize != nil && strings.TrimSpace(*t.RearTireSize) == "" {
		t.RearTireSize = nil
	}
	if t.RearTireSize != nil {
		rear, rearOK = ck.tireSize("rear_tire_size", t.RearTireSize, &t.RearLoadIndex, &t.RearSpeedRating)
		if *t.RearTireSize == t.TireSize {
			ck.fail("rear_tire_size", "%s is the front size too: a fitment is staggered only when the sizes differ", t.TireSize)
		}
		taken[*t.RearTireSize] = "rear OEM size; list rear alternates in rear_alternate_sizes"
	} else if t.RearLoadIndex != nil || t.RearSpeedRating != nil || len(t.RearAlternateSizes) > 0 {
		ck.fail("rear_tire_size", "is required with rear_load_index, rear_speed_rating or rear_alternate_sizes")
	}
	if n := len(t.AlternateSizes); n < 1 || n > MaxAlternates {
		ck.fail("alternate_sizes", "has %d sizes; give 1 to %d", n, MaxAlternates)
	}
	if n := len(t.RearAlternateSizes); n > MaxAlternates {
		ck.fail("rear_alternate_sizes", "has %d sizes; give at most %d", n, MaxAlternates)
	}
	outside := map[string]bool{}
	for _, s := range outsideWindow {
		c, err := tire.Canonical(s)
		if err != nil {
			ck.fail("alternates_outside_window", "%v", err)
			continue
		}
		outside[c] = true
	}
	ck.alternates("alternate_sizes", t.AlternateSizes, front, frontOK, t.TireSize, taken, outside)
	if t.RearTireSize != nil {
		ck.alternates("rear_alternate_sizes", t.RearAlternateSizes, rear, rearOK, *t.RearTireSize, map[string]string{*t.RearTireSize: "rear OEM size"}, outside)
	}
	for _, s := range slices.Sorted(maps.Keys(outside)) {
		ck.fail("alternates_outside_window", "%s is not an alternate size of this fitment", s)
	}
	if t.RearAlternateSizes == nil {
		t.RearAlternateSizes = []string{}
	}
	ck.wheel(&t.WheelSpecs)
	t.UUID = recordUUID(KindTireSize, t.NaturalKey()...)
	return ck.errs
}

package catalog

import (
	"fmt"
	"math"
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

// Year bounds. The upper bound follows the calendar: manufacturers sell next
// year's models from the summer before, so the current year + 2 is the last
// plausible model year.
const (
	MinCarYear     = 1886 // Benz Patent-Motorwagen
	MinVehicleYear = 1900
)

// MaxYear returns the latest model year accepted today.
func MaxYear() int { return time.Now().UTC().Year() + 2 }

// checker accumulates field errors while a record is normalized.
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

// rangeCheck refuses v outside lo..hi, and NaN and ±Inf, which compare
// false (NaN) or cannot be encoded as JSON: a published NaN would stop
// every server from loading the catalog.
func rangeCheck[T int | float64](c *checker, field string, v, lo, hi T) {
	switch f := float64(v); {
	case math.IsNaN(f) || math.IsInf(f, 0):
		c.fail(field, "%v is not a finite number", v)
	case v < lo || v > hi:
		c.fail(field, "%v is outside %v..%v", v, lo, hi)
	}
}

func (c *checker) tireSize(field string, s *string) {
	sz, err := tire.Parse(*s)
	if err != nil {
		c.fail(field, "%v", err)
		return
	}
	*s = sz.String()
}

// Normalize trims and canonicalizes the car's fields, validates them, and
// fills the derived fields (engine, electrified, uuid).
func (c *Car) Normalize() FieldErrors {
	var ck checker
	ck.text("make", &c.Make, true, 60)
	ck.text("model", &c.Model, true, 80)
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
	case electric && (c.DisplacementL != nil || c.Cylinders != nil):
		ck.fail("displacement_l", "must be empty for %s", c.FuelType)
	}
	if c.DisplacementL != nil {
		rangeCheck(&ck, "displacement_l", *c.DisplacementL, 0.6, 10.0)
	}
	if c.Cylinders != nil {
		rangeCheck(&ck, "cylinders", *c.Cylinders, 2, 16)
	}
	c.FuelEconomy.check(&ck)
	c.Derive()
	c.UUID = recordUUID(KindCar, c.NaturalKey()...)
	return ck.errs
}

// check bounds the EPA fields an input may carry. Figures need the EPA id
// they come from: without one the stored figures would be kept and the
// file's silently dropped.
func (fe *FuelEconomy) check(ck *checker) {
	if fe.EPAID == nil {
		if *fe != (FuelEconomy{}) {
			ck.fail("epa_id", "is required with EPA figures (mpg_city, mpg_highway, mpg_combined, epa_range_miles, annual_fuel_cost, co2_gpm): give the EPA vehicle id they come from")
		}
		return
	}
	rangeCheck(ck, "epa_id", *fe.EPAID, 1, 1<<31-1)
	for _, f := range []struct {
		name string
		v    *float64
	}{{"mpg_city", fe.MPGCity}, {"mpg_highway", fe.MPGHighway}, {"mpg_combined", fe.MPGCombined}, {"co2_gpm", fe.CO2GPM}} {
		if f.v != nil {
			rangeCheck(ck, f.name, *f.v, 0, 10000)
		}
	}
	if fe.EPARangeMiles != nil {
		rangeCheck(ck, "epa_range_miles", *fe.EPARangeMiles, 1, 2000)
	}
	if fe.EPAElectricRangeMiles != nil {
		rangeCheck(ck, "epa_electric_range_miles", *fe.EPAElectricRangeMiles, 1, 1000)
	}
	if fe.AnnualFuelCost != nil {
		rangeCheck(ck, "annual_fuel_cost", *fe.AnnualFuelCost, 1, 100000)
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
	ck.text("make", &m.Make, true, 60)
	ck.text("model", &m.Model, true, 80)
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

// MaxAlternates is the most alternate sizes a fitment may list.
const MaxAlternates = 4

// Normalize validates a fitment, writes every tire size in canonical form,
// and derives the uuid.
func (t *TireFitment) Normalize() FieldErrors {
	var ck checker
	ck.text("make", &t.Make, true, 60)
	ck.text("model", &t.Model, true, 80)
	ck.year(t.Year, MinVehicleYear)
	ck.text("trim", &t.Trim, false, 80)
	ck.tireSize("tire_size", &t.TireSize)
	if t.RearTireSize != nil {
		if strings.TrimSpace(*t.RearTireSize) == "" {
			t.RearTireSize = nil
		} else {
			ck.tireSize("rear_tire_size", t.RearTireSize)
		}
	}
	if n := len(t.AlternateSizes); n < 1 || n > MaxAlternates {
		ck.fail("alternate_sizes", "has %d sizes; give 1 to %d", n, MaxAlternates)
	}
	seen := map[string]bool{t.TireSize: true}
	for i := range t.AlternateSizes {
		field := fmt.Sprintf("alternate_sizes[%d]", i)
		ck.tireSize(field, &t.AlternateSizes[i])
		if seen[t.AlternateSizes[i]] {
			ck.fail(field, "%s repeats the OEM size or another alternate", t.AlternateSizes[i])
		}
		seen[t.AlternateSizes[i]] = true
	}
	t.UUID = recordUUID(KindTireSize, t.NaturalKey()...)
	return ck.errs
}

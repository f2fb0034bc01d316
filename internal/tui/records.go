package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/textfmt"
)

// record is one catalog record of any kind, exactly one pointer set.
type record struct {
	kind client.Kind
	car  *client.Car
	moto *client.Motorcycle
	boat *client.Boat
	tire *client.TireFitment
}

func kindName(k client.Kind) string {
	switch k {
	case client.KindCar:
		return "car"
	case client.KindMotorcycle:
		return "motorcycle"
	case client.KindBoat:
		return "boat"
	case client.KindTireSize:
		return "tire fitment"
	}
	return string(k)
}

// kindPlural is a kind's capitalised plural, for titles: "Tire fitments".
func kindPlural(k client.Kind) string {
	n := kindName(k) + "s"
	return strings.ToUpper(n[:1]) + n[1:]
}

func (r record) uuid() string {
	switch {
	case r.car != nil:
		return r.car.UUID
	case r.moto != nil:
		return r.moto.UUID
	case r.boat != nil:
		return r.boat.UUID
	case r.tire != nil:
		return r.tire.UUID
	}
	return ""
}

func (r record) loaded() bool { return r.uuid() != "" }

func (r record) title() string {
	switch {
	case r.car != nil:
		return vehicleName(r.car.Year, r.car.Make, r.car.Model, r.car.Trim)
	case r.moto != nil:
		return vehicleName(r.moto.Year, r.moto.Make, r.moto.Model)
	case r.boat != nil:
		return vehicleName(r.boat.Year, r.boat.Make, r.boat.Model)
	case r.tire != nil:
		return vehicleName(r.tire.Year, r.tire.Make, r.tire.Model, r.tire.Trim)
	}
	return ""
}

func (r record) summary() string {
	switch {
	case r.car != nil:
		return joinNonEmpty(" · ", r.car.Body, r.car.Engine, r.car.DriveType)
	case r.moto != nil:
		return joinNonEmpty(" · ", r.moto.MotorcycleType, optInt(r.moto.DisplacementCC, " cc"))
	case r.boat != nil:
		return joinNonEmpty(" · ", r.boat.ModelType, formatFloat(r.boat.LengthFt, 1)+" ft", strconv.Itoa(r.boat.HP)+" hp")
	case r.tire != nil:
		s := client.RatedSize(r.tire.TireSize, r.tire.LoadIndex, r.tire.SpeedRating)
		if r.tire.RearTireSize != nil {
			s += " / " + client.RatedSize(*r.tire.RearTireSize, r.tire.RearLoadIndex, r.tire.RearSpeedRating) + " rear"
		}
		return s
	}
	return ""
}

type field struct{ label, value string }

// fields shows unknown values as "—", so every record of a kind has one shape.
func (r record) fields() []field {
	switch {
	case r.car != nil:
		c := r.car
		return []field{
			{"Make", c.Make}, {"Model", c.Model}, {"Year", strconv.Itoa(c.Year)}, {"Trim", dash(c.Trim)},
			{"Body", dash(c.Body)}, {"Engine", dash(c.Engine)}, {"Fuel", dash(c.FuelType)},
			{"Drive", dash(c.DriveType)}, {"Transmission", dash(c.Transmission)},
			{"Displacement", optFloat(c.DisplacementL, 1, " L")}, {"Cylinders", optInt(c.Cylinders, "")},
			{"Electrified", yesNo(c.Electrified)},
			{"MPG city/hwy/comb", joinOpt("/", c.MPGCity, c.MPGHighway, c.MPGCombined)},
			{"EPA range", optInt(c.EPARangeMiles, " mi")},
			{"Annual fuel cost", optInt(c.AnnualFuelCost, "", "$")},
			{"CO₂", optFloat(c.CO2GPM, 0, " g/mi")},
			{"UUID", c.UUID},
		}
	case r.moto != nil:
		m := r.moto
		return []field{
			{"Make", m.Make}, {"Model", m.Model}, {"Year", strconv.Itoa(m.Year)},
			{"Type", dash(m.MotorcycleType)}, {"Class", dash(m.VehicleType)},
			{"Displacement", optInt(m.DisplacementCC, " cc")}, {"Engine", dash(m.EngineType)},
			{"Power", optFloat(m.PowerHP, 0, " hp")}, {"UUID", m.UUID},
		}
	case r.boat != nil:
		b := r.boat
		return []field{
			{"Make", b.Make}, {"Model", b.Model}, {"Year", strconv.Itoa(b.Year)},
			{"Type", dash(b.ModelType)}, {"Length", formatFloat(b.LengthFt, 1) + " ft"},
			{"Beam", formatFloat(b.BeamFt, 1) + " ft"}, {"Dry weight", textfmt.Thousands(int64(b.DryWeightLbs)) + " lb"},
			{"Engines", strconv.Itoa(b.EngineCount)}, {"Power", strconv.Itoa(b.HP) + " hp"},
			{"Hull", dash(b.HullType)}, {"Fuel", dash(b.FuelType)}, {"UUID", b.UUID},
		}
	case r.tire != nil:
		t := r.tire
		rear := "—"
		if t.RearTireSize != nil {
			rear = client.RatedSize(*t.RearTireSize, t.RearLoadIndex, t.RearSpeedRating)
		}
		fields := []field{
			{"Make", t.Make}, {"Model", t.Model}, {"Year", strconv.Itoa(t.Year)}, {"Trim", dash(t.Trim)},
			{"OEM size", client.RatedSize(t.TireSize, t.LoadIndex, t.SpeedRating)}, {"Rear size", rear},
			{"Alternates", dash(strings.Join(t.AlternateSizes, ", "))},
		}
		if t.RearTireSize != nil {
			fields = append(fields, field{"Rear alternates", dash(strings.Join(t.RearAlternateSizes, ", "))})
		}
		return append(fields, field{"UUID", t.UUID})
	}
	return nil
}

// hasTires: a car (its fitments) or a fitment (its geometry).
func (r record) hasTires() bool { return r.kind == client.KindCar || r.kind == client.KindTireSize }

func (r record) hasRecalls() bool {
	return r.kind == client.KindCar || r.kind == client.KindMotorcycle
}

// tireReport is a car's fitments and how they matched its year, or one fitment.
type tireReport struct {
	title    string
	match    string
	fitments []client.FitmentGeometry
}

type recallReport struct {
	title     string
	coverage  string
	note      string
	recalls   []client.Recall
	ratings   []client.Rating
	stale     bool
	fetchedAt time.Time
}

func vehicleName(year int, parts ...string) string {
	s := joinNonEmpty(" ", parts...)
	if year > 0 {
		s = strconv.Itoa(year) + " " + s
	}
	return s
}

func joinNonEmpty(sep string, parts ...string) string {
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" && p != "—" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func str(p *string) string {
	if p == nil {
		return "—"
	}
	return dash(*p)
}

func optInt(p *int, suffix string, prefix ...string) string {
	if p == nil {
		return "—"
	}
	return strings.Join(prefix, "") + textfmt.Thousands(int64(*p)) + suffix
}

func optFloat(p *float64, prec int, suffix string) string {
	if p == nil {
		return "—"
	}
	return formatFloat(*p, prec) + suffix
}

// joinOpt formats optional numbers as "27/35/30", "—" for each unknown.
func joinOpt(sep string, ps ...*float64) string {
	parts := make([]string, len(ps))
	known := false
	for i, p := range ps {
		parts[i] = optFloat(p, 0, "")
		known = known || p != nil
	}
	if !known {
		return "—"
	}
	return strings.Join(parts, sep)
}

func formatFloat(v float64, prec int) string {
	return strconv.FormatFloat(v, 'f', prec, 64)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func stars(p *int) string {
	if p == nil {
		return "—"
	}
	n := min(max(*p, 0), 5)
	return strings.Repeat("★", n) + strings.Repeat("☆", 5-n)
}

func signedPct(v float64) string { return fmt.Sprintf("%+.1f%%", v) }

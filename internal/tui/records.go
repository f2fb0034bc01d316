package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/catalog"
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

func label(name string) string { return catalog.FieldLabel(name) }

// fields shows unknown values as "—", so every record of a kind has one
// shape. The labels carry the units, so the values do not. The uuid comes
// first, above the fold of a 24-line terminal.
func (r record) fields() []field {
	if !r.loaded() {
		return nil
	}
	return append([]field{{label("uuid"), r.uuid()}}, r.details()...)
}

func (r record) details() []field {
	switch {
	case r.car != nil:
		c := r.car
		return []field{
			{label("make"), c.Make}, {label("model"), c.Model}, {label("year"), strconv.Itoa(c.Year)}, {label("trim"), dash(c.Trim)},
			{label("body"), dash(c.Body)}, {label("engine"), dash(c.Engine)}, {label("fuel_type"), dash(c.FuelType)},
			{label("drive_type"), dash(c.DriveType)}, {label("transmission"), dash(c.Transmission)},
			{label("displacement_l"), optFloat(c.DisplacementL, 1, "")}, {label("cylinders"), optInt(c.Cylinders, "")},
			{label("electrified"), yesNo(c.Electrified)},
			{catalog.CarFieldLabel("mpg_city", c.FuelType), optFloat(c.MPGCity, 0, "")},
			{catalog.CarFieldLabel("mpg_highway", c.FuelType), optFloat(c.MPGHighway, 0, "")},
			{catalog.CarFieldLabel("mpg_combined", c.FuelType), optFloat(c.MPGCombined, 0, "")},
			{label("epa_range_miles"), optInt(c.EPARangeMiles, "")},
			{label("epa_electric_range_miles"), optInt(c.EPAElectricRangeMiles, "")},
			{label("annual_fuel_cost"), optInt(c.AnnualFuelCost, "")},
			{label("co2_gpm"), optFloat(c.CO2GPM, 0, "")},
		}
	case r.moto != nil:
		m := r.moto
		return []field{
			{label("make"), m.Make}, {label("model"), m.Model}, {label("year"), strconv.Itoa(m.Year)},
			{label("motorcycle_type"), dash(m.MotorcycleType)}, {label("vehicle_type"), dash(m.VehicleType)},
			{label("displacement_cc"), optInt(m.DisplacementCC, "")}, {label("engine_type"), dash(m.EngineType)},
			{label("power_hp"), optFloat(m.PowerHP, 0, "")}, {label("body_class"), dash(m.BodyClass)},
			{label("fuel_type"), dash(m.FuelType)}, {label("source"), dash(m.Source)},
		}
	case r.boat != nil:
		b := r.boat
		return []field{
			{label("make"), b.Make}, {label("model"), b.Model}, {label("year"), strconv.Itoa(b.Year)},
			{label("model_type"), dash(b.ModelType)}, {label("length_ft"), formatFloat(b.LengthFt, 1)},
			{label("beam_ft"), formatFloat(b.BeamFt, 1)}, {label("dry_weight_lbs"), textfmt.Thousands(int64(b.DryWeightLbs))},
			{label("engine_count"), strconv.Itoa(b.EngineCount)}, {label("hp"), strconv.Itoa(b.HP)},
			{label("hull_type"), dash(b.HullType)}, {label("fuel_type"), dash(b.FuelType)},
		}
	case r.tire != nil:
		t := r.tire
		rear := "—"
		if t.RearTireSize != nil {
			rear = client.RatedSize(*t.RearTireSize, t.RearLoadIndex, t.RearSpeedRating)
		}
		fields := []field{
			{label("make"), t.Make}, {label("model"), t.Model}, {label("year"), strconv.Itoa(t.Year)}, {label("trim"), dash(t.Trim)},
			{label("tire_size"), client.RatedSize(t.TireSize, t.LoadIndex, t.SpeedRating)}, {label("rear_tire_size"), rear},
			{label("alternate_sizes"), dash(strings.Join(t.AlternateSizes, ", "))},
		}
		if t.RearTireSize != nil {
			fields = append(fields, field{label("rear_alternate_sizes"), dash(strings.Join(t.RearAlternateSizes, ", "))})
		}
		for _, kv := range t.Known() {
			fields = append(fields, field{label(kv[0]), kv[1]})
		}
		return fields
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

type complaintReport struct {
	title      string
	complaints *client.Complaints
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

func optInt(p *int, suffix string) string {
	if p == nil {
		return "—"
	}
	return textfmt.Thousands(int64(*p)) + suffix
}

func optFloat(p *float64, prec int, suffix string) string {
	if p == nil {
		return "—"
	}
	return formatFloat(*p, prec) + suffix
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

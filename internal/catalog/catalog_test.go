package catalog

import (
	"math"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func validCar() Car {
	return Car{Make: "Toyota", Model: "Camry", Year: 2022, Trim: "LE", Body: "sedan", FuelType: "gasoline",
		DriveType: "fwd", Transmission: "Automatic (S8)", DisplacementL: Some(2.5), Cylinders: Some(4)}
}

func TestCarNormalize(t *testing.T) {
	t.Parallel()
	c := validCar()
	if errs := c.Normalize(); errs != nil {
		t.Fatalf("valid car: %v", errs)
	}
	if c.Body != "Sedan" || c.FuelType != FuelGasoline || c.DriveType != "FWD" {
		t.Fatalf("enums not canonicalized: %q %q %q", c.Body, c.FuelType, c.DriveType)
	}
	if c.Engine != "2.5L 4-cyl" || c.Electrified {
		t.Fatalf("derived fields: engine %q electrified %v", c.Engine, c.Electrified)
	}

	tests := []struct {
		name  string
		edit  func(*Car)
		field string
		want  string
	}{
		{"missing make", func(c *Car) { c.Make = "  " }, "make", "is required"},
		{"year too old", func(c *Car) { c.Year = 1850 }, "year", "1850 is outside 1886.."},
		{"year in far future", func(c *Car) { c.Year = MaxYear() + 1 }, "year", "is outside"},
		{"unknown body", func(c *Car) { c.Body = "Spaceship" }, "body", `"Spaceship" is not one of Sedan, Coupe`},
		{"unknown fuel", func(c *Car) { c.FuelType = "coal" }, "fuel_type", "is not one of"},
		{"unknown drive", func(c *Car) { c.DriveType = "6WD" }, "drive_type", "is not one of FWD, RWD, AWD, 4WD"},
		{"bev with engine", func(c *Car) { c.FuelType = FuelBEV }, "displacement_l", "must be empty"},
		{"negative displacement", func(c *Car) { c.DisplacementL = Some(-2.0) }, "displacement_l", "-2 is outside"},
		{"too many cylinders", func(c *Car) { c.Cylinders = Some(20) }, "cylinders", "20 is outside 2..16"},
		// NaN compares false with everything, so a plain range check passed it.
		{"NaN displacement", func(c *Car) { c.DisplacementL = Some(math.NaN()) }, "displacement_l", "NaN is not a finite number"},
		{"infinite displacement", func(c *Car) { c.DisplacementL = Some(math.Inf(1)) }, "displacement_l", "+Inf is not a finite number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := validCar()
			tc.edit(&c)
			assertFieldError(t, c.Normalize(), tc.field, tc.want)
		})
	}
}

// An engine the source does not give (a rotary, an unlisted one) and a
// drive it does not give are unknown, not errors.
func TestCarUnknownEngineAndDrive(t *testing.T) {
	t.Parallel()
	c := validCar()
	c.DisplacementL, c.Cylinders, c.DriveType = Opt[float64]{}, Opt[int]{}, ""
	if errs := c.Normalize(); len(errs) != 0 {
		t.Fatalf("errors %v", errs)
	}
	if c.Engine != "" {
		t.Errorf("engine %q, want empty", c.Engine)
	}
}

func assertFieldError(t *testing.T, errs FieldErrors, field, want string) {
	t.Helper()
	for _, e := range errs {
		if e.Field == field && strings.Contains(e.Reason, want) {
			return
		}
	}
	t.Fatalf("errors %v: want field %s containing %q", errs, field, want)
}

func TestElectrifiedAndEngine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fuel        string
		displ       Opt[float64]
		cyl         Opt[int]
		engine      string
		electrified bool
	}{
		{FuelBEV, Opt[float64]{}, Opt[int]{}, "Electric", true},
		{FuelPHEV, Some(2.0), Some(4), "2.0L 4-cyl plug-in hybrid", true},
		{FuelHEV, Some(2.5), Some(4), "2.5L 4-cyl hybrid", true},
		{FuelDiesel, Some(3.0), Some(6), "3.0L 6-cyl diesel", false},
		{FuelFCEV, Opt[float64]{}, Opt[int]{}, "Fuel cell electric", true},
	}
	for _, tc := range tests {
		t.Run(tc.fuel, func(t *testing.T) {
			c := validCar()
			c.FuelType, c.DisplacementL, c.Cylinders = tc.fuel, tc.displ, tc.cyl
			if errs := c.Normalize(); errs != nil {
				t.Fatal(errs)
			}
			if c.Engine != tc.engine || c.Electrified != tc.electrified {
				t.Fatalf("engine %q electrified %v, want %q %v", c.Engine, c.Electrified, tc.engine, tc.electrified)
			}
		})
	}
}

func TestUUIDStableAndDistinct(t *testing.T) {
	t.Parallel()
	a, b := validCar(), validCar()
	b.Make, b.Model = " TOYOTA ", "camry"
	a.Normalize()
	b.Normalize()
	if a.UUID != b.UUID {
		t.Fatalf("case and spacing changed the uuid: %s vs %s", a.UUID, b.UUID)
	}
	if a.UUID.Version() != 5 {
		t.Fatalf("uuid version %d, want 5 (name-based)", a.UUID.Version())
	}
	c := validCar()
	c.DriveType = "AWD"
	c.Normalize()
	if c.UUID == a.UUID {
		t.Fatal("a different drive gave the same uuid")
	}
	// A motorcycle with the same make/model/year as a fitment must not collide.
	m := Motorcycle{Make: "Toyota", Model: "Camry", Year: 2022, MotorcycleType: "Scooter"}
	m.Normalize()
	tf := TireFitment{Make: "Toyota", Model: "Camry", Year: 2022, TireSize: "215/55R17", AlternateSizes: []string{"225/45R18"}}
	tf.Normalize()
	if m.UUID == tf.UUID {
		t.Fatal("kinds share a uuid space")
	}
}

func TestMotorcycleNormalize(t *testing.T) {
	t.Parallel()
	m := Motorcycle{Make: "Polaris", Model: "RZR XP 1000", Year: 2023, MotorcycleType: "utv / sxs", DisplacementCC: ptr(999)}
	if errs := m.Normalize(); errs != nil {
		t.Fatal(errs)
	}
	if m.MotorcycleType != "UTV / SXS" || m.VehicleType != ClassATVUTV {
		t.Fatalf("type %q class %q", m.MotorcycleType, m.VehicleType)
	}
	bad := Motorcycle{Make: "Honda", Model: "Grom", Year: 2023, MotorcycleType: "Street Motorcycle", VehicleType: "ATV/UTV"}
	assertFieldError(t, bad.Normalize(), "vehicle_type", "does not match motorcycle_type")
	bad = Motorcycle{Make: "Honda", Model: "Grom", Year: 2023, MotorcycleType: "Hovercraft"}
	assertFieldError(t, bad.Normalize(), "motorcycle_type", "is not one of")
	bad = Motorcycle{Make: "Honda", Model: "Grom", Year: 2023, MotorcycleType: "Scooter", PowerHP: ptr(-1.0)}
	assertFieldError(t, bad.Normalize(), "power_hp", "is outside")
	bad = Motorcycle{Make: "Honda", Model: "Grom", Year: 2023, MotorcycleType: "Scooter", PowerHP: ptr(math.NaN())}
	assertFieldError(t, bad.Normalize(), "power_hp", "NaN is not a finite number")

	// The classes beyond the spec's two, and vPIC's long names.
	for typ, class := range map[string]string{"Snowmobile": ClassSnowmobile, "golf cart": ClassGolfLSV, "Low Speed Vehicle": ClassGolfLSV, "Three-Wheeler": ClassMotorcycle} {
		m := Motorcycle{Make: strings.Repeat("M", 100), Model: strings.Repeat("m", 160), Year: 2023, MotorcycleType: typ}
		if errs := m.Normalize(); errs != nil || m.VehicleType != class {
			t.Errorf("%s: %v, class %q, want %q", typ, errs, m.VehicleType, class)
		}
	}
	bad = Motorcycle{Make: "Honda", Model: strings.Repeat("m", 161), Year: 2023, MotorcycleType: "Scooter"}
	assertFieldError(t, bad.Normalize(), "model", "longer than 160")
	bad = Motorcycle{Make: "Club Car", Model: "Onward", Year: 2023, MotorcycleType: "Golf Cart", VehicleType: "ATV/UTV"}
	assertFieldError(t, bad.Normalize(), "vehicle_type", "does not match motorcycle_type")
}

func TestBoatNormalize(t *testing.T) {
	t.Parallel()
	valid := func() Boat {
		return Boat{Make: "Lund", Model: "1875 Crossover XS", Year: 2022, ModelType: "bass boat", LengthFt: 18.8, BeamFt: 7.9,
			DryWeightLbs: 1900, EngineCount: 1, HP: 150, HullType: "aluminum", FuelType: "gas"}
	}
	b := valid()
	if errs := b.Normalize(); errs != nil {
		t.Fatal(errs)
	}
	if b.HullType != "Aluminum" || b.ModelType != "Bass Boat" || b.FuelType != "Gas" {
		t.Fatalf("not canonical: %+v", b)
	}
	tests := []struct {
		name, field, want string
		edit              func(*Boat)
	}{
		{"zero length", "length_ft", "0 is outside", func(b *Boat) { b.LengthFt = 0 }},
		{"wider than long", "beam_ft", "wider than the boat is long", func(b *Boat) { b.LengthFt, b.BeamFt = 10, 12 }},
		{"NaN length", "length_ft", "NaN is not a finite number", func(b *Boat) { b.LengthFt = math.NaN() }},
		{"NaN beam", "beam_ft", "NaN is not a finite number", func(b *Boat) { b.BeamFt = math.NaN() }},
		{"no engines", "engine_count", "0 is outside 1..6", func(b *Boat) { b.EngineCount = 0 }},
		{"hull", "hull_type", "is not one of Fiberglass, Aluminum", func(b *Boat) { b.HullType = "Paper" }},
		{"fuel", "fuel_type", "is not one of Gas, Diesel", func(b *Boat) { b.FuelType = "Coal" }},
		{"category", "model_type", "is not one of", func(b *Boat) { b.ModelType = "Submarine" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := valid()
			tc.edit(&b)
			assertFieldError(t, b.Normalize(), tc.field, tc.want)
		})
	}
}

func TestTireFitmentNormalize(t *testing.T) {
	t.Parallel()
	tf := TireFitment{Make: "Ford", Model: "F150", Year: 2021, TireSize: "lt275/65r18 123s", RearTireSize: ptr(""),
		AlternateSizes: []string{"285/60 R18", "33x12.50r18 lt"}}
	if errs := tf.Normalize(); errs != nil {
		t.Fatal(errs)
	}
	if tf.TireSize != "LT275/65R18" || *tf.LoadIndex != 123 || *tf.SpeedRating != "S" || tf.RearTireSize != nil ||
		tf.AlternateSizes[0] != "285/60R18" || tf.AlternateSizes[1] != "33x12.50R18LT" || tf.RearAlternateSizes == nil || len(tf.RearAlternateSizes) != 0 {
		t.Fatalf("not canonical: %+v", tf)
	}
	tests := []struct {
		name, field, want string
		alts              []string
	}{
		{"no alternates", "alternate_sizes", "has 0 sizes; give 1 to 4", nil},
		{"five alternates", "alternate_sizes", "has 5 sizes", []string{"285/60R18", "265/70R18", "275/60R19", "255/75R17", "285/65R17"}},
		{"bad syntax", "alternate_sizes[0]", "tire size", []string{"275/65X18"}},
		{"repeats oem", "alternate_sizes[0]", "LT275/65R18 is the OEM size", []string{"LT275/65R18 123S"}},
		{"listed twice", "alternate_sizes[1]", "285/60R18 is listed twice", []string{"285/60R18", "P285/60R18"}},
		{"load index on an alternate", "alternate_sizes[0]", "285/60R18: an alternate size takes no load index", []string{"285/60R18 116T"}},
		// (18 + 2*275*0.70/25.4) / (18 + 2*275*0.65/25.4) = 33.1575 / 32.0748 = +3.38%
		{"outside the window", "alternate_sizes[0]", "275/70R18 differs from LT275/65R18 in diameter by +3.38%, outside the ±3% window: drop it, or list it in alternates_outside_window", []string{"275/70R18"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tf := TireFitment{Make: "Ford", Model: "F150", Year: 2021, TireSize: "LT275/65R18 123S", AlternateSizes: tc.alts}
			assertFieldError(t, tf.Normalize(), tc.field, tc.want)
		})
	}
}

func TestTireFitmentOutsideWindowMarking(t *testing.T) {
	t.Parallel()
	tf := TireFitment{Make: "Jeep", Model: "Wrangler", Year: 2017, TireSize: "LT255/75R17", AlternateSizes: []string{"35x12.50R17 LT", "LT265/70R17"}}
	if errs := tf.Normalize("35X12.50R17LT"); errs != nil {
		t.Fatalf("a listed outside-window alternate is refused: %v", errs)
	}
	if tf.AlternateSizes[0] != "35x12.50R17LT" {
		t.Fatalf("alternate not canonical: %q", tf.AlternateSizes[0])
	}
	// LT265/70R17 is 17 + 2*265*0.70/25.4 = 31.61 in against 32.06 in: -1.41%.
	tf = TireFitment{Make: "Jeep", Model: "Wrangler", Year: 2017, TireSize: "LT255/75R17", AlternateSizes: []string{"LT265/70R17"}}
	assertFieldError(t, tf.Normalize("LT265/70R17"), "alternates_outside_window", "LT265/70R17 is within ±3% of LT255/75R17 (-1.41%): do not list it")
	tf = TireFitment{Make: "Jeep", Model: "Wrangler", Year: 2017, TireSize: "LT255/75R17", AlternateSizes: []string{"LT265/70R17"}}
	assertFieldError(t, tf.Normalize("37x12.50R17LT"), "alternates_outside_window", "37x12.50R17LT is not an alternate size of this fitment")
}

func TestTireFitmentStaggered(t *testing.T) {
	t.Parallel()
	staggered := func() TireFitment {
		return TireFitment{Make: "Kia", Model: "EV6", Year: 2024, Trim: "GT", TireSize: "255/40R21 102W", LoadIndex: ptr(102),
			RearTireSize: ptr("275/35 R21"), RearSpeedRating: ptr("w"),
			AlternateSizes: []string{"265/40R21"}, RearAlternateSizes: []string{"275/30r22"}}
	}
	tf := staggered()
	if errs := tf.Normalize(); errs != nil {
		t.Fatal(errs)
	}
	if tf.TireSize != "255/40R21" || *tf.LoadIndex != 102 || *tf.SpeedRating != "W" || *tf.RearTireSize != "275/35R21" ||
		tf.RearLoadIndex != nil || *tf.RearSpeedRating != "W" || len(tf.RearAlternateSizes) != 1 || tf.RearAlternateSizes[0] != "275/30R22" {
		t.Fatalf("not canonical: %+v", tf)
	}
	tests := []struct {
		name, field, want string
		edit              func(*TireFitment)
	}{
		{"rear size as a front alternate", "alternate_sizes[0]", "275/35R21 is the rear OEM size; list rear alternates in rear_alternate_sizes",
			func(t *TireFitment) { t.AlternateSizes = []string{"275/35R21"} }},
		// 285/40R21 is 21 + 2*285*0.40/25.4 = 29.9764 in against the rear
		// 275/35R21's 21 + 2*275*0.35/25.4 = 28.5787 in: +4.89%.
		{"rear alternate outside the rear window", "rear_alternate_sizes[0]", "285/40R21 differs from 275/35R21 in diameter by +4.89%",
			func(t *TireFitment) { t.RearAlternateSizes = []string{"285/40R21"} }},
		{"rear alternates without a rear size", "rear_tire_size", "is required with rear_load_index, rear_speed_rating or rear_alternate_sizes",
			func(t *TireFitment) { t.RearTireSize, t.RearSpeedRating = nil, nil }},
		{"same size front and rear", "rear_tire_size", "255/40R21 is the front size too",
			func(t *TireFitment) { t.RearTireSize = ptr("255/40R21"); t.RearAlternateSizes = nil }},
		{"load index contradicts the size", "load_index", "101 contradicts the load index 102 in tire_size",
			func(t *TireFitment) { t.LoadIndex = ptr(101) }},
		{"speed rating contradicts the size", "speed_rating", "Y contradicts the speed rating W in tire_size",
			func(t *TireFitment) { t.SpeedRating = ptr("y") }},
		{"rear load index out of range", "rear_load_index", "200 is not a load index: give 60..150",
			func(t *TireFitment) { t.RearLoadIndex = ptr(200) }},
		{"unknown speed rating", "rear_speed_rating", `"X" is not a speed rating`,
			func(t *TireFitment) { t.RearSpeedRating = ptr("X") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tf := staggered()
			tc.edit(&tf)
			assertFieldError(t, tf.Normalize(), tc.field, tc.want)
		})
	}
}

func TestParseKind(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Kind{"cars": KindCar, "Motorcycle": KindMotorcycle, "boats": KindBoat, "tire": KindTireSize, "tire-size": KindTireSize, "tire_sizes": KindTireSize} {
		got, err := ParseKind(in)
		if err != nil || got != want {
			t.Errorf("ParseKind(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseKind("truck"); err == nil || !strings.Contains(err.Error(), "use car, motorcycle, boat or tire_size") {
		t.Errorf("ParseKind(truck) error = %v", err)
	}
}

func TestDiffKeepsFuelEconomyOutOfComparison(t *testing.T) {
	t.Parallel()
	stored := validCar()
	stored.Normalize()
	stored.MPGCity = Some(28.0)
	in := validCar()
	in.Normalize()
	ch := Diff(&Catalog{Cars: []Car{stored}}, &Catalog{Cars: []Car{in}}, map[Kind]bool{KindCar: true})
	if !ch.Empty() || ch.Cars.Unchanged != 1 {
		t.Fatalf("an enriched car differs from its un-enriched input: %+v", ch.Summaries())
	}
}

func TestDiffTakesAPinnedEPARow(t *testing.T) {
	t.Parallel()
	stored := validCar()
	stored.Normalize()
	stored.EPAID, stored.MPGCity = Some(1), Some(28.0)
	in := validCar()
	in.Normalize()
	in.EPAID, in.MPGCity = Some(2), Some(31.0)
	ch := Diff(&Catalog{Cars: []Car{stored}}, &Catalog{Cars: []Car{in}}, map[Kind]bool{KindCar: true})
	if len(ch.Cars.Update) != 1 || ch.Cars.Update[0].EPAID.V != 2 || ch.Cars.Update[0].MPGCity.V != 31 {
		t.Fatalf("a pinned EPA row does not replace the stored one: %+v", ch.Cars)
	}
	// Figures without the id they come from are refused.
	bad := validCar()
	bad.MPGCity = Some(30.0)
	if errs := bad.Normalize(); len(errs) != 1 || errs[0].Field != "epa_id" {
		t.Errorf("figures without epa_id: %v", errs)
	}
}

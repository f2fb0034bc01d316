package vehicle_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

func TestSearchCars(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	eq := strings.EqualFold
	tests := []struct {
		name   string
		params []string
		pred   func(catalog.Car) bool
	}{
		{"make", []string{"make", "Toyota"}, func(c catalog.Car) bool { return c.Make == "Toyota" }},
		{"make lowercase", []string{"make", "toyota"}, func(c catalog.Car) bool { return c.Make == "Toyota" }},
		{"make and model any case", []string{"make", "TOYOTA", "model", "camry"}, func(c catalog.Car) bool { return c.Make == "Toyota" && c.Model == "Camry" }},
		{"model alone", []string{"model", "Camry"}, func(c catalog.Car) bool { return c.Model == "Camry" }},
		{"models differing in case are one", []string{"make", "Nissan", "model", "LEAF"}, func(c catalog.Car) bool { return c.Make == "Nissan" && eq(c.Model, "leaf") }},
		{"make with space", []string{"make", "land rover"}, func(c catalog.Car) bool { return c.Make == "Land Rover" }},
		{"unknown make", []string{"make", "Trabant"}, func(catalog.Car) bool { return false }},
		{"unknown model of known make", []string{"make", "Toyota", "model", "Civic"}, func(catalog.Car) bool { return false }},
		{"year", []string{"year", "2020"}, func(c catalog.Car) bool { return c.Year == 2020 }},
		{"year without records", []string{"year", "1990"}, func(catalog.Car) bool { return false }},
		{"window", []string{"year_min", "2016", "year_max", "2018"}, func(c catalog.Car) bool { return c.Year >= 2016 && c.Year <= 2018 }},
		{"window of 10 years", []string{"year_min", "2015", "year_max", "2024"}, func(c catalog.Car) bool { return c.Year >= 2015 && c.Year <= 2024 }},
		{"make with lone year_min", []string{"make", "Ford", "year_min", "2020"}, func(c catalog.Car) bool { return c.Make == "Ford" && c.Year >= 2020 }},
		{"make with lone year_max", []string{"make", "Ford", "year_max", "2018"}, func(c catalog.Car) bool { return c.Make == "Ford" && c.Year <= 2018 }},
		{"year and bounds together", []string{"make", "Honda", "year", "2019", "year_min", "2018"}, func(c catalog.Car) bool { return c.Make == "Honda" && c.Year == 2019 }},
		{"body", []string{"body", "suv"}, func(c catalog.Car) bool { return c.Body == "SUV" }},
		{"body and year", []string{"body", "Pickup", "year", "2021"}, func(c catalog.Car) bool { return c.Body == "Pickup" && c.Year == 2021 }},
		{"fuel canonical name any case", []string{"fuel_type", "battery electric vehicle (bev)"}, func(c catalog.Car) bool { return c.FuelType == catalog.FuelBEV }},
		{"fuel code BEV", []string{"fuel_type", "BEV"}, func(c catalog.Car) bool { return c.FuelType == catalog.FuelBEV }},
		{"fuel code phev", []string{"fuel_type", "phev"}, func(c catalog.Car) bool { return c.FuelType == catalog.FuelPHEV }},
		{"fuel code HEV", []string{"fuel_type", "HEV"}, func(c catalog.Car) bool { return c.FuelType == catalog.FuelHEV }},
		{"fuel code GAS", []string{"fuel_type", "GAS"}, func(c catalog.Car) bool { return c.FuelType == catalog.FuelGasoline }},
		{"fuel gasoline", []string{"fuel_type", "Gasoline"}, func(c catalog.Car) bool { return c.FuelType == catalog.FuelGasoline }},
		{"fuel diesel", []string{"fuel_type", "diesel"}, func(c catalog.Car) bool { return c.FuelType == catalog.FuelDiesel }},
		{"fuel FCEV", []string{"fuel_type", "FCEV"}, func(c catalog.Car) bool { return c.FuelType == catalog.FuelFCEV }},
		{"fuel FFV", []string{"fuel_type", "ffv"}, func(c catalog.Car) bool { return c.FuelType == catalog.FuelFlex }},
		{"drive and make", []string{"drive_type", "awd", "make", "Subaru"}, func(c catalog.Car) bool { return c.DriveType == "AWD" && c.Make == "Subaru" }},
		{"ev_only", []string{"ev_only", "1"}, func(c catalog.Car) bool { return catalog.IsElectrified(c.FuelType) }},
		{"ev_only true with make", []string{"ev_only", "true", "make", "Toyota"}, func(c catalog.Car) bool { return c.Make == "Toyota" && catalog.IsElectrified(c.FuelType) }},
		{"ev_only 0 with make keeps all", []string{"ev_only", "0", "make", "Toyota"}, func(c catalog.Car) bool { return c.Make == "Toyota" }},
		{"every filter", []string{"make", "Toyota", "body", "SUV", "fuel_type", "HEV", "drive_type", "AWD", "year_min", "2018", "year_max", "2024"},
			func(c catalog.Car) bool {
				return c.Make == "Toyota" && c.Body == "SUV" && c.FuelType == catalog.FuelHEV && c.DriveType == "AWD" && c.Year >= 2018 && c.Year <= 2024
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := filterRecs(c.Cars, carRec, tt.pred)
			// Only the cases named for it may expect nothing; the rest
			// would pass vacuously on an empty result.
			if len(want) == 0 && !strings.Contains(tt.name, "unknown") && !strings.Contains(tt.name, "without records") {
				t.Fatalf("no demo car matches %v", tt.params)
			}
			checkSearch(t, svc, catalog.KindCar, tt.params, want)
		})
	}
}

func TestSearchEveryMake(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	counts := map[string]int{}
	for _, car := range c.Cars {
		counts[strings.ToUpper(car.Make)]++
	}
	for mk, n := range counts {
		t.Run(mk, func(t *testing.T) {
			res, err := find(svc, catalog.KindCar, []string{"make", mk})
			if err != nil {
				t.Fatal(err)
			}
			if res.Meta.Total != n {
				t.Errorf("make=%s total = %d, want %d", mk, res.Meta.Total, n)
			}
		})
	}
}

func TestSearchMotorcycles(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	tests := []struct {
		name   string
		params []string
		pred   func(catalog.Motorcycle) bool
	}{
		{"make", []string{"make", "honda"}, func(m catalog.Motorcycle) bool { return m.Make == "Honda" }},
		{"vehicle_type", []string{"vehicle_type", "atv/utv"}, func(m catalog.Motorcycle) bool { return m.VehicleType == catalog.ClassATVUTV }},
		{"make and vehicle_type", []string{"make", "Yamaha", "vehicle_type", "Motorcycle"}, func(m catalog.Motorcycle) bool {
			return m.Make == "Yamaha" && m.VehicleType == catalog.ClassMotorcycle
		}},
		{"window", []string{"year_min", "2020", "year_max", "2022"}, func(m catalog.Motorcycle) bool { return m.Year >= 2020 && m.Year <= 2022 }},
	}
	for _, mt := range catalog.MotorcycleTypes {
		tests = append(tests, struct {
			name   string
			params []string
			pred   func(catalog.Motorcycle) bool
		}{"type " + mt, []string{"motorcycle_type", strings.ToUpper(mt)}, func(m catalog.Motorcycle) bool { return m.MotorcycleType == mt }})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSearch(t, svc, catalog.KindMotorcycle, tt.params, filterRecs(c.Motorcycles, motoRec, tt.pred))
		})
	}
}

func TestSearchBoats(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	// Bounds taken from real records, so inclusivity is exercised on values
	// the catalog has.
	b0 := c.Boats[0]
	lenStr := fmt.Sprint(b0.LengthFt)
	tests := []struct {
		name   string
		params []string
		pred   func(catalog.Boat) bool
	}{
		{"hull_type", []string{"hull_type", "aluminum"}, func(b catalog.Boat) bool { return b.HullType == "Aluminum" }},
		{"fuel_type", []string{"fuel_type", "DIESEL"}, func(b catalog.Boat) bool { return b.FuelType == "Diesel" }},
		{"model_type", []string{"model_type", "center console"}, func(b catalog.Boat) bool { return b.ModelType == "Center Console" }},
		{"hp_min", []string{"hp_min", "300"}, func(b catalog.Boat) bool { return b.HP >= 300 }},
		{"hp_max", []string{"hp_max", "150"}, func(b catalog.Boat) bool { return b.HP <= 150 }},
		{"hp range inclusive", []string{"hp_min", fmt.Sprint(b0.HP), "hp_max", fmt.Sprint(b0.HP)}, func(b catalog.Boat) bool { return b.HP == b0.HP }},
		{"length range inclusive", []string{"length_min", lenStr, "length_max", lenStr}, func(b catalog.Boat) bool { return b.LengthFt == b0.LengthFt }},
		{"length_min fraction", []string{"length_min", "30.5"}, func(b catalog.Boat) bool { return b.LengthFt >= 30.5 }},
		{"length and hull", []string{"length_max", "20", "hull_type", "Fiberglass"}, func(b catalog.Boat) bool { return b.LengthFt <= 20 && b.HullType == "Fiberglass" }},
		{"make and hp", []string{"make", "boston whaler", "hp_min", "200"}, func(b catalog.Boat) bool { return b.Make == "Boston Whaler" && b.HP >= 200 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := filterRecs(c.Boats, boatRec, tt.pred)
			if len(want) == 0 {
				t.Fatalf("no demo boat matches %v: the case would pass vacuously", tt.params)
			}
			checkSearch(t, svc, catalog.KindBoat, tt.params, want)
		})
	}
}

// sizeOf canonicalizes a size the way a tire_size filter without load index
// compares it: tire dimensions only.
func TestSearchTireSizes(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	is := func(size string) func(catalog.TireFitment) bool {
		return func(f catalog.TireFitment) bool { return f.TireSize == size }
	}
	tests := []struct {
		name   string
		params []string
		pred   func(catalog.TireFitment) bool
	}{
		{"size", []string{"tire_size", "235/55R19"}, is("235/55R19")},
		{"size any case and spacing", []string{"tire_size", " 235/55 r 19 "}, is("235/55R19")},
		{"size with load index and speed rating", []string{"tire_size", "275/55R20 113T"}, is("275/55R20")},
		{"P-metric size", []string{"tire_size", "P275/55R20"}, is("275/55R20")},
		{"spaced lower-case size", []string{"tire_size", "275/55 r 20"}, is("275/55R20")},
		{"LT size", []string{"tire_size", "lt265/65r17"}, is("LT265/65R17")},
		{"ZR size", []string{"tire_size", "245/35zr19 92y"}, is("245/35ZR19")},
		{"make and year", []string{"make", "Ford", "year", "2020"}, func(f catalog.TireFitment) bool { return f.Make == "Ford" && f.Year == 2020 }},
		{"size not in catalog", []string{"tire_size", "155/80R13"}, func(catalog.TireFitment) bool { return false }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSearch(t, svc, catalog.KindTireSize, tt.params, filterRecs(c.TireSizes, tireRec, tt.pred))
		})
	}
	// Counted in tire_sizes.csv: 11 rows of 275/55R20, 5 of them with a load
	// index, which the filter once told apart.
	bare, withLoad := 0, 0
	for _, f := range c.TireSizes {
		if f.TireSize == "275/55R20" {
			bare++
			if f.LoadIndex != nil {
				withLoad++
			}
		}
	}
	if bare != 11 || withLoad != 5 {
		t.Errorf("demo has %d fitments of 275/55R20, %d with a load index; want 11 and 5", bare, withLoad)
	}
	for _, size := range []string{"275/55R20", "275/55R20 113T"} {
		if total, _ := searchAll(t, svc, catalog.KindTireSize, []string{"tire_size", size}); total != 11 {
			t.Errorf("tire_size=%s finds %d fitments, want 11", size, total)
		}
	}
}

func TestSearchFreeText(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	queries := []struct {
		kind catalog.Kind
		q    string
	}{
		{catalog.KindCar, "toyota cam"},
		{catalog.KindCar, "TOYOTA Camry"},
		{catalog.KindCar, "f150"},
		{catalog.KindCar, "f-150"},
		{catalog.KindCar, "cr-v"},
		{catalog.KindCar, "crv"},
		{catalog.KindCar, "honda hybrid"},
		{catalog.KindCar, "mercedes benz"},
		{catalog.KindCar, "mercedesbenz suv"},
		{catalog.KindCar, "bev awd"},
		{catalog.KindCar, "electric"},
		{catalog.KindCar, "rav4 prime"},
		{catalog.KindCar, "4"},
		{catalog.KindCar, "s"},
		{catalog.KindCar, "xyzzy"},
		{catalog.KindMotorcycle, "harley"},
		{catalog.KindMotorcycle, "scooter"},
		{catalog.KindMotorcycle, "atv yamaha"},
		{catalog.KindMotorcycle, "rzr"},
		{catalog.KindMotorcycle, "street glide"},
		{catalog.KindMotorcycle, "STREET GLIDE SP"},
		{catalog.KindBoat, "center console"},
		{catalog.KindBoat, "aluminum bass"},
		{catalog.KindBoat, "grady white"},
		{catalog.KindTireSize, "235/55"},
		{catalog.KindTireSize, "ford f150"},
		{catalog.KindTireSize, "lt265"},
	}
	// Each record's oracle tokens, computed once: the regexes are slow.
	toks := map[uuid.UUID][]string{}
	for _, r := range c.Cars {
		toks[r.UUID] = oracleTokens([]string{r.Make, r.Model}, r.Trim, r.Body, r.FuelType, r.DriveType)
	}
	for _, r := range c.Motorcycles {
		toks[r.UUID] = oracleTokens([]string{r.Make, r.Model}, r.MotorcycleType, r.VehicleType)
	}
	for _, r := range c.Boats {
		toks[r.UUID] = oracleTokens([]string{r.Make, r.Model}, r.ModelType, r.HullType)
	}
	for _, r := range c.TireSizes {
		toks[r.UUID] = oracleTokens([]string{r.Make, r.Model}, r.Trim, r.TireSize)
	}
	for _, tt := range queries {
		t.Run(string(tt.kind)+" "+tt.q, func(t *testing.T) {
			var want []rec
			switch tt.kind {
			case catalog.KindCar:
				want = filterRecs(c.Cars, carRec, func(r catalog.Car) bool { return oracleMatch(tt.q, toks[r.UUID]) })
			case catalog.KindMotorcycle:
				want = filterRecs(c.Motorcycles, motoRec, func(r catalog.Motorcycle) bool { return oracleMatch(tt.q, toks[r.UUID]) })
			case catalog.KindBoat:
				want = filterRecs(c.Boats, boatRec, func(r catalog.Boat) bool { return oracleMatch(tt.q, toks[r.UUID]) })
			case catalog.KindTireSize:
				want = filterRecs(c.TireSizes, tireRec, func(r catalog.TireFitment) bool { return oracleMatch(tt.q, toks[r.UUID]) })
			}
			checkSearch(t, svc, tt.kind, []string{"q", tt.q}, want)
		})
	}

	// Spot checks stated in terms of the data rather than the oracle.
	t.Run("toyota cam is the Camry", func(t *testing.T) {
		want := filterRecs(c.Cars, carRec, func(r catalog.Car) bool { return r.Make == "Toyota" && r.Model == "Camry" })
		if len(want) == 0 {
			t.Fatal("demo has no Camry")
		}
		checkSearch(t, svc, catalog.KindCar, []string{"q", "toyota cam"}, want)
	})
	t.Run("f150 finds F-150 and F-150 Lightning", func(t *testing.T) {
		total, got := searchAll(t, svc, catalog.KindCar, []string{"q", "f150"})
		models := map[string]bool{}
		for _, r := range got {
			models[r.model] = true
		}
		if !models["F-150"] || !models["F-150 Lightning"] || len(models) != 2 {
			t.Errorf("q=f150 found models %v (total %d), want F-150 and F-150 Lightning", models, total)
		}
	})
	t.Run("cr-v and crv find every CR-V", func(t *testing.T) {
		// cr-v is two words (cr, v), so it may find more than CR-Vs (a
		// Crosstrek hybrid "vehicle"); crv is the joined model name only.
		n := len(filterRecs(c.Cars, carRec, func(r catalog.Car) bool { return r.Model == "CR-V" }))
		for _, q := range []string{"cr-v", "crv", "CR-V"} {
			_, got := searchAll(t, svc, catalog.KindCar, []string{"q", q})
			crvs := 0
			for _, r := range got {
				if r.model == "CR-V" {
					crvs++
				}
			}
			if crvs != n || n == 0 || q == "crv" && len(got) != n {
				t.Errorf("q=%s found %d CR-Vs among %d records, want all %d", q, crvs, len(got), n)
			}
		}
	})
	// "street" is also the type of every street motorcycle, so a Road
	// Glide matches "street glide" too, but after the models named so.
	t.Run("rzr and street glide find their models first", func(t *testing.T) {
		for q, want := range map[string][]string{"rzr": {"RZR Pro XP", "RZR XP 1000", "RZR XP Turbo S"},
			"street glide": {"Street Glide", "Street Glide Special"}, "street glide sp": {"Street Glide Special"}} {
			_, got := searchAll(t, svc, catalog.KindMotorcycle, []string{"q", q})
			var models []string
			for _, r := range got {
				if len(models) == 0 || models[len(models)-1] != r.model {
					models = append(models, r.model)
				}
			}
			if len(models) < len(want) || strings.Join(models[:len(want)], ",") != strings.Join(want, ",") {
				t.Errorf("q=%s found models %v, want %v first", q, models, want)
			}
		}
	})
	t.Run("words are ANDed", func(t *testing.T) {
		honda, _ := searchAll(t, svc, catalog.KindCar, []string{"q", "honda"})
		hybrid, _ := searchAll(t, svc, catalog.KindCar, []string{"q", "hybrid"})
		both, recs := searchAll(t, svc, catalog.KindCar, []string{"q", "honda hybrid"})
		if both == 0 || both >= honda || both >= hybrid {
			t.Errorf("honda %d, hybrid %d, both %d: want 0 < both < each", honda, hybrid, both)
		}
		for _, r := range recs {
			if r.make != "Honda" {
				t.Errorf("q=honda hybrid found %s %s", r.make, r.model)
			}
		}
	})
	t.Run("q combines with filters", func(t *testing.T) {
		want := filterRecs(c.Cars, carRec, func(r catalog.Car) bool { return r.Year == 2020 && oracleMatch("toyota", toks[r.UUID]) })
		checkSearch(t, svc, catalog.KindCar, []string{"q", "toyota", "year", "2020"}, want)
	})
}

func TestSearchOrder(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	// A query spanning many makes, models and years, paged through in full.
	_, got := searchAll(t, svc, catalog.KindCar, []string{"year_min", "2019", "year_max", "2021"})
	if len(got) < 30 {
		t.Fatalf("only %d records: too few to check ordering", len(got))
	}
	sorted := append([]rec(nil), got...)
	sortRecs(sorted)
	for i := range got {
		if got[i].id != sorted[i].id {
			t.Fatalf("record %d is %v, want %v in make, model, year desc, trim, uuid order", i, got[i], sorted[i])
		}
	}
}

func TestPaginationMeta(t *testing.T) {
	t.Parallel()
	// 450 cars of one make: more than the 400 that paging reaches.
	cars := synthCars(450, 1)
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: cars}, catalog.Version{}))
	demoSvc := demoService(t)
	toyotas := len(filterRecs(demo(t).Cars, carRec, func(c catalog.Car) bool { return c.Make == "Toyota" }))
	toyotaPages := (toyotas + 9) / 10
	tests := []struct {
		name     string
		svc      *vehicle.Service
		params   []string
		wantMeta vehicle.Meta
		wantLen  int
	}{
		{"first page defaults", svc, []string{"make", "Make00"}, vehicle.Meta{Page: 1, PerPage: 10, Total: 450, TotalPages: 45, MaxPage: 40, Truncated: true}, 10},
		{"last reachable page", svc, []string{"make", "Make00", "page", "40"}, vehicle.Meta{Page: 40, PerPage: 10, Total: 450, TotalPages: 45, MaxPage: 40, Truncated: true}, 10},
		{"per_page 7", svc, []string{"make", "Make00", "per_page", "7", "page", "40"}, vehicle.Meta{Page: 40, PerPage: 7, Total: 450, TotalPages: 65, MaxPage: 40, Truncated: true}, 7},
		{"demo make", demoSvc, []string{"make", "Toyota"}, vehicle.Meta{Page: 1, PerPage: 10, Total: toyotas, TotalPages: toyotaPages, MaxPage: toyotaPages}, 10},
		{"demo last partial page", demoSvc, []string{"make", "Toyota", "page", fmt.Sprint(toyotaPages)},
			vehicle.Meta{Page: toyotaPages, PerPage: 10, Total: toyotas, TotalPages: toyotaPages, MaxPage: toyotaPages}, toyotas - (toyotaPages-1)*10},
		{"page past max_page", demoSvc, []string{"make", "Toyota", "page", fmt.Sprint(toyotaPages + 1)},
			vehicle.Meta{Page: toyotaPages + 1, PerPage: 10, Total: toyotas, TotalPages: toyotaPages, MaxPage: toyotaPages}, 0},
		{"no matches", demoSvc, []string{"make", "Trabant", "page", "3"}, vehicle.Meta{Page: 3, PerPage: 10,
			Suggestions: []vehicle.Suggestion{{Param: "make", Value: "Trabant", Names: []string{}}}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := find(tt.svc, catalog.KindCar, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Meta, tt.wantMeta) {
				t.Errorf("meta = %+v, want %+v", res.Meta, tt.wantMeta)
			}
			data := res.Records().([]catalog.Car)
			if len(data) != tt.wantLen || data == nil {
				t.Errorf("page has %d records (nil %v), want %d", len(data), data == nil, tt.wantLen)
			}
		})
	}
	t.Run("empty data encodes as []", func(t *testing.T) {
		res, err := find(demoSvc, catalog.KindBoat, []string{"make", "Nobody"})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.Records())
		if string(b) != "[]" {
			t.Errorf("empty data encodes as %s", b)
		}
	})
	t.Run("truncated boundary", func(t *testing.T) {
		for _, n := range []int{400, 401} {
			s := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: synthCars(n, 1)}, catalog.Version{}))
			res, err := find(s, catalog.KindCar, []string{"make", "make00"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Meta.Truncated != (n > 400) || res.Meta.MaxPage != 40 {
				t.Errorf("%d matches: meta %+v", n, res.Meta)
			}
		}
	})
	t.Run("page 40 of truncated results are records 391..400", func(t *testing.T) {
		want := filterRecs(cars, carRec, func(catalog.Car) bool { return true })[390:400]
		res, err := find(svc, catalog.KindCar, []string{"make", "Make00", "page", "40"})
		if err != nil {
			t.Fatal(err)
		}
		got := pageRecs(t, res.Records())
		for i := range want {
			if got[i].id != want[i].id {
				t.Fatalf("record %d = %v, want %v", i, got[i], want[i])
			}
		}
	})
}

// TestSearchScaling checks the index against brute force on a catalog large
// enough that the planner picks bitmap unions and list sources.
func TestSearchScaling(t *testing.T) {
	t.Parallel()
	cars := synthCars(20000, 40)
	// Synthetic trims are "Trim <n>", so the oracle is a cheap string test.
	toks := func(c catalog.Car) []string {
		return append(oracleTokens([]string{c.Make, c.Model}), "trim", strings.Fields(c.Trim)[1], strings.ToLower(c.Body),
			strings.ToLower(c.DriveType))
	}
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: cars}, catalog.Version{}))
	tests := []struct {
		name   string
		params []string
		pred   func(catalog.Car) bool
	}{
		{"make", []string{"make", "Make07"}, func(c catalog.Car) bool { return c.Make == "Make07" }},
		{"make model year", []string{"make", "make07", "model", "model-3", "year", "2003"}, func(c catalog.Car) bool {
			return c.Make == "Make07" && c.Model == "Model-3" && c.Year == 2003
		}},
		{"window and body", []string{"year_min", "2010", "year_max", "2012", "body", "Van"}, func(c catalog.Car) bool {
			return c.Year >= 2010 && c.Year <= 2012 && c.Body == "Van"
		}},
		{"prefix over many tokens", []string{"q", "make1 trim 12"}, func(c catalog.Car) bool {
			return oracleMatch("make1 trim 12", toks(c))
		}},
		{"make and window", []string{"make", "Make07", "year_min", "2003", "year_max", "2010"}, func(c catalog.Car) bool {
			return c.Make == "Make07" && c.Year >= 2003 && c.Year <= 2010
		}},
		{"make model and body", []string{"make", "make07", "model", "MODEL-3", "body", "suv"}, func(c catalog.Car) bool {
			return c.Make == "Make07" && c.Model == "Model-3" && c.Body == "SUV"
		}},
		{"make and short prefix", []string{"make", "Make07", "q", "1"}, func(c catalog.Car) bool {
			return c.Make == "Make07" && oracleMatch("1", toks(c))
		}},
		{"make and narrow prefix", []string{"make", "Make07", "q", "1999"}, func(c catalog.Car) bool {
			return c.Make == "Make07" && oracleMatch("1999", toks(c))
		}},
		{"prefix and window", []string{"q", "model", "year_min", "2001", "year_max", "2001"}, func(c catalog.Car) bool { return c.Year == 2001 }},
		{"ev and drive", []string{"ev_only", "1", "drive_type", "4wd", "model", "model-5"}, func(c catalog.Car) bool {
			return c.Electrified && c.DriveType == "4WD" && c.Model == "Model-5"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSearch(t, svc, catalog.KindCar, tt.params, filterRecs(cars, carRec, tt.pred))
		})
	}
}

// TestSearchSuggestions: a make or model no record has is not refused (the
// filters take any name) but the empty page names the closest known ones.
func TestSearchSuggestions(t *testing.T) {
	svc := demoService(t)
	for _, tc := range []struct {
		kind catalog.Kind
		kv   []string
		want []vehicle.Suggestion
	}{
		{catalog.KindCar, []string{"make", "Toyta"}, []vehicle.Suggestion{{Param: "make", Value: "Toyta", Names: []string{"Toyota"}}}},
		{catalog.KindCar, []string{"make", " toyta ", "model", "Camry"}, []vehicle.Suggestion{{Param: "make", Value: "toyta", Names: []string{"Toyota"}}}},
		{catalog.KindCar, []string{"make", "Toyota", "model", "Camri"}, []vehicle.Suggestion{{Param: "model", Value: "Camri", Names: []string{"Camry"}}}},
		{catalog.KindCar, []string{"model", "Camri"}, []vehicle.Suggestion{{Param: "model", Value: "Camri", Names: []string{"Camry", "Camaro"}}}},
		{catalog.KindCar, []string{"make", "Qwxzv"}, []vehicle.Suggestion{{Param: "make", Value: "Qwxzv", Names: []string{}}}},
		// Known names that match nothing together suggest nothing.
		{catalog.KindCar, []string{"make", "Toyota", "year", "1901"}, nil},
		{catalog.KindCar, []string{"make", "Toyota", "model", "CB500F"}, []vehicle.Suggestion{{Param: "model", Value: "CB500F", Names: []string{}}}},
		{catalog.KindMotorcycle, []string{"make", "Hodna"}, []vehicle.Suggestion{{Param: "make", Value: "Hodna", Names: []string{"Honda"}}}},
	} {
		p, err := find(svc, tc.kind, tc.kv)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.kind, tc.kv, err)
		}
		if p.Meta.Total != 0 || !reflect.DeepEqual(p.Meta.Suggestions, tc.want) {
			t.Errorf("%s %v: total %d, suggestions %+v; want 0, %+v", tc.kind, tc.kv, p.Meta.Total, p.Meta.Suggestions, tc.want)
		}
	}
	// A page that matches carries none.
	if p, err := find(svc, catalog.KindCar, []string{"make", "toyota"}); err != nil || p.Meta.Total == 0 || p.Meta.Suggestions != nil {
		t.Errorf("make=toyota: %+v, %v", p.Meta, err)
	}
}

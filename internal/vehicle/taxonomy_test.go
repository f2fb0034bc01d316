package vehicle_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// group is a brute-force model entry: its count and year range.
type group struct {
	count, yearMin, yearMax int
}

// taxonomyOf counts records per lowercase make, and per lowercase make and
// model with the year range.
func taxonomyOf(recs []rec) (map[string]int, map[string]map[string]*group) {
	makes := map[string]int{}
	models := map[string]map[string]*group{}
	for _, r := range recs {
		mk, md := strings.ToLower(r.make), strings.ToLower(r.model)
		makes[mk]++
		if models[mk] == nil {
			models[mk] = map[string]*group{}
		}
		g := models[mk][md]
		if g == nil {
			g = &group{yearMin: r.year, yearMax: r.year}
			models[mk][md] = g
		}
		g.count++
		g.yearMin, g.yearMax = min(g.yearMin, r.year), max(g.yearMax, r.year)
	}
	return makes, models
}

func allRecs(c *catalog.Catalog, kind catalog.Kind) []rec {
	switch kind {
	case catalog.KindCar:
		return filterRecs(c.Cars, carRec, func(catalog.Car) bool { return true })
	case catalog.KindMotorcycle:
		return filterRecs(c.Motorcycles, motoRec, func(catalog.Motorcycle) bool { return true })
	case catalog.KindBoat:
		return filterRecs(c.Boats, boatRec, func(catalog.Boat) bool { return true })
	}
	return filterRecs(c.TireSizes, tireRec, func(catalog.TireFitment) bool { return true })
}

func TestMakesAndModels(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	for _, kind := range catalog.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			recs := allRecs(c, kind)
			wantMakes, wantModels := taxonomyOf(recs)
			makes := svc.Makes(kind)
			if len(makes) != len(wantMakes) {
				t.Fatalf("%d makes, want %d", len(makes), len(wantMakes))
			}
			sum := 0
			for i, m := range makes {
				lm := strings.ToLower(m.Name)
				if m.Count != wantMakes[lm] {
					t.Errorf("make %s count %d, want %d", m.Name, m.Count, wantMakes[lm])
				}
				if i > 0 && strings.ToLower(makes[i-1].Name) >= lm {
					t.Errorf("makes out of order: %s before %s", makes[i-1].Name, m.Name)
				}
				sum += m.Count

				// Ask in upper case: the make is matched case-insensitively.
				models, err := svc.Models(kind, strings.ToUpper(m.Name))
				if err != nil {
					t.Fatalf("Models(%s): %v", m.Name, err)
				}
				if len(models) != len(wantModels[lm]) {
					t.Fatalf("make %s has %d models, want %d", m.Name, len(models), len(wantModels[lm]))
				}
				for j, md := range models {
					g := wantModels[lm][strings.ToLower(md.Name)]
					if g == nil || md.Count != g.count || md.YearMin != g.yearMin || md.YearMax != g.yearMax {
						t.Errorf("%s %s = %+v, want %+v", m.Name, md.Name, md, g)
					}
					if j > 0 && strings.ToLower(models[j-1].Name) >= strings.ToLower(md.Name) {
						t.Errorf("models of %s out of order: %s before %s", m.Name, models[j-1].Name, md.Name)
					}
				}
			}
			if sum != len(recs) {
				t.Errorf("make counts sum to %d, want %d records", sum, len(recs))
			}
		})
	}
	t.Run("models differing only in case are one", func(t *testing.T) {
		models, err := svc.Models(catalog.KindCar, "nissan")
		if err != nil {
			t.Fatal(err)
		}
		n, entries := 0, 0
		for _, car := range c.Cars {
			if car.Make == "Nissan" && strings.EqualFold(car.Model, "leaf") {
				n++
			}
		}
		for _, m := range models {
			if strings.EqualFold(m.Name, "leaf") {
				entries++
				if m.Count != n {
					t.Errorf("Leaf count %d, want %d", m.Count, n)
				}
			}
		}
		if entries != 1 {
			t.Errorf("%d Leaf entries, want 1", entries)
		}
	})
	t.Run("returned slices are copies", func(t *testing.T) {
		m := svc.Makes(catalog.KindCar)
		m[0].Count = -1
		if svc.Makes(catalog.KindCar)[0].Count == -1 {
			t.Error("mutating Makes' result changed the snapshot")
		}
	})
	t.Run("unknown kind", func(t *testing.T) {
		if m := svc.Makes("plane"); m == nil || len(m) != 0 {
			t.Errorf("Makes(plane) = %v, want empty", m)
		}
	})
}

func TestModelsErrors(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	tests := []struct {
		name      string
		kind      catalog.Kind
		make      string
		wantCode  string
		wantParam string
	}{
		{"no make", catalog.KindCar, "", vehicle.CodeMissingParameter, "make"},
		{"blank make", catalog.KindMotorcycle, "   ", vehicle.CodeMissingParameter, "make"},
		{"unknown kind", "plane", "Boeing", vehicle.CodeInvalidParameter, "type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := svc.Models(tt.kind, tt.make)
			wantError(t, err, tt.wantCode, tt.wantParam)
		})
	}
	t.Run("unknown make is an empty list", func(t *testing.T) {
		models, err := svc.Models(catalog.KindCar, "Trabant")
		if err != nil || models == nil || len(models) != 0 {
			t.Errorf("Models(Trabant) = %v, %v; want empty, nil", models, err)
		}
	})
}

func TestTypeCounts(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	t.Run("body types", func(t *testing.T) {
		counts := map[string]int{}
		for _, car := range c.Cars {
			counts[car.Body]++
		}
		got := svc.BodyTypes()
		checkNameCounts(t, got, catalog.Bodies, counts)
	})
	t.Run("hull types", func(t *testing.T) {
		counts := map[string]int{}
		for _, b := range c.Boats {
			counts[b.HullType]++
		}
		checkNameCounts(t, svc.HullTypes(), catalog.HullTypes, counts)
	})
	t.Run("motorcycle types", func(t *testing.T) {
		counts := map[string]int{}
		for _, m := range c.Motorcycles {
			counts[m.MotorcycleType]++
		}
		got := svc.MotorcycleTypes()
		if len(got) != len(catalog.MotorcycleTypes) {
			t.Fatalf("%d motorcycle types, want all %d", len(got), len(catalog.MotorcycleTypes))
		}
		for i, tc := range got {
			want := catalog.MotorcycleTypes[i]
			if tc.Name != want || tc.VehicleType != catalog.ClassOf(want) || tc.Count != counts[want] {
				t.Errorf("type %d = %+v, want %s (%s) with %d", i, tc, want, catalog.ClassOf(want), counts[want])
			}
		}
	})
	t.Run("zero counts are listed", func(t *testing.T) {
		svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: synthCars(3, 1)}, catalog.Version{}))
		types := svc.MotorcycleTypes()
		if n := len(types); n != len(catalog.MotorcycleTypes) || types[0].Count != 0 || types[n-1].Name != catalog.MotorcycleTypes[n-1] {
			t.Errorf("MotorcycleTypes on a catalog without motorcycles = %+v", types)
		}
		if hulls := svc.HullTypes(); len(hulls) != len(catalog.HullTypes) || hulls[0].Count != 0 {
			t.Errorf("HullTypes on a catalog without boats = %+v", hulls)
		}
	})
}

func checkNameCounts(t *testing.T, got []vehicle.NameCount, known []string, counts map[string]int) {
	t.Helper()
	if len(got) < len(known) {
		t.Fatalf("%d entries, want at least the %d known", len(got), len(known))
	}
	total, want := 0, 0
	for i, nc := range got {
		if i < len(known) && nc.Name != known[i] {
			t.Errorf("entry %d is %s, want %s", i, nc.Name, known[i])
		}
		if nc.Count != counts[nc.Name] {
			t.Errorf("%s count %d, want %d", nc.Name, nc.Count, counts[nc.Name])
		}
		total += nc.Count
	}
	for _, n := range counts {
		want += n
	}
	if total != want {
		t.Errorf("counts sum to %d, want %d", total, want)
	}
}

func TestModelYears(t *testing.T) {
	t.Parallel()
	c := demo(t)
	svc := demoService(t)
	for _, kind := range catalog.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			// Count the records per lowercase make, model and year.
			want := map[[2]string]map[int]int{}
			for _, r := range allRecs(c, kind) {
				key := [2]string{strings.ToLower(r.make), strings.ToLower(r.model)}
				if want[key] == nil {
					want[key] = map[int]int{}
				}
				want[key][r.year]++
			}
			for key, years := range want {
				// Ask in upper case with spaces around, as a form may send it.
				got := svc.ModelYears(kind, " "+strings.ToUpper(key[0]), strings.ToUpper(key[1])+" ")
				if len(got) != len(years) {
					t.Fatalf("%s %s: %d years %v, want %d", key[0], key[1], len(got), got, len(years))
				}
				for i, yc := range got {
					if yc.Count != years[yc.Year] {
						t.Errorf("%s %s %d: count %d, want %d", key[0], key[1], yc.Year, yc.Count, years[yc.Year])
					}
					if i > 0 && got[i-1].Year <= yc.Year {
						t.Errorf("%s %s: years not newest first: %v", key[0], key[1], got)
					}
				}
			}
		})
	}
	for _, tc := range []struct {
		kind      catalog.Kind
		mk, model string
	}{
		{catalog.KindCar, "Toyota", "No Such Model"},
		{catalog.KindCar, "No Such Make", "Camry"},
		{"plane", "Toyota", "Camry"},
	} {
		if got := svc.ModelYears(tc.kind, tc.mk, tc.model); got == nil || len(got) != 0 {
			t.Errorf("ModelYears(%s, %q, %q) = %v, want empty", tc.kind, tc.mk, tc.model, got)
		}
	}
}

// The taxonomies' answers, encoded at build time, are what encoding Makes
// and Models in the envelope gives, for every kind and make; an unknown
// make is [].
func TestTaxonomyJSON(t *testing.T) {
	t.Parallel()
	svc := demoService(t)
	body := func(v any) string {
		raw, _ := json.Marshal(v)
		return `{"data":` + string(raw) + "}\n"
	}
	check := func(what string, a vehicle.Answer, want string) {
		t.Helper()
		if string(a.Body) != want {
			t.Errorf("%s: body %s, want %s", what, a.Body, want)
		}
	}
	for _, kind := range catalog.Kinds {
		makes := svc.Makes(kind)
		if len(makes) == 0 {
			t.Errorf("%s: no makes", kind)
		}
		check(string(kind)+" makes", svc.MakesBody(kind), body(makes))
		for _, mk := range append(makes, vehicle.MakeCount{Name: "Nobody"}) {
			models, err := svc.Models(kind, strings.ToUpper(mk.Name))
			a, aErr := svc.ModelsBody(kind, strings.ToUpper(mk.Name))
			if err != nil || aErr != nil {
				t.Fatalf("%s models of %s: %v, %v", kind, mk.Name, err, aErr)
			}
			check(string(kind)+" models of "+mk.Name, a, body(models))
		}
		if _, err := svc.ModelsBody(kind, " "); vehicle.CodeOf(err) != vehicle.CodeMissingParameter {
			t.Errorf("%s models of no make: %v", kind, err)
		}
	}
}

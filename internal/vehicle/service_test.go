package vehicle_test

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// renamed returns cars with every make replaced, so two snapshots can be
// told apart by which make they answer for.
func renamed(cars []catalog.Car, mk string) []catalog.Car {
	out := make([]catalog.Car, len(cars))
	for i, c := range cars {
		c.Make = mk
		c.Normalize()
		out[i] = c
	}
	return out
}

func TestSwap(t *testing.T) {
	t.Parallel()
	alpha := renamed(synthCars(30, 1), "Alpha")
	beta := renamed(synthCars(45, 1), "Beta")
	a := snapshot(t, &catalog.Catalog{Cars: alpha}, catalog.Version{Number: 1})
	b := snapshot(t, &catalog.Catalog{Cars: beta}, catalog.Version{Number: 2})
	svc := vehicle.NewService(a)

	total := func(mk string) int {
		t.Helper()
		res, err := find(svc, catalog.KindCar, []string{"make", mk})
		if err != nil {
			t.Fatal(err)
		}
		return res.Meta.Total
	}
	steps := []struct {
		name                string
		swap                *vehicle.Snapshot
		wantVersion         int64
		wantAlpha, wantBeta int
	}{
		{"before swap", nil, 1, 30, 0},
		{"after swap", b, 2, 0, 45},
		{"nil swap is ignored", nil, 2, 0, 45},
		{"swap back", a, 1, 30, 0},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if st.name != "before swap" {
				svc.Swap(st.swap)
			}
			if v := svc.Snapshot().Version(); v.Number != st.wantVersion || v.Counts.Cars != st.wantAlpha+st.wantBeta {
				t.Errorf("version %+v, want number %d", v, st.wantVersion)
			}
			if got := total("Alpha"); got != st.wantAlpha {
				t.Errorf("Alpha total %d, want %d", got, st.wantAlpha)
			}
			if got := total("beta"); got != st.wantBeta {
				t.Errorf("Beta total %d, want %d", got, st.wantBeta)
			}
			if _, err := svc.Car(beta[0].UUID); (err == nil) != (st.wantBeta > 0) {
				t.Errorf("Car(beta) err = %v", err)
			}
		})
	}
}

func TestNewServiceNil(t *testing.T) {
	t.Parallel()
	svc := vehicle.NewService(nil)
	for _, kind := range catalog.Kinds {
		res, err := find(svc, kind, []string{"make", "Any"})
		if err != nil || res.Meta.Total != 0 || res.Records() == nil {
			t.Errorf("%s: %+v, %v; want an empty page", kind, res, err)
		}
	}
	if v := svc.Snapshot().Version(); v.Counts != (catalog.Counts{}) {
		t.Errorf("empty service version %+v", v)
	}
}

func TestSnapshotDoesNotReorderInput(t *testing.T) {
	t.Parallel()
	cars := synthCars(50, 5)
	first := cars[0].UUID
	last := cars[len(cars)-1].UUID
	snapshot(t, &catalog.Catalog{Cars: cars}, catalog.Version{})
	if cars[0].UUID != first || cars[len(cars)-1].UUID != last {
		t.Error("NewSnapshot reordered the caller's slice")
	}
}

// TestOwningSnapshotAnswersAlike builds the demo's snapshot from a copy it
// hands over, whose records it reorders in place, and from the shared
// catalog: every kind's records come out in the same order, as the same JSON.
func TestOwningSnapshotAnswersAlike(t *testing.T) {
	t.Parallel()
	d := demo(t)
	handed := &catalog.Catalog{Cars: slices.Clone(d.Cars), Motorcycles: slices.Clone(d.Motorcycles),
		Boats: slices.Clone(d.Boats), TireSizes: slices.Clone(d.TireSizes)}
	// Reversed, so the in-place sort has every record to move.
	slices.Reverse(handed.Cars)
	slices.Reverse(handed.TireSizes)
	owned, err := vehicle.NewSnapshotOwning(handed, catalog.Version{})
	if err != nil {
		t.Fatal(err)
	}
	copied, owning := vehicle.NewService(snapshot(t, d, catalog.Version{})), vehicle.NewService(owned)
	for _, kind := range catalog.Kinds {
		want, got := allJSON(t, copied, kind), allJSON(t, owning, kind)
		if len(want) == 0 || !slices.Equal(want, got) {
			t.Errorf("%s: %d records handed over differ from %d copied", kind, len(got), len(want))
		}
	}
}

// allJSON pages through one make at a time (pages reach 400 records), so
// every record of kind is listed.
func allJSON(t *testing.T, svc *vehicle.Service, kind catalog.Kind) []string {
	t.Helper()
	var out []string
	for _, m := range svc.Makes(kind) {
		for page := 1; ; page++ {
			p, err := find(svc, kind, []string{"make", m.Name, "per_page", "10", "page", strconv.Itoa(page)})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range p.Raw {
				out = append(out, string(r))
			}
			if page >= p.Meta.MaxPage {
				break
			}
		}
	}
	return out
}

// TestConcurrentSwap runs searches while snapshots are swapped; under -race
// it proves the hand-over is safe, and each answer must come from exactly
// one of the two snapshots.
func TestConcurrentSwap(t *testing.T) {
	t.Parallel()
	a := snapshot(t, &catalog.Catalog{Cars: renamed(synthCars(30, 1), "Shared")}, catalog.Version{Number: 1})
	b := snapshot(t, &catalog.Catalog{Cars: renamed(synthCars(45, 1), "Shared")}, catalog.Version{Number: 2})
	svc := vehicle.NewService(a)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%2 == 0 {
				svc.Swap(b)
			} else {
				svc.Swap(a)
			}
		}
	})
	errs := make(chan string, 8)
	var readers sync.WaitGroup
	for range 8 {
		readers.Go(func() {
			for range 300 {
				res, err := find(svc, catalog.KindCar, []string{"make", "shared", "page", "4"})
				if err != nil {
					errs <- err.Error()
					return
				}
				n := len(res.Records().([]catalog.Car))
				// 30 records leave page 4 empty; 45 leave 10 on it.
				if !(res.Meta.Total == 30 && n == 0 || res.Meta.Total == 45 && n == 10) {
					errs <- "inconsistent page"
					return
				}
			}
		})
	}
	readers.Wait()
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestNewSnapshotNamesAnUnencodableRecord: a record JSON cannot carry (a
// NaN or infinite number written past validation) used to panic every
// server that loaded it; it is an error naming the record.
func TestNewSnapshotNamesAnUnencodableRecord(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	car := synthCars(3, 1)
	car[1].DisplacementL = catalog.Some(nan)
	moto := catalog.Motorcycle{UUID: uuid.New(), Make: "Honda", Model: "Grom", Year: 2023, MotorcycleType: "Scooter", PowerHP: &nan}
	boat := catalog.Boat{UUID: uuid.New(), Make: "Lund", Model: "Rebel", Year: 2022, LengthFt: inf, BeamFt: 7}
	// The last of many cars is encoded in the build's last batch.
	many := synthCars(20_000, 3)
	last := &many[len(many)-1]
	last.Make, last.DisplacementL = "Zil", catalog.Some(nan)
	tests := []struct {
		name string
		c    *catalog.Catalog
		want string
	}{
		{"car", &catalog.Catalog{Cars: car}, fmt.Sprintf("catalog version 7: car %s (%s %s %d): json: unsupported value: NaN",
			car[1].UUID, car[1].Make, car[1].Model, car[1].Year)},
		{"car of many", &catalog.Catalog{Cars: many}, fmt.Sprintf("car %s (Zil %s %d): json: unsupported value: NaN", last.UUID, last.Model, last.Year)},
		{"motorcycle", &catalog.Catalog{Motorcycles: []catalog.Motorcycle{moto}}, fmt.Sprintf("motorcycle %s (Honda Grom 2023): json: unsupported value: NaN", moto.UUID)},
		{"boat", &catalog.Catalog{Boats: []catalog.Boat{boat}}, fmt.Sprintf("boat %s (Lund Rebel 2022): json: unsupported value: +Inf", boat.UUID)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := vehicle.NewSnapshot(tc.c, catalog.Version{Number: 7})
			if err == nil || !strings.Contains(err.Error(), tc.want) || s != nil {
				t.Fatalf("NewSnapshot = %v, %v; want nil and an error containing %q", s, err, tc.want)
			}
		})
	}
}

// TestCarFiguresChecked: a car is checked for what JSON cannot carry by
// its decimal figures alone, not encoded whole, so each figure must be
// checked and a car must hold nothing else that JSON could refuse.
func TestCarFiguresChecked(t *testing.T) {
	t.Parallel()
	for _, f := range reflect.VisibleFields(reflect.TypeFor[catalog.Car]()) {
		switch f.Type {
		case reflect.TypeFor[catalog.Opt[float64]]():
			cars := synthCars(2, 1)
			reflect.ValueOf(&cars[1]).Elem().FieldByIndex(f.Index).Set(reflect.ValueOf(catalog.Some(math.Inf(-1))))
			want := fmt.Sprintf("car %s (%s %s %d): json: unsupported value: -Inf", cars[1].UUID, cars[1].Make, cars[1].Model, cars[1].Year)
			if _, err := vehicle.NewSnapshot(&catalog.Catalog{Cars: cars}, catalog.Version{}); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s = -Inf: NewSnapshot gave %v, want an error containing %q", f.Name, err, want)
			}
		case reflect.TypeFor[catalog.FuelEconomy](), reflect.TypeFor[uuid.UUID](), reflect.TypeFor[string](),
			reflect.TypeFor[int](), reflect.TypeFor[bool](), reflect.TypeFor[catalog.Opt[int]]():
		default:
			t.Errorf("catalog.Car.%s is a %s: check it in carFiguresEncodable if JSON can refuse it, then list its type here", f.Name, f.Type)
		}
	}
}

// TestSnapshotOfManyCars: a catalog of many build batches, its halves
// sorted apart and merged, finds every record and orders as the oracle.
func TestSnapshotOfManyCars(t *testing.T) {
	t.Parallel()
	cars := synthCars(20_000, 9)
	svc := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: slices.Clone(cars)}, catalog.Version{}))
	for i := 0; i < len(cars); i += 997 {
		got, err := svc.Get(catalog.KindCar, cars[i].UUID)
		if c, ok := got.(catalog.Car); err != nil || !ok || carRec(c) != carRec(cars[i]) {
			t.Errorf("Get(%s) = %v, %v; want %v", cars[i].UUID, got, err, carRec(cars[i]))
		}
	}
	checkSearch(t, svc, catalog.KindCar, []string{"make", "Make04", "model", "Model-3"},
		filterRecs(cars, carRec, func(c catalog.Car) bool { return c.Make == "Make04" && c.Model == "Model-3" }))
}

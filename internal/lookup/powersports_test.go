package lookup_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/bench/vins"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

var (
	psOnce sync.Once
	psPath string
	psSnap *vpic.Snapshot
	psErr  error
)

// powersportsSnapshot is the vPIC snapshot cut (vpictest.Cut) to Harley-Davidson's and
// Polaris's motorcycle WMIs, Arctic Cat's and Yamaha's off-road ones and
// two LSV makers' (one a 6-character WMI), opened once per test binary:
// under the race detector an open takes seconds.
func powersportsSnapshot(t *testing.T) (string, *vpic.Snapshot) {
	t.Helper()
	psOnce.Do(func() {
		psPath = vpictest.Cut(t, "1HD", "4XA", "4UF", "JYE", "5YN", "1G9543")
		psSnap, psErr = vpic.Open(context.Background(), psPath)
	})
	if psErr != nil {
		t.Fatal(psErr)
	}
	return psPath, psSnap
}

// Motorcycle, off-road and LSV VINs built from vPIC's own patterns and
// decoded offline link to the catalog vds builds from the same snapshot:
// at least 95% of those decoded to a make, model and year link to a record
// of exactly that make, model and year (docs/data.md, VIN links).
func TestPowersportsVINLinkRate(t *testing.T) {
	t.Parallel()
	path, off := powersportsSnapshot(t)
	motos, _ := off.Motorcycles()
	byID := map[uuid.UUID]*catalog.Motorcycle{}
	for i := range motos {
		byID[motos[i].UUID] = &motos[i]
	}
	snap, err := vehicle.NewSnapshot(&catalog.Catalog{Motorcycles: motos}, catalog.Version{})
	if err != nil {
		t.Fatal(err)
	}
	l := lookup.New(vehicle.NewService(snap), nil, "offline", "")
	l.SetOffline(off)
	set, err := vins.Powersports(context.Background(), path, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	var decoded, linked int
	types := map[string]int{}
	lost := map[string]int{}
	for _, v := range set {
		r, _, err := l.DecodeVIN(t.Context(), v)
		if err != nil || r.Make == nil || r.Model == nil || r.Year == nil {
			continue
		}
		decoded++
		same := slices.ContainsFunc(r.Links.Motorcycles, func(id uuid.UUID) bool {
			m := byID[id]
			return strings.EqualFold(m.Make, *r.Make) && strings.EqualFold(m.Model, *r.Model) && m.Year == *r.Year
		})
		if !same {
			lost[fmt.Sprintf("%s|%s|%d", *r.Make, *r.Model, *r.Year)]++
			continue
		}
		linked++
		types[byID[r.Links.Motorcycles[0]].VehicleType]++
	}
	rate := 100 * float64(linked) / float64(decoded)
	t.Logf("%d of %d decoded VINs link to a record of their make, model and year (%.1f%%), by class %v; lost %v",
		linked, decoded, rate, types, lost)
	if decoded < 1500 || rate < 95 {
		t.Errorf("%d of %d decoded VINs link (%.1f%%), want at least 95%% of at least 1,500", linked, decoded, rate)
	}
	for _, class := range []string{catalog.ClassMotorcycle, catalog.ClassATVUTV, catalog.ClassSnowmobile, catalog.ClassGolfLSV} {
		if types[class] == 0 {
			t.Errorf("no linked VIN of class %s: the set no longer covers it", class)
		}
	}
}

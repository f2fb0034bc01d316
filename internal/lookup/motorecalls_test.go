package lookup_test

import (
	"log/slog"
	"net/url"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/bench/vins"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vehicle"
)

// A motorcycle record named as vPIC names it (here, by vPIC's own decode
// of a Harley-Davidson VIN) asks NHTSA for its recalls by exactly that
// make, model and year: no name mapping between them. The fake NHTSA
// answers with a captured recall shape, which the answer carries.
func TestMotorcycleRecallsUseVPICNames(t *testing.T) {
	t.Parallel()
	_, off := powersportsSnapshot(t)
	res, err := off.Decode(vins.WithCheckDigit("1HD1KRC10KB000001"))
	if err != nil || res.Make == nil || res.Model == nil || res.ModelYear == nil {
		t.Fatalf("decode: %+v, %v", res, err)
	}
	m := catalog.Motorcycle{Make: *res.Make, Model: *res.Model, Year: *res.ModelYear, MotorcycleType: "Street Motorcycle", VehicleType: "Motorcycle"}
	if errs := m.Normalize(); errs != nil {
		t.Fatal(errs)
	}
	snap, err := vehicle.NewSnapshot(&catalog.Catalog{Motorcycles: []catalog.Motorcycle{m}}, catalog.Version{})
	if err != nil {
		t.Fatal(err)
	}
	fake := upstreamtest.New(t)
	up := upstream.New(upstream.Config{VPICURL: fake.URL, NHTSAURL: fake.URL, Timeout: time.Second}, nil, slog.New(slog.DiscardHandler))
	got, _, err := lookup.New(vehicle.NewService(snap), up, "auto", "online").MotorcycleRecalls(t.Context(), m.UUID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Recalls) == 0 || got.Motorcycle.Model != *res.Model {
		t.Errorf("recalls of %s %s %d: %+v", m.Make, m.Model, m.Year, got)
	}
	want := url.Values{"make": {"Harley-Davidson"}, "model": {"Street Glide Special"}, "modelYear": {"2019"}}
	if q := fake.RecallQueries(); len(q) != 1 || q[0].Encode() != want.Encode() {
		t.Errorf("NHTSA was asked %v, want %v", q, want)
	}
}

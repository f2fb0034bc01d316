package dashboard_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/nhtsafile"
	"github.com/vds-dev/vds/internal/nhtsafile/nhtsafiletest"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vehicle"
)

var (
	tagRE   = regexp.MustCompile(`<[^>]*>`)
	snakeRE = regexp.MustCompile(`\b[a-z0-9]+_[a-z0-9_]+\b`)
)

// visibleText is the text a reader sees in a page's <main>.
func visibleText(body string) string {
	return html.UnescapeString(tagRE.ReplaceAllString(mainOf(body), " "))
}

// TestRecordPageLabels renders a record of each kind and checks that its
// fields read as labels with units, each next to its value, and that no
// JSON field name shows.
func TestRecordPageLabels(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b := newBrowser(t, e.start())
	b.signUp("labels@example.com", password)

	var phev, bev catalog.Car
	for _, c := range e.cat.Cars {
		switch {
		case phev.Make == "" && c.EPAElectricRangeMiles.Valid && c.MPGCity.Valid && c.FuelType == catalog.FuelPHEV:
			phev = c
		case bev.Make == "" && c.MPGCombined.Valid && c.FuelType == catalog.FuelBEV:
			bev = c
		}
	}
	if phev.Make == "" || bev.Make == "" {
		t.Fatalf("the demo catalog lacks a plug-in hybrid with an electric range (%q) or an EPA-rated electric car (%q)", phev.Model, bev.Model)
	}
	moto, boat, fit := e.cat.Motorcycles[0], e.cat.Boats[0], e.cat.TireSizes[0]
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	for _, tc := range []struct {
		kind catalog.Kind
		uuid string
		// pairs are label and value, as the page shows them.
		pairs [][2]string
	}{
		{catalog.KindCar, phev.UUID.String(), [][2]string{
			{"Model year", strconv.Itoa(phev.Year)},
			{"Fuel type", phev.FuelType},
			{"Engine displacement (L)", num(phev.DisplacementL.V)},
			{"City MPG", num(phev.MPGCity.V)},
			{"Electric range (mi)", strconv.Itoa(phev.EPAElectricRangeMiles.V)},
			{"Electrified", "yes"},
		}},
		{catalog.KindCar, bev.UUID.String(), [][2]string{
			{"Fuel type", catalog.FuelBEV},
			{"Combined MPGe", num(bev.MPGCombined.V)},
		}},
		{catalog.KindMotorcycle, moto.UUID.String(), [][2]string{
			{"Make", moto.Make},
			{"Engine displacement (cc)", strconv.Itoa(*moto.DisplacementCC)},
			{"Power (hp)", num(*moto.PowerHP)},
		}},
		{catalog.KindBoat, boat.UUID.String(), [][2]string{
			{"Length (ft)", num(boat.LengthFt)},
			{"Dry weight (lb)", strconv.Itoa(boat.DryWeightLbs)},
			{"Hull material", boat.HullType},
		}},
		{catalog.KindTireSize, fit.UUID.String(), [][2]string{
			{"OEM tire size", fit.TireSize},
			{"Alternate sizes", strings.Join(fit.AlternateSizes, ", ")},
		}},
	} {
		t.Run(string(tc.kind)+"/"+tc.uuid[:8], func(t *testing.T) {
			p := b.get("/dashboard/records/"+string(tc.kind)+"/"+tc.uuid).want(t, http.StatusOK, "")
			for _, pair := range tc.pairs {
				p.contains(t, fmt.Sprintf("<dt>%s</dt><dd>%s</dd>", html.EscapeString(pair[0]), html.EscapeString(pair[1])))
			}
			if keys := snakeRE.FindAllString(visibleText(p.body), -1); keys != nil {
				t.Errorf("the page shows JSON names %q", keys)
			}
		})
	}
}

// A car's page shows its owners' complaints from the imported complaint
// file: totals, the components most complained of and the newest ones.
func TestRecordPageComplaints(t *testing.T) {
	t.Parallel()
	st, c := storetest.DemoSQLite(t, false)
	file := nhtsafiletest.ComplaintsFile(t, t.TempDir(), upstreamtest.ComplaintYears)
	if _, err := nhtsafile.Import(context.Background(), st, []string{file}, nhtsafile.Options{Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	e := newEnvFrom(t, st, c, nil)
	b := newBrowser(t, e.start())
	b.signUp("complaints@example.com", password)
	var jeep catalog.Car
	for _, car := range c.Cars {
		if car.Make == "Jeep" && car.Model == "Wrangler" && car.Year == 2020 {
			jeep = car
		}
	}
	ix, err := nhtsafile.LoadComplaints(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := vehicle.NewSnapshot(c, catalog.Version{})
	if err != nil {
		t.Fatal(err)
	}
	lk := lookup.New(vehicle.NewService(snap), nil, "", "auto")
	lk.SetComplaintIndex(ix)
	want, _, err := lk.CarComplaints(context.Background(), jeep.UUID, lookup.ComplaintPage{Page: 1, PerPage: 5})
	if err != nil || want.Totals.Complaints == 0 {
		t.Fatalf("the 2020 Wrangler's complaints: %+v, %v", want.Totals, err)
	}
	p := b.get("/dashboard/records/car/"+jeep.UUID.String()).want(t, http.StatusOK, "")
	p.contains(t, "complaints to NHTSA</h2>")
	for _, pair := range [][2]string{{"Complaints", strconv.Itoa(want.Totals.Complaints)}, {"Crashes", strconv.Itoa(want.Totals.Crashes)},
		{"Persons injured", strconv.Itoa(want.Totals.Injuries)}} {
		p.contains(t, fmt.Sprintf("<dt>%s</dt><dd>%s</dd>", pair[0], pair[1]))
	}
	p.contains(t, fmt.Sprintf("<td>%s</td><td>%d</td>", html.EscapeString(want.ByComponent[0].Component), want.ByComponent[0].Complaints))
	p.contains(t, fmt.Sprintf("<strong>%d</strong> received %s", want.Complaints[0].ODINumber, *want.Complaints[0].ReceivedDate))
	if n := strings.Count(p.body, "<li><strong>"); n != 5 {
		t.Errorf("%d complaints listed, want the first 5", n)
	}
	// A motorcycle the file does not name has none; a boat has no section.
	b.get("/dashboard/records/motorcycle/"+c.Motorcycles[0].UUID.String()).want(t, http.StatusOK, "").contains(t, "No complaints on record")
	if p := b.get("/dashboard/records/boat/"+c.Boats[0].UUID.String()).want(t, http.StatusOK, ""); strings.Contains(p.body, "complaints-h") {
		t.Error("a boat's page has a complaints section")
	}
}

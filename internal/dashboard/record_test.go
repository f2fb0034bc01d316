package dashboard_test

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
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
		case phev.Make == "" && c.EPAElectricRangeMiles != nil && c.MPGCity != nil && c.FuelType == catalog.FuelPHEV:
			phev = c
		case bev.Make == "" && c.MPGCombined != nil && c.FuelType == catalog.FuelBEV:
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
			{"Engine displacement (L)", num(*phev.DisplacementL)},
			{"City MPG", num(*phev.MPGCity)},
			{"Electric range (mi)", strconv.Itoa(*phev.EPAElectricRangeMiles)},
			{"Electrified", "yes"},
		}},
		{catalog.KindCar, bev.UUID.String(), [][2]string{
			{"Fuel type", catalog.FuelBEV},
			{"Combined MPGe", num(*bev.MPGCombined)},
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

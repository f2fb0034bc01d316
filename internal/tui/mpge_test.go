package tui

import (
	"testing"

	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/catalog"
)

// An electric car's record view labels its EPA figures MPGe; a plug-in
// hybrid's stay MPG (its gasoline figures).
func TestRecordViewMPGe(t *testing.T) {
	t.Parallel()
	for fuel, want := range map[string][3]string{
		catalog.FuelBEV:  {"City MPGe", "Highway MPGe", "Combined MPGe"},
		catalog.FuelPHEV: {"City MPG", "Highway MPG", "Combined MPG"},
	} {
		c := camry(1)
		c.FuelType = fuel
		got := map[string]string{}
		for _, f := range (record{kind: client.KindCar, car: &c}).fields() {
			got[f.label] = f.value
		}
		for i, l := range want {
			if v := []string{"28", "39", "32"}[i]; got[l] != v {
				t.Errorf("%s: %q = %q, want %q (labels %v)", fuel, l, got[l], v, got)
			}
		}
	}
}

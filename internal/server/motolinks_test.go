package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/bench/vins"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
)

// Motorcycle VINs decoded offline link to the demo's motorcycles of their
// make, model and year on both stores (a Harley-Davidson Breakout 114 by
// name, a Polaris RZR to the demo's RZR families of that year), and a
// car's VIN links to none.
func TestVINLinksMotorcycles(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			st, _ := storetest.Demo(t, backend)
			h, token := offlineServerOn(t, st, "offline", 100, "1FT", "1HD", "3NS")
			harley, polaris := vins.WithCheckDigit("1HD1YTK10MB000001"), vins.WithCheckDigit("3NSRAB920LE000001")
			var body struct {
				Data []struct {
					vinReport
					Links struct{ Cars, Motorcycles []string }
				}
			}
			path := "/v1/vins?" + url.Values{"vin": {harley, polaris, upstreamtest.KnownVIN}}.Encode()
			if w := get(t, h, token, path, &body); w.Code != http.StatusOK || len(body.Data) != 3 {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			for i, want := range []struct {
				mk, model string
				year      int
				models    []string
			}{
				{"Harley-Davidson", "Breakout 114", 2021, []string{"Breakout 114"}},
				{"Polaris", "RZR", 2020, []string{"RZR Pro XP", "RZR XP Turbo S"}},
			} {
				d := body.Data[i]
				if d.Make != want.mk || d.Model != want.model || d.Year != want.year {
					t.Fatalf("%s decodes to %s %s %d, want %s %s %d", d.VIN, d.Make, d.Model, d.Year, want.mk, want.model, want.year)
				}
				if len(d.Links.Motorcycles) != len(want.models) || len(d.Links.Cars) != 0 {
					t.Fatalf("%s links %v", d.VIN, d.Links)
				}
				for j, id := range d.Links.Motorcycles {
					var rec struct{ Data vinReport }
					if w := get(t, h, token, "/v1/motorcycles/"+id, &rec); w.Code != http.StatusOK {
						t.Fatalf("%s: status %d: %s", id, w.Code, w.Body)
					}
					if m := rec.Data; m.Make != want.mk || m.Year != want.year || m.Model != want.models[j] || !strings.HasPrefix(m.Model, want.model) {
						t.Errorf("%s links %s %s %d, want %s %s", d.VIN, m.Make, m.Model, m.Year, want.mk, want.models[j])
					}
				}
			}
			if ford := body.Data[2]; ford.Model != "F-150" || len(ford.Links.Motorcycles) != 0 || len(ford.Links.Cars) == 0 {
				t.Errorf("the car's VIN %s (%s) links %+v", ford.VIN, ford.Model, ford.Links)
			}
		})
	}
}

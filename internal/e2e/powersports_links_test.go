package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/bench/vins"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// TestPowersportsVINLinks: with NHTSA unreachable, a server holding the
// vPIC snapshot and the catalog ingest --source vpic built from it decodes
// motorcycle, off-road and LSV VINs made from the snapshot's patterns
// through /v1/vins, and their links.motorcycles lead to records of the
// decoded make, model and year.
func TestPowersportsVINLinks(t *testing.T) {
	t.Parallel()
	file := vpictest.Cut(t, "1HD", "4XA", "4UF", "JYE", "5YN", "1G9543")
	set, err := vins.Powersports(t.Context(), file, 50, 7)
	if err != nil {
		t.Fatal(err)
	}
	backends(t, func(t *testing.T, e *env) {
		e.writeConfig("upstream:\n  vpic_url: http://127.0.0.1:1\n  nhtsa_url: http://127.0.0.1:1\n")
		e.ingest()
		e.vds("vpic", "import", file)
		e.ingest("--source", "vpic")
		_, tok := e.newToken("moto@example.com", "developer")
		in := e.serve()
		var batch struct {
			Data []struct {
				VIN, Make, Model string
				Year             int
				Links            struct{ Motorcycles []string }
			}
		}
		in.getJSON(tok, "/v1/vins?"+url.Values{"vin": set}.Encode(), http.StatusOK, &batch)
		decoded, linked := 0, 0
		for _, d := range batch.Data {
			if d.Make == "" || d.Model == "" {
				continue
			}
			decoded++
			for _, id := range d.Links.Motorcycles {
				var rec struct {
					Data struct {
						Make, Model string
						Year        int
					}
				}
				in.getJSON(tok, "/v1/motorcycles/"+id, http.StatusOK, &rec)
				if m := rec.Data; strings.EqualFold(m.Make, d.Make) && strings.EqualFold(m.Model, d.Model) && m.Year == d.Year {
					linked++
					break
				}
			}
		}
		if decoded < 40 || linked*100 < decoded*95 {
			t.Errorf("%d of %d decoded VINs link to a record of their make, model and year, want at least 95%% of at least 40", linked, decoded)
		}
	})
}

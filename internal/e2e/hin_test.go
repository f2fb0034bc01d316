package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHINDecodeAndImport, on both stores: a first start decodes HINs with
// the built-in MIC list; vds hin import replaces it (the running server
// follows); the batch charges each decoded HIN, and an invalid HIN is a
// 400 naming position and rule that costs nothing.
func TestHINDecodeAndImport(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, e *env) {
		e.vds("ingest")
		_, tok := e.newToken("boats@example.com", "developer")
		in := e.serve()

		type report struct {
			HIN          string
			Manufacturer *struct{ Company string }
			ModelYear    *int `json:"model_year"`
			Links        struct{ Boats []string }
			Source       string
			Error        *struct {
				Code     string
				Position int
			}
		}
		var one struct{ Data report }
		in.getJSON(tok, "/v1/hin/SER12345A919", http.StatusOK, &one)
		if one.Data.Manufacturer == nil || one.Data.Manufacturer.Company != "SEA RAY BOATS" || *one.Data.ModelYear != 2019 ||
			len(one.Data.Links.Boats) == 0 || !strings.Contains(one.Data.Source, "embedded") {
			t.Fatalf("first start: %+v", one.Data)
		}

		var bad struct {
			Code, Rule string
			Position   int
		}
		h := in.getJSON(tok, "/v1/hin/SER1234OA919", http.StatusBadRequest, &bad)
		if bad.Code != "invalid_hin" || bad.Position != 8 || bad.Rule == "" || h.Get("X-Quota-Used") != "1" {
			t.Fatalf("invalid HIN: %+v, quota used %s", bad, h.Get("X-Quota-Used"))
		}

		file := filepath.Join(t.TempDir(), "mics.csv")
		if err := os.WriteFile(file, []byte("mic,company,address,city,state\nSER,SEA RAY (IMPORTED),,KNOXVILLE,TN\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		e.vds("hin", "import", file)
		var batch struct{ Data []report }
		eventually(t, 10*time.Second, "the server follows the import", func() bool {
			in.getJSON(tok, "/v1/hins?hin=SER12345A919&hin=bad&hin=BWC12345L718", http.StatusOK, &batch)
			return batch.Data[0].Manufacturer != nil && batch.Data[0].Manufacturer.Company == "SEA RAY (IMPORTED)"
		})
		d := batch.Data
		if !strings.Contains(d[0].Source, "mics.csv") || d[1].Error == nil || d[1].Error.Code != "invalid_hin" ||
			d[2].Manufacturer != nil || d[2].Error != nil {
			t.Fatalf("batch after the import: %+v", d)
		}
		used := func(h http.Header) int {
			n, err := strconv.Atoi(h.Get("X-Quota-Used"))
			if err != nil {
				t.Fatalf("X-Quota-Used %q", h.Get("X-Quota-Used"))
			}
			return n
		}
		before := used(in.getJSON(tok, "/v1/hins?hin=SER12345A919", http.StatusOK, nil))
		after := used(in.getJSON(tok, "/v1/hins?hin=SER12345A919&hin=bad&hin=BWC12345L718&hin=SER1234OA919", http.StatusOK, nil))
		if after-before != 2 {
			t.Errorf("a batch of 2 valid and 2 invalid HINs cost %d units, want 2", after-before)
		}
	})
}

package e2e

import (
	"encoding/json"
	"testing"

	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

type ingestJSON struct {
	Published bool `json:"published"`
	Version   struct {
		Number int64 `json:"version"`
	} `json:"version"`
	Summary []struct {
		Type                               string
		Added, Changed, Unchanged, Removed int
	} `json:"summary"`
}

func (e *env) ingest(args ...string) ingestJSON {
	e.t.Helper()
	var r ingestJSON
	out := e.vds(append([]string{"ingest", "--json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		e.t.Fatalf("vds ingest %v: %v\n%s", args, err, out)
	}
	return r
}

// TestIngestVPIC: vds ingest --source vpic builds the motorcycles from the
// imported snapshot beside the demo's, shows a dry run, writes nothing the
// second time, reads a snapshot file the same, and with --allow-removals
// leaves vPIC's records alone.
func TestIngestVPIC(t *testing.T) {
	file := vpictest.Subset(t, "1HD", "4XA", "5J5", "4UF", "JYE", "ZAP")
	backends(t, func(t *testing.T, e *env) {
		demo := e.ingest()
		var demoBikes int
		for _, s := range demo.Summary {
			if s.Type == "motorcycle" {
				demoBikes = s.Added
			}
		}
		e.vds("vpic", "import", file)

		dry := e.ingest("--source", "vpic", "--dry-run")
		s := dry.Summary[0]
		if dry.Published || dry.Version.Number != demo.Version.Number || s.Type != "motorcycle" || s.Added < 1000 || s.Removed != 0 ||
			s.Changed+s.Unchanged != demoBikes {
			t.Fatalf("dry run %+v after the demo's %d motorcycles at version %d", dry, demoBikes, demo.Version.Number)
		}
		first := e.ingest("--source", "vpic")
		if !first.Published || first.Version.Number != demo.Version.Number+1 || first.Summary[0] != s {
			t.Fatalf("import %+v, want what the dry run showed (%+v) published", first, s)
		}
		for _, args := range [][]string{{"--source", "vpic"}, {"--source", "vpic", file}} {
			again := e.ingest(args...)
			a := again.Summary[0]
			if again.Published || again.Version.Number != first.Version.Number || a.Added+a.Changed+a.Removed != 0 ||
				a.Unchanged != s.Added+s.Changed+s.Unchanged {
				t.Errorf("ingest %v again: %+v, want nothing written at version %d", args, again, first.Version.Number)
			}
		}
		exact := e.ingest("--source", "vpic", "--allow-removals")
		x := exact.Summary[0]
		if !exact.Published || x.Removed != s.Unchanged || x.Added != 0 || x.Unchanged+x.Changed != s.Added+s.Changed {
			t.Errorf("--allow-removals: %+v, want the %d demo motorcycles vPIC lacks removed", x, s.Unchanged)
		}
	})
}

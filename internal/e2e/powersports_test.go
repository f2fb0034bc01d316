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

// TestIngestVPIC: vds ingest --source vpic builds the motorcycles from a
// snapshot file (Club Car's LSV WMI, to stay quick under the race
// detector) beside the demo's, shows a dry run first, writes nothing when
// the imported snapshot gives the same, and with --allow-removals leaves
// vPIC's records alone.
func TestIngestVPIC(t *testing.T) {
	t.Parallel()
	file := vpictest.Cut(t, "5J5")
	backends(t, func(t *testing.T, e *env) {
		demo := e.ingest()
		var demoBikes int
		for _, s := range demo.Summary {
			if s.Type == "motorcycle" {
				demoBikes = s.Added
			}
		}
		dry := e.ingest("--source", "vpic", file, "--dry-run")
		s := dry.Summary[0]
		if dry.Published || dry.Version.Number != demo.Version.Number || s.Type != "motorcycle" || s.Added == 0 || s.Removed != 0 ||
			s.Changed+s.Unchanged != demoBikes {
			t.Fatalf("dry run %+v after the demo's %d motorcycles at version %d", dry, demoBikes, demo.Version.Number)
		}
		first := e.ingest("--source", "vpic", file)
		if !first.Published || first.Version.Number != demo.Version.Number+1 || first.Summary[0] != s {
			t.Fatalf("import %+v, want what the dry run showed (%+v) published", first, s)
		}
		e.vds("vpic", "import", file)
		again := e.ingest("--source", "vpic")
		if a := again.Summary[0]; again.Published || again.Version.Number != first.Version.Number || a.Added+a.Changed+a.Removed != 0 ||
			a.Unchanged != s.Added+s.Changed+s.Unchanged {
			t.Errorf("ingest from the imported snapshot: %+v, want nothing written at version %d", again, first.Version.Number)
		}
		exact := e.ingest("--source", "vpic", "--allow-removals")
		x := exact.Summary[0]
		if !exact.Published || x.Removed != s.Unchanged || x.Added != 0 || x.Unchanged+x.Changed != s.Added+s.Changed {
			t.Errorf("--allow-removals: %+v, want the %d demo motorcycles vPIC lacks removed", x, s.Unchanged)
		}
	})
}

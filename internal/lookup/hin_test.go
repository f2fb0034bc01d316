package lookup_test

import (
	"context"
	"errors"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/hin/micdata"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
)

type demoLookup struct {
	l     *lookup.Service
	boats []catalog.Boat
}

// demoHINs is a lookup over the demo catalog and the embedded MIC list.
var demoHINs = sync.OnceValues(func() (demoLookup, error) {
	src, err := ingest.DemoSources()
	if err != nil {
		return demoLookup{}, err
	}
	c, _, err := ingest.Parse(src)
	if err != nil {
		return demoLookup{}, err
	}
	snap, err := vehicle.NewSnapshot(c, catalog.Version{})
	if err != nil {
		return demoLookup{}, err
	}
	l := lookup.New(vehicle.NewService(snap), nil, "offline", "")
	l.SetMICs(micdata.Decoder(), micdata.Source)
	return demoLookup{l, c.Boats}, nil
})

func demoHINService(t *testing.T) (*lookup.Service, []catalog.Boat) {
	t.Helper()
	d, err := demoHINs()
	if err != nil {
		t.Fatal(err)
	}
	return d.l, d.boats
}

// TestHINLinksReachDemoMakes holds the MIC-to-make mapping: every demo
// boat make but the six no Coast Guard code names is reached, each by a
// HIN of a real MIC that links to its boats of that model year.
func TestHINLinksReachDemoMakes(t *testing.T) {
	t.Parallel()
	l, boats := demoHINService(t)
	byMake := map[string][]catalog.Boat{}
	for _, b := range boats {
		byMake[b.Make] = append(byMake[b.Make], b)
	}
	reached := map[string]bool{}
	for _, mic := range lookup.HINMICs() {
		// A HIN of the MIC for each model year the demo has.
		for year := 2012; year <= 2025; year++ {
			h := mic + "12345" + "C" + string(rune('0'+year%10)) + string(rune('0'+year%100/10)) + string(rune('0'+year%10))
			r, err := l.DecodeHIN(h)
			if err != nil {
				t.Fatalf("DecodeHIN(%q): %v", h, err)
			}
			if r.Manufacturer == nil {
				t.Errorf("%s is not in the Coast Guard's list", mic)
			}
			if len(r.Links.Makes) == 0 {
				t.Errorf("%s links to no demo make", mic)
			}
			for _, mk := range r.Links.Makes {
				reached[mk] = true
				for _, b := range byMake[mk] {
					if b.Year == year && !slices.Contains(r.Links.Boats, b.UUID) {
						t.Errorf("%s: %s %s %d is not linked", h, b.Make, b.Model, b.Year)
					}
				}
			}
			for _, id := range r.Links.Boats {
				i := slices.IndexFunc(boats, func(b catalog.Boat) bool { return b.UUID == id })
				if i < 0 || boats[i].Year != year || !slices.Contains(r.Links.Makes, boats[i].Make) {
					t.Errorf("%s links to a boat of another make or year: %v", h, id)
				}
			}
		}
	}
	var missing []string
	for mk := range byMake {
		if !reached[mk] {
			missing = append(missing, mk)
		}
	}
	sort.Strings(missing)
	want := []string{"Back Cove", "Manitou", "Prestige", "Princess", "Selene", "Yellowfin"}
	if !slices.Equal(missing, want) {
		t.Errorf("makes no MIC reaches: %v, want %v", missing, want)
	}
	if share := float64(len(byMake)-len(missing)) / float64(len(byMake)); share < 0.9 {
		t.Errorf("%.1f%% of the demo's boat makes reached, want at least 90%%", 100*share)
	}
	t.Logf("%d of %d demo boat makes reached by a MIC", len(byMake)-len(missing), len(byMake))
}

func TestDecodeHIN(t *testing.T) {
	t.Parallel()
	l, _ := demoHINService(t)
	r, err := l.DecodeHIN("us-BWC12345 L718")
	if err != nil {
		t.Fatal(err)
	}
	if r.HIN != "BWC12345L718" || r.Manufacturer == nil || r.Manufacturer.Company != "BOSTON WHALER INC" ||
		!slices.Equal(r.Links.Makes, []string{"Boston Whaler"}) || len(r.Links.Boats) != 1 || r.Source != micdata.Source {
		t.Errorf("DecodeHIN = %+v", r)
	}
	_, err = l.DecodeHIN("BWC12O45L718")
	var he *lookup.HINError
	if !errors.As(err, &he) || vehicle.CodeOf(err) != lookup.CodeInvalidHIN || he.Position != 6 || he.Rule == "" {
		t.Errorf("invalid HIN: %#v", err)
	}
}

// TestDecodeHINsCharges: each distinct decoded HIN costs one unit, an
// invalid one nothing, and those past a spent quota carry its code.
func TestDecodeHINsCharges(t *testing.T) {
	t.Parallel()
	l, _ := demoHINService(t)
	units := 2
	charged := 0
	meter := &lookup.Meter{
		Ready: func(context.Context) error { return nil },
		Charge: func(context.Context) (func(bool), error) {
			if units == 0 {
				return nil, &limits.Refusal{Reason: limits.CodeQuotaExceeded}
			}
			units--
			return func(ok bool) {
				if ok {
					charged++
				}
			}, nil
		},
	}
	entries, err := l.DecodeHINs(t.Context(), []string{"BWC12345L718", "bad", "SER12345A919", "bwc 12345 l718", "SER12345A920"}, meter)
	if err != nil {
		t.Fatal(err)
	}
	codes := []string{}
	for _, e := range entries {
		if e.Report != nil {
			codes = append(codes, "ok")
		} else {
			codes = append(codes, e.Err.Err.Code)
		}
	}
	if want := []string{"ok", lookup.CodeInvalidHIN, "ok", "ok", limits.CodeQuotaExceeded}; !slices.Equal(codes, want) || charged != 2 {
		t.Errorf("entries %v, %d charged; want %v, 2", codes, charged, want)
	}
	if _, err := l.DecodeHINs(t.Context(), make([]string, 51), nil); vehicle.CodeOf(err) != vehicle.CodeInvalidParameter {
		t.Errorf("51 HINs: %v", err)
	}
}

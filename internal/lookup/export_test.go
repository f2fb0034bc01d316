package lookup

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/epa"
	"github.com/vds-dev/vds/internal/fixture"
)

// HINMICs lists the MICs hinMakes maps, sorted.
func HINMICs() []string {
	out := make([]string, 0, len(hinMakes))
	for mic := range hinMakes {
		out = append(out, mic)
	}
	slices.Sort(out)
	return out
}

// epaCatalog is the car catalog of the test data's whole EPA file, which
// three tests link to: loaded once, as it takes seconds under the race
// detector.
var epaCatalog struct {
	once sync.Once
	cars []catalog.Car
	err  error
}

// EPACars returns epaCatalog's cars, shared: callers must not change them.
func EPACars(tb testing.TB) []catalog.Car {
	tb.Helper()
	path := fixture.EPAZip(tb)
	epaCatalog.once.Do(func() {
		tab, err := epa.Load(context.Background(), path, nil, nil)
		if err == nil {
			epaCatalog.cars, err = epa.Cars(tab)
		}
		epaCatalog.err = err
	})
	if epaCatalog.err != nil {
		tb.Fatal(epaCatalog.err)
	}
	return epaCatalog.cars
}

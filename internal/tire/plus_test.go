package tire_test

import (
	"math"
	"slices"
	"testing"

	"github.com/vds-dev/vds/internal/tire"
)

func TestPlusSizesWindowNests(t *testing.T) {
	t.Parallel()
	oem, _ := tire.Parse("225/45R17")
	var prev []string
	for w := 1.0; w <= 5; w++ {
		var names []string
		for _, p := range tire.PlusSizes(oem, w) {
			names = append(names, p.Size.Canonical())
		}
		for _, n := range prev {
			if !slices.Contains(names, n) {
				t.Errorf("±%g lost %s of the narrower window", w, n)
			}
		}
		if len(names) <= len(prev) {
			t.Errorf("±%g lists %d sizes, no more than ±%g's %d", w, len(names), w-1, len(prev))
		}
		prev = names
	}
}

func TestSpeedometer(t *testing.T) {
	t.Parallel()
	// 225/45R17 is 634.3 mm; 225/50R17 is 431.8 + 225 = 656.8 mm, so a
	// speedometer set for the first reads 60 × 634.3 / 656.8 at a true 60.
	oem, _ := tire.Parse("225/45R17")
	alt, _ := tire.Parse("225/50R17")
	if got, want := tire.Speedometer(oem.Geometry(), alt.Geometry(), 60), 60*634.3/656.8; math.Abs(got-want) > 1e-9 {
		t.Errorf("Speedometer = %v, want %v", got, want)
	}
	if got := tire.Speedometer(oem.Geometry(), oem.Geometry(), 100); got != 100 {
		t.Errorf("same size reads %v at 100", got)
	}
	if got := tire.Speedometer(oem.Geometry(), tire.Geometry{}, 60); got != 0 {
		t.Errorf("no diameter reads %v", got)
	}
}

func TestNeedsReinforced(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		oem, alt string
		want     bool
	}{
		{"205/55R16", "225/45R17", false}, // both carry 91 as standard load
		{"225/45R17", "225/35R19", true},  // a lower profile on a taller rim carries less
		{"225/45R17", "245/45R17", false}, // wider, taller: more air
		{"225/45R17", "225/45R17", false},
	} {
		oem, _ := tire.Parse(c.oem)
		alt, _ := tire.Parse(c.alt)
		if got := tire.NeedsReinforced(oem, alt); got != c.want {
			t.Errorf("NeedsReinforced(%s, %s) = %v, want %v", c.oem, c.alt, got, c.want)
		}
	}
}

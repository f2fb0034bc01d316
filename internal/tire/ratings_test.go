package tire_test

import (
	"math"
	"testing"

	"github.com/vds-dev/vds/internal/tire"
)

// TestLoadKg checks the table against values printed in the ISO 4000-1 /
// ETRTO load index table, and its shape: strictly rising, and within 4%
// of the geometric series 45·1.0292^LI the table rounds.
func TestLoadKg(t *testing.T) {
	t.Parallel()
	published := map[int]int{60: 250, 71: 345, 75: 387, 82: 475, 87: 545, 89: 580, 91: 615, 94: 670, 98: 750,
		99: 775, 100: 800, 104: 900, 109: 1030, 112: 1120, 115: 1215, 116: 1250, 119: 1360, 121: 1450,
		126: 1700, 133: 2060, 139: 2430, 141: 2575, 147: 3075, 150: 3350}
	for li, want := range published {
		if got, ok := tire.LoadKg(li); !ok || got != want {
			t.Errorf("LoadKg(%d) = %d, %v; want %d", li, got, ok, want)
		}
	}
	prev := 0
	for li := 60; li <= 150; li++ {
		kg, ok := tire.LoadKg(li)
		if !ok || kg <= prev {
			t.Fatalf("LoadKg(%d) = %d, %v after %d: not rising", li, kg, ok, prev)
		}
		if trend := 45 * math.Pow(1.0292, float64(li)); math.Abs(float64(kg)-trend)/trend > 0.04 {
			t.Errorf("LoadKg(%d) = %d, %.0f expected by the series", li, kg, trend)
		}
		if got, ok := tire.MinLoadIndex(kg); !ok || got != li {
			t.Errorf("MinLoadIndex(%d) = %d, %v; want %d", kg, got, ok, li)
		}
		if got, ok := tire.MinLoadIndex(kg - 1); li > 60 && (!ok || got != li) {
			t.Errorf("MinLoadIndex(%d) = %d, %v; want %d", kg-1, got, ok, li)
		}
		prev = kg
	}
	for _, li := range []int{59, 151, 0} {
		if _, ok := tire.LoadKg(li); ok {
			t.Errorf("LoadKg(%d) ok", li)
		}
	}
	if _, ok := tire.MinLoadIndex(3351); ok {
		t.Error("MinLoadIndex(3351) ok")
	}
}

// TestSpeedLimit checks every rating against the published km/h and mph.
func TestSpeedLimit(t *testing.T) {
	t.Parallel()
	published := map[string][2]int{"L": {120, 75}, "M": {130, 81}, "N": {140, 87}, "P": {150, 93}, "Q": {160, 99},
		"R": {170, 106}, "S": {180, 112}, "T": {190, 118}, "U": {200, 124}, "H": {210, 130}, "V": {240, 149},
		"W": {270, 168}, "Y": {300, 186}, "Z": {240, 149}}
	for r, want := range published {
		kmh, mph, ok := tire.SpeedLimit(r)
		if !ok || kmh != want[0] || mph != want[1] {
			t.Errorf("SpeedLimit(%s) = %d, %d, %v; want %v", r, kmh, mph, ok, want)
		}
		// mph is km/h converted and rounded, as the tables print it.
		if r != "Z" && int(math.Round(float64(kmh)/1.609344)) != mph {
			t.Errorf("%s: %d km/h is not %d mph", r, kmh, mph)
		}
	}
	for _, r := range []string{"", "A", "v", "ZZ"} {
		if _, _, ok := tire.SpeedLimit(r); ok {
			t.Errorf("SpeedLimit(%q) ok", r)
		}
	}
}

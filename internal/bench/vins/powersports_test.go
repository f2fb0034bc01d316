package vins_test

import (
	"slices"
	"testing"

	"github.com/vds-dev/vds/internal/bench/vins"
	"github.com/vds-dev/vds/internal/vin"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// Powersports VINs come from the powersports WMIs' Model patterns, are
// well formed with their check digit, repeat for a seed, and the
// offline decoder gives nearly all of them a make and model.
func TestPowersports(t *testing.T) {
	t.Parallel()
	path := vpictest.Subset(t, "1HD", "3NS", "5J5")
	got, err := vins.Powersports(t.Context(), path, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	again, err := vins.Powersports(t.Context(), path, 300, 1)
	if err != nil || !slices.Equal(got, again) {
		t.Fatalf("seed 1 twice: %v", err)
	}
	snap, err := vpic.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	wmis := map[string]int{}
	named := 0
	for _, v := range got {
		d, err := vin.Decode(v)
		if err != nil || !d.CheckDigit.Valid {
			t.Fatalf("%s: %v, check digit %+v", v, err, d.CheckDigit)
		}
		wmis[v[:3]]++
		if r, err := snap.Decode(v); err == nil && r.Make != nil && r.Model != nil {
			named++
		}
	}
	// The subset holds the patterns of these WMIs' schemas, which others
	// share (Harley-Davidson's 5HD and 932, Polaris's 4XA).
	if wmis["1HD"] == 0 || wmis["3NS"] == 0 {
		t.Errorf("no VIN of 1HD or 3NS: %v", wmis)
	}
	t.Logf("%d of %d decode to a make and model; by WMI %v", named, len(got), wmis)
	if named < len(got)*85/100 {
		t.Errorf("%d of %d decode to a make and model, want at least 85%%", named, len(got))
	}
}

package vins

import (
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/fixture"
	"github.com/vds-dev/vds/internal/vin"
)

func TestGenerate(t *testing.T) {
	prefixes := []string{"1FTFW5L8RF", "JH4DC434RS"}
	got := Generate(prefixes, 5, 7)
	if len(got) != 5 {
		t.Fatalf("got %d VINs, want 5", len(got))
	}
	for i, v := range got {
		d, err := vin.Decode(v)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if !d.CheckDigit.Valid {
			t.Errorf("%s: check digit %s, want %s", v, d.CheckDigit.Found, d.CheckDigit.Expected)
		}
		if p := v[:8] + v[9:11]; p != prefixes[i%2] {
			t.Errorf("%s keeps prefix %s, want %s", v, p, prefixes[i%2])
		}
	}
	if again := Generate(prefixes, 5, 7); strings.Join(again, ",") != strings.Join(got, ",") {
		t.Errorf("same seed gave %v then %v", got, again)
	}
	if other := Generate(prefixes, 5, 8); strings.Join(other, ",") == strings.Join(got, ",") {
		t.Errorf("seeds 7 and 8 gave the same VINs %v", got)
	}
}

func TestReadPrefixes(t *testing.T) {
	prefixes, err := Prefixes(fixture.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1FTFW5L8RF", "JH4DC434RS", "1FTMW1T8MF", "WUAAU3428N"} {
		if _, ok := slices.BinarySearch(prefixes, want); !ok {
			t.Errorf("prefix %s missing from %d prefixes", want, len(prefixes))
		}
	}
	if _, err := Prefixes(t.TempDir()); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("empty dir: err %v, want one saying the data is missing", err)
	}
}

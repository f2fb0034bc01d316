package tire_test

import (
	"math"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/tire"
)

func FuzzParse(f *testing.F) {
	seeds := []string{
		// valid
		"225/45R17", "P225/45R17 94W", "LT265/70R17", "245/40ZR18",
		"lt275/65r18 123s", "  225/45R17   94W ", "105/20R10 60L",
		"455/95R30 150Z", "33x12.50R15", "35X12.50R17 LT",
		"31x10.50R15 109S", "LT35x12.50R20 121Q", "37x12.50R16.5",
		"38.5x14.50R16.5", "33x12R15", "35x12.50r17lt", "275/55 R 20", "LT 285/70 R17 121S",
		// invalid
		"", " ", "225/45X17", "225-45R17", "ST225/75R15", "225/45R17XL",
		"225/45R17 94(Y)", "LT275/65R18 123/120S", "225/45R17 094W",
		"33x12.50ZR15", "20x12.50R22", "24x12.50R22", "50x6R10",
		"33x12..5R15", "LT33x12.50R15LT", "２２５/45R17", "225/45R17\x00",
		"9e1x1e1R15", "NaNxInfR15", "0x1p4/45R17",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sz, err := tire.Parse(in)
		if err != nil {
			if sz != (tire.Size{}) {
				t.Fatalf("Parse(%q) returned %#v with error %v", in, sz, err)
			}
			return
		}

		canon := sz.String()
		again, err := tire.Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q) ok but canonical %q fails: %v", in, canon, err)
		}
		if again != sz {
			t.Fatalf("Parse(%q) = %#v, but Parse(%q) = %#v", in, sz, canon, again)
		}
		if again.String() != canon {
			t.Fatalf("String not idempotent: %q then %q", canon, again.String())
		}

		if c, err := tire.Canonical(canon); err != nil || c != sz.Canonical() {
			t.Fatalf("Canonical(%q) = %q, %v; want %q", canon, c, err, sz.Canonical())
		}

		// Only case and whitespace are insignificant, so lower-casing an
		// accepted input must not change its meaning.
		if lower, err := tire.Parse(strings.ToLower(in)); err != nil || lower != sz {
			t.Fatalf("Parse(lower(%q)) = %#v, %v; want %#v", in, lower, err, sz)
		}

		g := sz.Geometry()
		for name, v := range map[string]float64{
			"WidthMM": g.WidthMM, "WidthIn": g.WidthIn,
			"SidewallMM": g.SidewallMM, "SidewallIn": g.SidewallIn,
			"DiameterIn": g.DiameterIn, "DiameterMM": g.DiameterMM,
			"CircumferenceIn": g.CircumferenceIn, "CircumferenceMM": g.CircumferenceMM,
			"RevsPerMile": g.RevsPerMile,
		} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
				t.Fatalf("Parse(%q).Geometry().%s = %v, want finite and positive", in, name, v)
			}
		}
		if !(g.DiameterIn > sz.RimIn) {
			t.Fatalf("Parse(%q): diameter %v does not exceed rim %v", in, g.DiameterIn, sz.RimIn)
		}
	})
}

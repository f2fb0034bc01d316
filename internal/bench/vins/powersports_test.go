package vins

import (
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/vin"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// Powersports VINs come from the Model patterns of the powersports WMIs'
// schemas, keep what the keys fix, have their check digit and a model
// year the schema is valid for, and repeat for a seed. (internal/lookup
// decodes them.)
func TestPowersports(t *testing.T) {
	t.Parallel()
	pats, err := modelPatterns(t.Context(), vpictest.Cut(t, "1HD", "4XA", "4UF", "JYE", "5YN", "1G9543"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pats) < 1000 || !slices.ContainsFunc(pats, func(p modelPattern) bool { return p.wmi == "1G9543" }) {
		t.Fatalf("%d patterns", len(pats))
	}
	got := generate(pats, 300, 1)
	if len(got) != 300 || !slices.Equal(got, generate(pats, 300, 1)) || slices.Equal(got, generate(pats, 300, 2)) {
		t.Fatalf("seed 1 made %d VINs, or not the same twice, or the same as seed 2", len(got))
	}
	byWMI := map[string][]modelPattern{}
	for _, p := range pats {
		byWMI[p.wmi] = append(byWMI[p.wmi], p)
	}
	for _, v := range got {
		d, err := vin.Decode(v)
		if err != nil || !d.CheckDigit.Valid {
			t.Fatalf("%s: %v, check digit %+v", v, err, d.CheckDigit)
		}
		ps := byWMI[v[:3]]
		if v[2] == '9' {
			ps = byWMI[v[:3]+v[11:14]]
		}
		if !slices.ContainsFunc(ps, func(p modelPattern) bool {
			return keysFit(p, v) && slices.Contains(d.ModelYears, yearIn(p, d.ModelYears))
		}) {
			t.Errorf("%s fits no pattern of its WMI for one of its years %v", v, d.ModelYears)
		}
	}
}

// keysFit reports whether v holds what p's keys fix in positions 4-8 and 10-17.
func keysFit(p modelPattern, v string) bool {
	toks := tokens(p.keys)
	for i, tok := range toks {
		pos := 3 + i
		if i == 5 && tok != "|" {
			return true // keys past position 8 without the "|" are not read
		}
		if tok == "|" || tok == "*" || pos >= 17 {
			continue
		}
		if !strings.ContainsRune(expand(tok), rune(v[pos])) {
			return false
		}
	}
	return true
}

// yearIn is the first of years in p's range, or 0.
func yearIn(p modelPattern, years []int) int {
	for _, y := range years {
		if y >= p.from && y <= p.to {
			return y
		}
	}
	return 0
}

package textfmt

import (
	"math"
	"testing"
)

func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{
		0: "0", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567",
		-1000: "-1,000", -999: "-999", math.MinInt64: "-9,223,372,036,854,775,808",
	} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"make", "make", 0}, {"mkae", "make", 1},
		{"mak", "make", 1}, {"maker", "make", 1}, {"mote", "make", 2}, {"kitten", "sitting", 3},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	t.Parallel()
	names := []string{"make", "model", "year"}
	for s, want := range map[string]string{
		"MAKE": "make", "mdoel": "model", "yaer": "year", "modle": "model",
		"trim": "", "": "", "makemakemakemakemakemakemakemakem": "",
	} {
		if got := Closest(s, names); got != want {
			t.Errorf("Closest(%q) = %q, want %q", s, got, want)
		}
	}
}

package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestDiffBar(t *testing.T) {
	t.Parallel()
	st := NewStyles(plainRenderer())
	tests := []struct {
		name   string
		pct    float64
		within bool
		cells  int
		want   string
	}{
		// 25 cells over ±6%: 0% is cell 12, ±3% cells 6 and 18.
		{"zero", 0, true, 25, "······[─────│─────]······"},
		{"inside", 1.5, true, 25, "······[─────│███──]······"},
		{"negative", -1, true, 25, "······[───██│─────]······"},
		{"window edge", 3, true, 25, "······[─────│█████]······"},
		{"outside", 4.5, false, 25, "······[─────│█████]███···"},
		{"beyond the scale", 9, false, 25, "······[─────│█████]█████▶"},
		{"beyond, negative", -9, false, 25, "◀█████[█████│─────]······"},
		{"even width is made odd", 0, true, 10, "··[─│─]··"},
		{"minimum width", 0, true, 3, "·[─│─]·"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := diffBar(st, tt.pct, 3, tt.cells, tt.within)
			if got != tt.want {
				t.Errorf("diffBar(%v) =\n%q, want\n%q", tt.pct, got, tt.want)
			}
		})
	}
	t.Run("zero window falls back to 3%", func(t *testing.T) {
		if got, want := diffBar(st, 1.5, 0, 25, true), diffBar(st, 1.5, 3, 25, true); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}

func TestBarScale(t *testing.T) {
	t.Parallel()
	got := barScale(3, 25)
	if ansi.StringWidth(got) != 25 {
		t.Fatalf("width %d, want 25: %q", ansi.StringWidth(got), got)
	}
	if !strings.HasPrefix(got, "-6%") || !strings.HasSuffix(strings.TrimRight(got, " "), "+6%") || got[12] != '0' {
		t.Errorf("scale = %q, want -6%% … 0 … +6%%", got)
	}
	if got := barScale(2.5, 25); !strings.HasPrefix(got, "-5%") {
		t.Errorf("scale for a 2.5%% window = %q, want -5%% at the start", got)
	}
}

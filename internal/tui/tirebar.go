package tui

import (
	"math"
	"strconv"
	"strings"
)

// diffBar draws a diameter difference on a ±2×window scale, cells wide (odd):
// ·····[─────│███──]····· is +1.5% in a ±3% window. The shape alone tells in
// from out on NO_COLOR terminals.
func diffBar(st *Styles, pct, window float64, cells int, within bool) string {
	if window <= 0 {
		window = 3
	}
	cells = max(cells, 7)
	if cells%2 == 0 {
		cells--
	}
	scale := 2 * window
	center := (cells - 1) / 2
	// Rounding the offset from 0% keeps -x and +x symmetric.
	pos := func(v float64) int {
		i := center + int(math.Round(v/scale*float64(center)))
		return min(max(i, 0), cells-1)
	}
	lo, hi, at := pos(-window), pos(window), pos(pct)
	fill := st.BarOut
	if within {
		fill = st.BarIn
	}
	var b strings.Builder
	for i := range cells {
		filled := (at > center && i > center && i <= at) || (at < center && i < center && i >= at)
		switch {
		case i == center:
			b.WriteString(st.BarAxis.Render("│"))
		case filled && i == cells-1 && pct > scale:
			b.WriteString(fill.Render("▶"))
		case filled && i == 0 && pct < -scale:
			b.WriteString(fill.Render("◀"))
		case i == lo:
			b.WriteString(st.BarWindow.Render("["))
		case i == hi:
			b.WriteString(st.BarWindow.Render("]"))
		case filled:
			b.WriteString(fill.Render("█"))
		case i > lo && i < hi:
			b.WriteString(st.BarWindow.Render("─"))
		default:
			b.WriteString(st.BarTrack.Render("·"))
		}
	}
	return b.String()
}

func barScale(window float64, cells int) string {
	if window <= 0 {
		window = 3
	}
	cells = max(cells, 7)
	if cells%2 == 0 {
		cells--
	}
	line := []rune(strings.Repeat(" ", cells))
	put := func(at int, s string) {
		for i, r := range []rune(s) {
			if at+i >= 0 && at+i < len(line) {
				line[at+i] = r
			}
		}
	}
	end := pctLabel(2*window) + "%"
	put(0, "-"+end)
	put((cells-1)/2, "0")
	put(cells-len([]rune(end))-1, "+"+end)
	return string(line)
}

func pctLabel(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

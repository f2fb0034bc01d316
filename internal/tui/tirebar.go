package tui

import (
	"math"
	"strconv"
	"strings"
)

// diffBar draws an alternate tire size's diameter difference on a
// horizontal scale of ±2×window percent, cells wide (made odd so that 0%
// has a cell of its own):
//
//	·····[─────│███──]·····   +1.5%, inside a ±3% window
//	·····[─────│─────]███▶·   +9.0%, beyond the scale
//
// The window is bracketed, 0% is │, and the fill runs from 0% to the
// value, in the in-window style when within is true and the out style
// otherwise. within is the server's verdict, judged on the unrounded
// difference, so a value printed as 3.0% still gets the right colour. The
// shape alone tells in from out, for NO_COLOR terminals.
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
	// pos maps a percentage to a cell, clamped to the bar. It rounds the
	// offset from 0% rather than the cell index so that -x and +x land
	// symmetrically (math.Round rounds halves away from zero).
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

// barScale is the label line above the bars: the scale's ends and 0.
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

// pctLabel formats a window bound: "3", "2.5".
func pctLabel(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

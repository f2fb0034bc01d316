package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/vds-dev/vds/client"
)

// newTiresPage shows fitments with their geometry, each alternate with a
// bar of its diameter difference.
func newTiresPage(rec record) *reportPage[tireReport] {
	return newReportPage(rec, reportKind[tireReport]{
		screen: stateTires, name: "Tires", what: "tire fitments", fetch: fetchTires, content: tiresContent, subtitle: tiresSubtitle,
	})
}

// matchNote explains how a car's fitments were matched to its year.
func matchNote(match string) string {
	switch match {
	case client.MatchExactYear:
		return "fitments of its model year"
	case client.MatchNearestYear:
		return "none of its model year: fitments of the nearest year"
	case client.MatchNone:
		return "the catalog has no fitment for this make and model"
	}
	return ""
}

func tiresContent(st *Styles, r tireReport, width int) string {
	var b strings.Builder
	if len(r.fitments) == 0 {
		b.WriteString(st.Subtle.Render("No tire fitments."))
		return b.String()
	}
	// Columns: "  " size(12) " " diameter(8) "  " pct(6) "  " bar "  " verdict.
	const fixed = 2 + 12 + 1 + 8 + 2 + 6 + 2 + 2
	verdictIn, verdictOut := "✓ in window", "✗ outside"
	if width-fixed-len(verdictIn) < 21 {
		verdictIn, verdictOut = "✓", "✗"
	}
	cells := min(max(width-fixed-len([]rune(verdictIn)), 11), 41)
	w := r.fitments[0].WindowPct
	legend := "Bars span ±" + pctLabel(2*w) + "% of the OEM diameter; [ ] is the ±" + pctLabel(w) + "% window."
	b.WriteString(st.Subtle.Render(lipgloss.NewStyle().Width(max(20, width)).Render(legend)))
	for _, f := range r.fitments {
		b.WriteString("\n\n")
		fit := f.Fitment
		b.WriteString(st.Title.Render(vehicleName(fit.Year, fit.Make, fit.Model, fit.Trim)))
		b.WriteString("\n" + sizeLine(st, "OEM", f.OEM, width))
		if f.Rear != nil {
			b.WriteString("\n" + sizeLine(st, "Rear", *f.Rear, width))
		}
		if len(f.Alternates) == 0 {
			b.WriteString("\n" + st.Subtle.Render("  no alternate sizes"))
			continue
		}
		window := f.WindowPct
		fmt.Fprintf(&b, "\n%s%s", strings.Repeat(" ", fixed-2), st.Subtle.Render(barScale(window, cells)))
		for _, a := range f.Alternates {
			verdict := st.Good.Render(verdictIn)
			if !a.WithinWindow {
				verdict = st.Bad.Render(verdictOut)
			}
			fmt.Fprintf(&b, "\n  %-12s %8s  %6s  %s  %s",
				a.Size, formatFloat(a.DiameterIn, 2)+" in", signedPct(a.DiameterDiffPct),
				diffBar(st, a.DiameterDiffPct, window, cells, a.WithinWindow), verdict)
		}
	}
	return b.String()
}

// sizeLine is one size's geometry: diameter, revs/mile, width, sidewall;
// the widths go to a second line when one would not fit.
func sizeLine(st *Styles, label string, g client.SizeGeometry, width int) string {
	head := fmt.Sprintf("  %-4s %s  ", label, g.Size)
	turn := fmt.Sprintf("⌀ %s in (%s mm) · %s rev/mi", formatFloat(g.DiameterIn, 2), formatFloat(g.DiameterMM, 1), formatFloat(g.RevsPerMile, 1))
	dims := fmt.Sprintf("width %s mm · sidewall %s mm", formatFloat(g.WidthMM, 1), formatFloat(g.SidewallMM, 1))
	line := "  " + st.Label.Render(fmt.Sprintf("%-4s", label)) + " " + st.Value.Render(g.Size) + "  "
	if len([]rune(head+turn+" · "+dims)) <= width {
		return line + st.Subtle.Render(turn+" · "+dims)
	}
	return line + st.Subtle.Render(turn) + "\n" + strings.Repeat(" ", len([]rune(head))) + st.Subtle.Render(dims)
}

// tiresSubtitle says how a car's fitments matched its year.
func tiresSubtitle(r tireReport) string { return matchNote(r.match) }

package tui

import (
	"fmt"
	"strings"

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
	for i, f := range r.fitments {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fit := f.Fitment
		b.WriteString(st.Title.Render(vehicleName(fit.Year, fit.Make, fit.Model, fit.Trim)))
		b.WriteString("\n" + sizeLine(st, "OEM", f.OEM))
		if f.Rear != nil {
			b.WriteString("\n" + sizeLine(st, "Rear", *f.Rear))
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

// sizeLine is one size's geometry: diameter, width, sidewall, revs/mile.
func sizeLine(st *Styles, label string, g client.SizeGeometry) string {
	return fmt.Sprintf("  %s %s  %s",
		st.Label.Render(fmt.Sprintf("%-4s", label)), st.Value.Render(g.Size),
		st.Subtle.Render(fmt.Sprintf("⌀ %s in (%s mm) · width %s mm · sidewall %s mm · %s rev/mi",
			formatFloat(g.DiameterIn, 2), formatFloat(g.DiameterMM, 1), formatFloat(g.WidthMM, 1),
			formatFloat(g.SidewallMM, 1), formatFloat(g.RevsPerMile, 1))))
}

// tiresSubtitle says how a car's fitments matched its year and what the bars span.
func tiresSubtitle(r tireReport) string {
	sub := ""
	if r.match != "" {
		sub = matchNote(r.match)
	}
	if len(r.fitments) > 0 {
		w := r.fitments[0].WindowPct
		sub = joinNonEmpty(" · ", sub, "bars span ±"+pctLabel(2*w)+"% of the OEM diameter, [ ] is the ±"+pctLabel(w)+"% window")
	}
	return sub
}

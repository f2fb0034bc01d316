package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/vds-dev/vds/client"
)

// newPlusPage shows a fitment's plus sizes by rim, each with the bar of
// its diameter difference the tires page draws.
func newPlusPage(rec record) *reportPage[*client.FitmentPlusSizes] {
	return newReportPage(rec, reportKind[*client.FitmentPlusSizes]{
		screen: statePlus, name: "Plus sizes", what: "plus sizes", fetch: fetchPlus, content: plusContent, subtitle: plusSubtitle,
	})
}

func fetchPlus(ctx context.Context, c Client, id pageID, rec record) tea.Cmd {
	return func() tea.Msg {
		p, err := c.TirePlusSizes(ctx, rec.uuid(), 0)
		if err != nil {
			return fail(id, "load plus sizes", err)
		}
		printable(p)
		return reportMsg[*client.FitmentPlusSizes]{addr: addr{id}, report: p}
	}
}

func plusSubtitle(p *client.FitmentPlusSizes) string {
	if p == nil {
		return ""
	}
	return "within ±" + pctLabel(float64(p.WindowPct)) + "% of the OEM diameter"
}

func plusContent(st *Styles, p *client.FitmentPlusSizes, width int) string {
	if p == nil {
		return ""
	}
	// Columns: "  " size(12) " " diameter(8) "  " pct(6) "  " bar "  " at 60 mph(5) "  " load(6).
	const fixed = 2 + 12 + 1 + 8 + 2 + 6 + 2 + 2 + 5 + 2 + 6
	cells := min(max(width-fixed, 11), 41)
	window := float64(p.WindowPct)
	var b strings.Builder
	legend := "Bars span ±" + pctLabel(2*window) + "% of the OEM diameter; @60 is the speedometer at a true 60 mph; XL: a reinforced tire carries the load."
	b.WriteString(st.Subtle.Render(lipgloss.NewStyle().Width(max(20, width)).Render(legend)))
	plusSet(&b, st, "OEM", &p.Front, window, cells, width)
	if p.Rear != nil {
		plusSet(&b, st, "Rear", p.Rear, window, cells, width)
	}
	return b.String()
}

func plusSet(b *strings.Builder, st *Styles, label string, set *client.PlusSizeSet, window float64, cells, width int) {
	b.WriteString("\n\n" + sizeLine(st, label, set.OEM, width))
	if set.LoadIndex != nil && set.SpeedRating != nil && set.LoadKg != nil {
		fmt.Fprintf(b, "\n%s", st.Subtle.Render(fmt.Sprintf("       load index %d (%d kg) · speed rating %s", *set.LoadIndex, *set.LoadKg, *set.SpeedRating)))
	}
	fmt.Fprintf(b, "\n%s%s", strings.Repeat(" ", 2+12+1+8+2+6+2), st.Subtle.Render(barScale(window, cells)))
	for _, g := range set.Rims {
		fmt.Fprintf(b, "\n\n  %s", st.Label.Render(fmt.Sprintf("%s in rim (%+d)", formatFloat(g.RimIn, -1), g.RimOffset)))
		if len(g.Sizes) == 0 {
			b.WriteString(st.Subtle.Render("  none within the window"))
			continue
		}
		for _, s := range g.Sizes {
			load := ""
			if s.MinLoadIndex != nil {
				load = fmt.Sprint(*s.MinLoadIndex)
			}
			if s.Reinforced {
				load = strings.TrimSpace(load + " XL")
			}
			size := s.Size
			if s.OEM {
				size += "*"
			}
			fmt.Fprintf(b, "\n  %-12s %8s  %6s  %s  %5s  %-6s", size, formatFloat(s.DiameterIn, 2)+" in",
				signedPct(s.DiameterDiffPct), diffBar(st, s.DiameterDiffPct, window, cells, true), "@"+formatFloat(s.Speedometer60, 1), load)
		}
	}
}

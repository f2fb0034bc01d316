package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
)

// tiresPage shows tire fitments with their geometry: per fitment the OEM
// (and rear) size, then each alternate with a bar of its diameter
// difference against the fitment window.
type tiresPage struct {
	pageBase
	rec    record
	report tireReport
	scrollView
}

func newTiresPage(rec record) *tiresPage {
	return &tiresPage{rec: rec, scrollView: newScrollView()}
}

func (p *tiresPage) state() state  { return stateTires }
func (p *tiresPage) crumb() string { return "Tires" }

func (p *tiresPage) init(c *common) tea.Cmd {
	p.loading = "tire fitments"
	return fetchTires(c.ctx, c.client, p.id, p.rec)
}

func (p *tiresPage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.resize(w, h, p.content(c))
}

func (p *tiresPage) update(c *common, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tiresMsg:
		p.loading, p.report = "", msg.tires
		p.show(p.content(c))
		return nil
	case errMsg:
		p.loading = ""
		return nil
	}
	return p.scroll(msg)
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

// content renders the report for the page's width.
func (p *tiresPage) content(c *common) string {
	st := c.styles
	var b strings.Builder
	if len(p.report.fitments) == 0 {
		b.WriteString(st.Subtle.Render("No tire fitments."))
		return b.String()
	}
	// Columns: "  " size(12) " " diameter(8) "  " pct(6) "  " bar "  " verdict.
	const fixed = 2 + 12 + 1 + 8 + 2 + 6 + 2 + 2
	verdictIn, verdictOut := "✓ in window", "✗ outside"
	if p.width-fixed-len(verdictIn) < 21 {
		verdictIn, verdictOut = "✓", "✗"
	}
	cells := min(max(p.width-fixed-len([]rune(verdictIn)), 11), 41)
	for i, f := range p.report.fitments {
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

func (p *tiresPage) view(c *common) string {
	st := c.styles
	title := st.Title.Render("Tires: " + p.rec.title())
	if !p.loaded {
		if p.loading != "" {
			return title + "\n" + loadingView(c, p.loading)
		}
		return title
	}
	sub := ""
	if p.report.match != "" {
		sub = matchNote(p.report.match)
	}
	if len(p.report.fitments) > 0 {
		w := p.report.fitments[0].WindowPct
		sub = joinNonEmpty(" · ", sub, "bars span ±"+pctLabel(2*w)+"% of the OEM diameter, [ ] is the ±"+pctLabel(w)+"% window")
	}
	return title + "\n" + st.Subtle.Render(sub) + "\n" + p.vp.View()
}

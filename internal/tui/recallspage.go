package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// recallsPage shows a car's or motorcycle's NHTSA recall campaigns, and a
// car's crash ratings.
type recallsPage struct {
	pageBase
	rec    record
	report recallReport
	scrollView
}

func newRecallsPage(rec record) *recallsPage {
	return &recallsPage{rec: rec, scrollView: newScrollView()}
}

func (p *recallsPage) state() state  { return stateRecalls }
func (p *recallsPage) crumb() string { return "Recalls" }

func (p *recallsPage) init(c *common) tea.Cmd {
	p.loading = "recalls"
	return fetchRecalls(c.ctx, c.client, p.id, p.rec)
}

func (p *recallsPage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.resize(w, h, p.content(c))
}

func (p *recallsPage) update(c *common, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case recallsMsg:
		p.loading, p.report = "", msg.recalls
		p.show(p.content(c))
		return nil
	case errMsg:
		p.loading = ""
		return nil
	}
	return p.scroll(msg)
}

// content renders ratings then recalls, wrapped to the page's width.
func (p *recallsPage) content(c *common) string {
	st, r := c.styles, p.report
	wrap := lipgloss.NewStyle().Width(max(20, p.width-4))
	var b strings.Builder
	if r.stale {
		b.WriteString(st.Warn.Render("NHTSA is unavailable: showing data cached "+r.fetchedAt.UTC().Format("2006-01-02 15:04")+" UTC.") + "\n\n")
	}
	if len(r.ratings) > 0 {
		b.WriteString(st.Title.Render("Crash ratings (NCAP)"))
		for _, rt := range r.ratings {
			fmt.Fprintf(&b, "\n  %s\n    overall %s  front %s  side %s  rollover %s",
				st.Value.Render(str(rt.Description)), stars(rt.Overall), stars(rt.Front), stars(rt.Side), stars(rt.Rollover))
		}
		b.WriteString("\n\n")
	}
	b.WriteString(st.Title.Render(fmt.Sprintf("Recalls (%d)", len(r.recalls))))
	if len(r.recalls) == 0 {
		b.WriteString("\n" + st.Good.Render("  none on record"))
		if r.note != "" {
			b.WriteString("\n" + st.Subtle.Render(indent(wrap.Render(r.note), "  ")))
		}
	}
	for _, rc := range r.recalls {
		var flags []string
		if rc.ParkIt {
			flags = append(flags, st.Warn.Render("DO NOT DRIVE"))
		}
		if rc.ParkOutside {
			flags = append(flags, st.Warn.Render("PARK OUTSIDE"))
		}
		if rc.OTAUpdate {
			flags = append(flags, st.Subtle.Render("over-the-air fix"))
		}
		fmt.Fprintf(&b, "\n\n%s  %s  %s", st.Selected.Render(rc.CampaignNumber), st.Subtle.Render(str(rc.ReportDate)), str(rc.Component))
		if len(flags) > 0 {
			b.WriteString("  " + strings.Join(flags, " "))
		}
		for _, f := range []struct {
			label string
			text  *string
		}{{"Summary", rc.Summary}, {"Consequence", rc.Consequence}, {"Remedy", rc.Remedy}} {
			if f.text == nil || strings.TrimSpace(*f.text) == "" {
				continue
			}
			b.WriteString("\n" + st.Label.Render("  "+f.label) + "\n" + indent(wrap.Render(*f.text), "    "))
		}
	}
	return b.String()
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func (p *recallsPage) view(c *common) string {
	st := c.styles
	title := st.Title.Render("Recalls: " + p.rec.title())
	if !p.loaded {
		if p.loading != "" {
			return title + "\n" + loadingView(c, p.loading)
		}
		return title
	}
	return title + "\n" + st.Subtle.Render(dash(p.report.coverage)) + "\n" + p.vp.View()
}

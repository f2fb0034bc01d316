package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// newRecallsPage shows a car's or motorcycle's NHTSA recall campaigns, and a
// car's crash ratings.
func newRecallsPage(rec record) *reportPage[recallReport] {
	return newReportPage(rec, reportKind[recallReport]{
		screen: stateRecalls, name: "Recalls", what: "recalls", fetch: fetchRecalls, content: recallsContent,
		subtitle: func(r recallReport) string { return dash(r.coverage) },
	})
}

func recallsContent(st *Styles, r recallReport, width int) string {
	wrap := lipgloss.NewStyle().Width(max(20, width-4))
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

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

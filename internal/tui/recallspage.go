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

// topComponents is how many components the complaint counts list.
const topComponents = 8

// newComplaintsPage shows a car's or motorcycle's owners' complaints to
// NHTSA: a page of its own, so viewing recalls costs one call.
func newComplaintsPage(rec record) *reportPage[complaintReport] {
	return newReportPage(rec, reportKind[complaintReport]{
		screen: stateComplaints, name: "Complaints", what: "complaints", fetch: fetchComplaints, content: complaintsContent,
		subtitle: func(r complaintReport) string {
			if r.complaints == nil {
				return ""
			}
			return r.complaints.Source
		},
	})
}

// complaintsContent shows owners' complaints: their totals, the components
// most complained of and the first page, newest first.
func complaintsContent(st *Styles, r complaintReport, width int) string {
	wrap := lipgloss.NewStyle().Width(max(20, width-4))
	var b strings.Builder
	c := r.complaints
	if c == nil { // not loaded yet
		return ""
	}
	t := c.Totals
	b.WriteString(st.Title.Render(fmt.Sprintf("Complaints (%d)", t.Complaints)))
	if t.Complaints == 0 {
		return b.String() + "\n" + st.Good.Render("  none on record")
	}
	fmt.Fprintf(&b, "\n  crashes %s  fires %s  injured %s  killed %s", st.Value.Render(fmt.Sprint(t.Crashes)),
		st.Value.Render(fmt.Sprint(t.Fires)), st.Value.Render(fmt.Sprint(t.Injuries)), st.Value.Render(fmt.Sprint(t.Deaths)))
	for _, cc := range c.ByComponent[:min(len(c.ByComponent), topComponents)] {
		fmt.Fprintf(&b, "\n  %5d  %s", cc.Complaints, cc.Component)
	}
	if more := len(c.ByComponent) - topComponents; more > 0 {
		b.WriteString("\n" + st.Subtle.Render(fmt.Sprintf("         and %d more components", more)))
	}
	for _, cp := range c.Complaints {
		var harm []string
		for _, h := range []struct {
			on   bool
			text string
		}{{cp.Crash, "CRASH"}, {cp.Fire, "FIRE"}, {cp.Injuries > 0, fmt.Sprintf("%d injured", cp.Injuries)}, {cp.Deaths > 0, fmt.Sprintf("%d killed", cp.Deaths)}} {
			if h.on {
				harm = append(harm, st.Warn.Render(h.text))
			}
		}
		fmt.Fprintf(&b, "\n\n%s  %s  %s", st.Selected.Render(fmt.Sprint(cp.ODINumber)), st.Subtle.Render(str(cp.ReceivedDate)), strings.Join(cp.Components, ", "))
		if len(harm) > 0 {
			b.WriteString("  " + strings.Join(harm, " "))
		}
		if s := str(cp.Summary); strings.TrimSpace(s) != "" {
			b.WriteString("\n" + indent(wrap.Render(s), "    "))
		}
	}
	if c.Meta.Total > len(c.Complaints) {
		b.WriteString("\n\n" + st.Subtle.Render(fmt.Sprintf("  %d of %d shown: vds recalls complaints lists them all", len(c.Complaints), c.Meta.Total)))
	}
	return b.String()
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

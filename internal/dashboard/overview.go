package dashboard

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/limits"
)

type overviewData struct {
	Plan account.Plan
	// PlanKnown is false when the account's plan is no longer configured
	// (its tokens are then refused with no_api_access).
	PlanKnown bool
	State     limits.State
	// QuotaRemaining is -1 when the quota is unlimited.
	QuotaRemaining int64
	// PercentUsed of the monthly quota, 0..100.
	PercentUsed int
	Month       string
	RESTTotal   int64
	MCPTotal    int64
	Days        []dayUsage
	Wide        chart
	Narrow      chart
	// DisabledHooks are the webhook endpoints failures turned off.
	DisabledHooks int
}

type dayUsage struct {
	Day  time.Time
	REST int64
	MCP  int64
}

func (h *Handler) overview(w http.ResponseWriter, r *http.Request, s *session) {
	a := s.account
	now := h.now().UTC()
	d := overviewData{Month: now.Format("January 2006")}
	plan, ok := h.cfg.Plan(a.Plan)
	d.Plan, d.PlanKnown = plan, ok
	if !ok {
		d.Plan = account.Plan{Name: a.Plan}
	} else {
		st, err := h.limiter.State(r.Context(), a.ID, plan)
		if err != nil {
			h.serverError(w, r, err)
			return
		}
		d.State, d.QuotaRemaining = st, st.QuotaRemaining()
		if st.QuotaLimit > 0 {
			d.PercentUsed = int(min(100, st.QuotaUsed*100/int64(st.QuotaLimit)))
		}
	}
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	rows, err := h.limiter.DailyUsage(r.Context(), a.ID, first.Format(time.DateOnly), now.Format(time.DateOnly))
	if err != nil {
		h.serverError(w, r, err)
		return
	}
	d.Days = dailySeries(first, now, rows)
	for _, day := range d.Days {
		d.RESTTotal += day.REST
		d.MCPTotal += day.MCP
	}
	if d.State.QuotaReset.IsZero() {
		d.State.QuotaReset = first.AddDate(0, 1, 0)
	}
	daysInMonth := first.AddDate(0, 1, -1).Day()
	d.Wide = newChart(d.Days, daysInMonth, chartSize{width: 640, height: 220, font: 13, labelEvery: 5, id: "wide"})
	d.Narrow = newChart(d.Days, daysInMonth, chartSize{width: 340, height: 200, font: 12, labelEvery: 10, id: "narrow"})
	if h.hooks != nil {
		eps, err := h.hooks.Endpoints(r.Context(), a.ID)
		if err != nil {
			h.serverError(w, r, err)
			return
		}
		for _, e := range eps {
			if !e.Enabled {
				d.DisabledHooks++
			}
		}
	}
	v := signedIn(s, "overview", "Overview")
	v.Notice = notice(r)
	v.Data = d
	h.render(w, r, http.StatusOK, "overview", v)
}

// dailySeries has one entry per day from first to today, zeros included.
func dailySeries(first, today time.Time, rows []limits.DayCalls) []dayUsage {
	var out []dayUsage
	index := map[string]int{}
	for d := first; !d.After(today); d = d.AddDate(0, 0, 1) {
		index[d.Format(time.DateOnly)] = len(out)
		out = append(out, dayUsage{Day: d})
	}
	for _, row := range rows {
		i, ok := index[row.Day]
		if !ok {
			continue
		}
		switch row.Channel {
		case limits.ChannelMCP:
			out[i].MCP += row.Calls
		default:
			out[i].REST += row.Calls
		}
	}
	return out
}

// chart is an inline SVG bar chart of quota units per day, drawn with plain
// elements: the Content-Security-Policy allows no script or inline style.
type chart struct {
	ID      string
	Width   int
	Height  int
	Font    int
	Bars    []bar
	Grid    []gridLine
	XLabels []axisLabel
	// PlotLeft, PlotRight and PlotBottom frame the plot; AxisX is where
	// the y-axis labels end.
	PlotLeft, PlotRight, PlotBottom, AxisX int
}

type bar struct {
	X, Y, W, H string
	Class      string
	Title      string
}

type gridLine struct {
	Y      string
	Label  string
	LabelY string
}

type axisLabel struct {
	X, Y  string
	Label string
}

type chartSize struct {
	width, height, font, labelEvery int
	id                              string
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten, so the axis reads
// 0 / 50 / 100 rather than 0 / 43 / 87.
func niceCeil(v int64) int64 {
	if v <= 4 {
		return 4
	}
	p := int64(1)
	for p*10 < v {
		p *= 10
	}
	for _, m := range []int64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func newChart(days []dayUsage, daysInMonth int, sz chartSize) chart {
	left, right, top, bottom := sz.font*4, 8, sz.font, sz.height-sz.font*2
	c := chart{ID: sz.id, Width: sz.width, Height: sz.height, Font: sz.font, PlotLeft: left, PlotRight: sz.width - right, PlotBottom: bottom, AxisX: left - 6}
	var peak int64
	for _, d := range days {
		peak = max(peak, d.REST, d.MCP)
	}
	top2 := niceCeil(peak)
	plotW := float64(sz.width - left - right)
	plotH := float64(bottom - top)
	slot := plotW / float64(daysInMonth)
	barW := slot * 0.4
	y := func(v int64) float64 { return float64(bottom) - float64(v)/float64(top2)*plotH }
	for _, frac := range []int64{0, 1, 2, 3, 4} {
		v := top2 * frac / 4
		c.Grid = append(c.Grid, gridLine{Y: f1(y(v)), Label: formatNum(v), LabelY: f1(y(v) + float64(sz.font)/3)})
	}
	for i, d := range days {
		x0 := float64(left) + slot*float64(i) + slot*0.1
		day := d.Day.Format("2 Jan")
		for j, s := range []struct {
			n     int64
			class string
			name  string
		}{{d.REST, "bar-rest", "REST"}, {d.MCP, "bar-mcp", "MCP"}} {
			if s.n == 0 {
				continue
			}
			h := max(1, float64(bottom)-y(s.n))
			c.Bars = append(c.Bars, bar{X: f1(x0 + barW*float64(j)), Y: f1(float64(bottom) - h), W: f1(barW), H: f1(h),
				Class: s.class, Title: fmt.Sprintf("%s: %s %s units", day, formatNum(s.n), s.name)})
		}
	}
	for day := 1; day <= daysInMonth; day++ {
		if day != 1 && day%sz.labelEvery != 0 {
			continue
		}
		x := float64(left) + slot*(float64(day)-0.5)
		c.XLabels = append(c.XLabels, axisLabel{X: f1(x), Y: strconv.Itoa(bottom + sz.font + 4), Label: strconv.Itoa(day)})
	}
	return c
}

package dashboard

import (
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/limits"
)

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"/dashboard/garage":              "/dashboard/garage",
		"/dashboard/garage/add?type=car": "/dashboard/garage/add?type=car",
		"":                               Prefix,
		"https://evil.example/":          Prefix,
		"//evil.example/":                Prefix,
		"/dashboard//evil.example":       Prefix,
		"/dashboard/\\evil":              Prefix,
		"/v1/me":                         Prefix,
		"/dashboard/x\r\nSet-Cookie: a":  Prefix,
	} {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFormatNum(t *testing.T) {
	for in, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 250000: "250,000", 1234567: "1,234,567", -1200: "-1,200"} {
		if got := formatNum(in); got != want {
			t.Errorf("formatNum(%d) = %q, want %q", in, got, want)
		}
	}
}

func TestChart(t *testing.T) {
	for in, want := range map[int64]int64{0: 4, 3: 4, 5: 5, 7: 10, 11: 20, 43: 50, 100: 100, 101: 200, 999: 1000} {
		if got := niceCeil(in); got != want {
			t.Errorf("niceCeil(%d) = %d, want %d", in, got, want)
		}
	}
	first := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	today := first.AddDate(0, 0, 9)
	days := dailySeries(first, today, []limits.DayCalls{
		{Day: "2026-02-03", Channel: "rest", Calls: 40}, {Day: "2026-02-03", Channel: "mcp", Calls: 10},
		{Day: "2026-02-10", Channel: "rest", Calls: 5}, {Day: "2026-01-31", Channel: "rest", Calls: 99},
	})
	if len(days) != 10 || days[2].REST != 40 || days[2].MCP != 10 || days[9].REST != 5 {
		t.Fatalf("dailySeries = %+v", days)
	}
	c := newChart(days, 28, chartSize{width: 640, height: 220, font: 13, labelEvery: 5, id: "wide"})
	if len(c.Bars) != 3 {
		t.Fatalf("bars = %d, want 3 (zero days draw nothing)", len(c.Bars))
	}
	// The highest bar reaches the top gridline (50, the nice ceiling of 40
	// rounds to 50, so 40 is at 80% of the plot).
	if c.Grid[len(c.Grid)-1].Label != "50" || !strings.HasPrefix(c.Bars[0].Title, "3 Feb: 40 REST units") || c.Bars[1].Class != "bar-mcp" {
		t.Fatalf("chart = %+v", c)
	}
	var labels []string
	for _, l := range c.XLabels {
		labels = append(labels, l.Label)
	}
	if strings.Join(labels, ",") != "1,5,10,15,20,25" {
		t.Fatalf("x labels = %v", labels)
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		0: "just now", 59 * time.Second: "just now", time.Minute: "1 minute ago", 5*time.Minute + 59*time.Second: "5 minutes ago",
		time.Hour: "1 hour ago", 47 * time.Hour: "1 day ago", 29 * 24 * time.Hour: "29 days ago", 31 * 24 * time.Hour: "21 Oct 2026",
		-30 * time.Second: "in less than a minute", -(59*time.Minute + 59*time.Second): "in 59 minutes", -24 * time.Hour: "in 1 day",
	} {
		if got := ago(now.Add(-d), now); got != want {
			t.Errorf("ago(now - %v) = %q, want %q", d, got, want)
		}
	}
}

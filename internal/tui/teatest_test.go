package tui

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/vds-dev/vds/client"
)

// These tests run the whole program through teatest: real key messages, the
// real command loop and renderer, the fake client behind it.

// waitFor bounds each wait; a loaded CI machine can take seconds to draw.
const waitFor = 30 * time.Second

// startTUI runs the TUI on fc in a 100×30 terminal.
func startTUI(t *testing.T, fc *fakeClient) *teatest.TestModel {
	t.Helper()
	return teatest.NewTestModel(t, New(fc, WithRenderer(plainRenderer())), teatest.WithInitialTermSize(100, 30))
}

// waitOutput waits until the output written since the last wait contains
// every one of want.
func waitOutput(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		s := ansi.Strip(string(b))
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(waitFor), teatest.WithCheckInterval(5*time.Millisecond))
}

// press sends one key.
func press(tm *teatest.TestModel, k tea.KeyType) { tm.Send(tea.KeyMsg{Type: k}) }

// quit presses q and returns the final model.
func quit(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	tm.Type("q")
	m, ok := tm.FinalModel(t, teatest.WithFinalTimeout(waitFor)).(Model)
	if !ok {
		t.Fatal("final model is not a Model")
	}
	if !m.quitting {
		t.Error("the final model is not quitting")
	}
	return m
}

func TestTeaBrowseToTires(t *testing.T) {
	t.Parallel()
	fc := newFake()
	tm := startTUI(t, fc)
	waitOutput(t, tm, "Cars", "Tire fitments", "q quit")

	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "Honda", "Tesla", "Toyota")
	tm.Type("/toy")
	// The filter result arrives asynchronously; wait for it before enter.
	waitOutput(t, tm, "Filter: toy", "2 filtered")
	press(tm, tea.KeyEnter) // apply the filter
	press(tm, tea.KeyEnter) // open Toyota
	waitOutput(t, tm, "Toyota: models", "Camry", "2019–2021")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "page 1 of 2", "2021 Toyota Camry XLE")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "Transmission", "Automatic", "t tires")
	tm.Type("t")
	waitOutput(t, tm, "225/50R17", "+1.2%", "│████─", "✓ in window", "245/45R19", "✗ outside")
	press(tm, tea.KeyEsc)
	waitOutput(t, tm, "Transmission")

	m := quit(t, tm)
	if m.state() != stateRecord {
		t.Errorf("final state %s, want record", m.state())
	}
	if got := len(m.stack); got != 5 {
		t.Errorf("stack depth %d, want 5 (types, makes, models, records, record)", got)
	}
}

func TestTeaVIN(t *testing.T) {
	t.Parallel()
	fc := newFake()
	tm := startTUI(t, fc)
	waitOutput(t, tm, "Decode a VIN")
	tm.Type("v")
	waitOutput(t, tm, "VIN or HIN: ", "enter decode")
	tm.Type(fakeVIN)
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "2019 Toyota Camry LE", "Georgetown", "Linked catalog records", "Catalog car · 2019 Toyota Camry LE",
		"Tire fitment · tire sizes for 2019 Toyota Camry LE")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "Transmission", "Automatic")

	m := quit(t, tm)
	if m.state() != stateRecord {
		t.Errorf("final state %s, want record", m.state())
	}
	rp := m.top().(*recordPage)
	if rp.rec.uuid() != fakeUUID(1) {
		t.Errorf("record %s, want the linked car %s", rp.rec.uuid(), fakeUUID(1))
	}
}

func TestTeaGarage(t *testing.T) {
	t.Parallel()
	tm := startTUI(t, newFake())
	waitOutput(t, tm, "My garage")
	tm.Type("g")
	waitOutput(t, tm, "2019 Toyota Camry", "daily driver", "(no longer in the catalog)")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "Transmission")
	tm.Type("r")
	waitOutput(t, tm, "19V123000", "PARK OUTSIDE")
	if m := quit(t, tm); m.state() != stateRecalls {
		t.Errorf("final state %s, want recalls", m.state())
	}
}

func TestTeaError(t *testing.T) {
	t.Parallel()
	fc := newFake()
	fc.setErr("Makes", errUnavailable)
	tm := startTUI(t, fc)
	waitOutput(t, tm, "Cars")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "✗ load car makes: vds: 503 upstream_unavailable")
	m := quit(t, tm)
	if !m.statusErr || m.loading() != "" {
		t.Errorf("statusErr=%v loading=%q, want an error and nothing loading", m.statusErr, m.loading())
	}
}

func TestTeaResize(t *testing.T) {
	t.Parallel()
	tm := startTUI(t, newFake())
	waitOutput(t, tm, "Cars")
	tm.Send(tea.WindowSizeMsg{Width: 40, Height: 12})
	// "with EPA fuel economy, tires, recalls" no longer fits beside "Cars".
	waitOutput(t, tm, "▸ Cars")
	m := quit(t, tm)
	if m.width != 40 || m.height != 12 {
		t.Fatalf("size %dx%d, want 40x12", m.width, m.height)
	}
	m.quitting = false
	v := m.View()
	lines := strings.Split(v, "\n")
	if len(lines) > 12 {
		t.Errorf("%d lines in a 12-line terminal", len(lines))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %d is %d wide in a 40-column terminal: %q", i, w, l)
		}
	}
}

func TestTeaQuit(t *testing.T) {
	t.Parallel()
	tm := startTUI(t, newFake())
	waitOutput(t, tm, "Cars")
	m := quit(t, tm)
	if m.state() != stateTypes {
		t.Errorf("final state %s, want types", m.state())
	}
	// Quitting leaves an empty last frame rather than a stale screen.
	if v := m.View(); v != "" {
		t.Errorf("view after q = %q, want empty", v)
	}
}

func TestRunStopsWithContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := Run(ctx, newFake(), strings.NewReader(""), &out)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want an error wrapping context.Canceled", err)
	}
}

// TestTeaEscapesServerText: a make name and an error detail from the server
// that hold a title escape, a clipboard write (OSC 52) and a bidi override
// are shown escaped, never written to the terminal raw.
func TestTeaEscapesServerText(t *testing.T) {
	fc := newFake()
	fc.motoMake = "Yama\x1b]0;pwned\x07ha\u202e"
	tm := startTUI(t, fc)
	waitOutput(t, tm, "Cars")
	waitRaw := func(want string) {
		t.Helper()
		var seen []byte
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			seen = b
			return bytes.Contains(b, []byte(want))
		}, teatest.WithDuration(waitFor), teatest.WithCheckInterval(5*time.Millisecond))
		for _, raw := range []string{"\x1b]0;", "\x1b]52;", "\x07", "\u202e"} {
			if bytes.Contains(seen, []byte(raw)) {
				t.Errorf("the terminal got %q raw", raw)
			}
		}
	}
	press(tm, tea.KeyDown)
	press(tm, tea.KeyEnter)
	waitRaw(`Yama\x1b]0;pwned\x07ha\u202e`)
	fc.setErr("Makes", &client.APIError{Status: 503, Code: client.CodeUpstreamUnavailable, Detail: "gone\x1b]52;c;cHduZWQ=\x07"})
	press(tm, tea.KeyEsc)
	press(tm, tea.KeyUp)
	press(tm, tea.KeyEnter)
	waitRaw(`gone\x1b]52;c;cHduZWQ=\x07`)
	quit(t, tm)
}

// TestPrintable: every string of a nested answer is escaped in place,
// behind pointers and in slices.
func TestPrintable(t *testing.T) {
	r := &client.CarRecalls{Coverage: "US\x1b[2J", Recalls: []client.Recall{{CampaignNumber: "19V\u202e1", Summary: ptr("a\x07b")}}}
	printable(r)
	if r.Coverage != `US\x1b[2J` || r.Recalls[0].CampaignNumber != `19V\u202e1` || *r.Recalls[0].Summary != `a\x07b` {
		t.Errorf("after printable: %+v, summary %q", r, *r.Recalls[0].Summary)
	}
}

// finalFrame quits and renders the final model's last frame, checking it
// fits a w×h terminal.
func finalFrame(t *testing.T, tm *teatest.TestModel, w, h int) string {
	t.Helper()
	m := quit(t, tm)
	m.quitting = false
	v := ansi.Strip(m.View())
	lines := strings.Split(v, "\n")
	if len(lines) > h {
		t.Errorf("%d lines in a %d-line terminal", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d wide in a %d-column terminal: %q", i, lw, w, l)
		}
	}
	return v
}

// TestTeaServerDown: at 80×24 an unreachable server reads "can't reach
// URL · r retry", not the dial error, and r fetches again.
func TestTeaServerDown(t *testing.T) {
	fc := newFake()
	fc.setErr("Makes", &url.Error{Op: "Get", URL: "http://127.0.0.1:8080/v1/cars/makes", Err: errors.New("dial tcp 127.0.0.1:8080: connect: connection refused")})
	tm := teatest.NewTestModel(t, New(fc, WithRenderer(plainRenderer())), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Cars")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "✗ load car makes: can't reach http://127.0.0.1:8080 · r retry")
	fc.setErr("Makes", nil)
	tm.Type("r")
	waitOutput(t, tm, "Toyota")
	frame := finalFrame(t, tm, 80, 24)
	if !strings.Contains(frame, "Toyota") || strings.Contains(frame, "✗") || strings.Contains(frame, "dial tcp") {
		t.Errorf("final frame after the retry:\n%s", frame)
	}
	if n := strings.Count(strings.Join(fc.called(), " "), "Makes"); n != 2 {
		t.Errorf("Makes called %d times, want 2 (the retry)", n)
	}
}

// TestTeaLongError: an error longer than the terminal is wrapped, not cut.
func TestTeaLongError(t *testing.T) {
	fc := newFake()
	fc.setErr("Makes", errors.New("vds: 503 upstream_unavailable: NHTSA is unavailable and nothing usable is cached; retry later. (request id 0123456789abcdef)"))
	tm := teatest.NewTestModel(t, New(fc, WithRenderer(plainRenderer())), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Cars")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "r retry")
	frame := strings.Join(strings.Fields(finalFrame(t, tm, 80, 24)), " ")
	if !strings.Contains(frame, "retry later. (request id 0123456789abcdef) · r retry") {
		t.Errorf("the error is cut:\n%s", frame)
	}
}

// TestTeaBreadcrumb: at 80×24 a deep stack keeps the record type and the
// newest crumbs, eliding the middle, and g goes back to the open garage
// instead of stacking another.
func TestTeaBreadcrumb(t *testing.T) {
	tm := openCamry80x24(t)
	// Recalls, the garage, a saved car, its recalls; then g again.
	for i := range 2 {
		if i > 0 {
			press(tm, tea.KeyEnter)
			waitOutput(t, tm, "Transmission")
		}
		tm.Type("r")
		waitOutput(t, tm, "PARK OUTSIDE")
		tm.Type("g")
		waitOutput(t, tm, "daily driver")
	}
	m := quit(t, tm)
	if len(m.stack) != 7 {
		t.Errorf("stack of %d pages after g went back to the garage, want 7", len(m.stack))
	}
	m.quitting = false
	header := strings.Split(ansi.Strip(m.View()), "\n")[0]
	if !strings.HasPrefix(header, "vds › Cars › … › ") || !strings.HasSuffix(strings.TrimSpace(header), "› Recalls › Garage") {
		t.Errorf("header %q, want the type, an ellipsis and the newest crumbs", header)
	}
}

// openCamry80x24 starts the TUI at 80×24 and opens the first Camry.
func openCamry80x24(t *testing.T) *teatest.TestModel {
	t.Helper()
	tm := teatest.NewTestModel(t, New(newFake(), WithRenderer(plainRenderer())), teatest.WithInitialTermSize(80, 24))
	waitOutput(t, tm, "Cars")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "Toyota")
	tm.Type("/toy")
	waitOutput(t, tm, "Filter: toy", "2 filtered")
	press(tm, tea.KeyEnter)
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "Camry")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "2021 Toyota Camry XLE")
	press(tm, tea.KeyEnter)
	waitOutput(t, tm, "Transmission")
	return tm
}

// TestTeaRecordUUID80x24: a record's uuid is on screen at 80×24, not below
// the fold.
func TestTeaRecordUUID80x24(t *testing.T) {
	tm := openCamry80x24(t)
	frame := finalFrame(t, tm, 80, 24)
	if !strings.Contains(frame, fakeUUID(1)) {
		t.Errorf("the uuid %s is not in the first screen:\n%s", fakeUUID(1), frame)
	}
}

// TestTeaTires80x24: at 80×24 the tire legend and every geometry figure,
// revs per mile included, are shown whole.
func TestTeaTires80x24(t *testing.T) {
	tm := openCamry80x24(t)
	tm.Type("t")
	waitOutput(t, tm, "225/50R17")
	frame := strings.Join(strings.Fields(finalFrame(t, tm, 80, 24)), " ")
	for _, want := range []string{
		"Bars span ±6% of the OEM diameter; [ ] is the ±3% window.",
		"OEM 215/55R17 ⌀ 26.31 in (668.3 mm) · 766.6 rev/mi width 215.0 mm · sidewall 118.3 mm",
	} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q:\n%s", want, frame)
		}
	}
}

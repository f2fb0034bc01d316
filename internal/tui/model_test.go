package tui

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/vds-dev/vds/client"
)

// plainRenderer renders without colour or attributes, so that tests can
// match the text.
func plainRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	return r
}

// newTest returns a model on fc, sized w×h.
func newTest(t *testing.T, fc *fakeClient, w, h int) Model {
	t.Helper()
	m := New(fc, WithRenderer(plainRenderer()))
	return drive(t, m, tea.WindowSizeMsg{Width: w, Height: h})
}

// Key messages as bubbletea delivers them.
var (
	enter     = tea.KeyMsg{Type: tea.KeyEnter}
	esc       = tea.KeyMsg{Type: tea.KeyEsc}
	backspace = tea.KeyMsg{Type: tea.KeyBackspace}
	down      = tea.KeyMsg{Type: tea.KeyDown}
	ctrlC     = tea.KeyMsg{Type: tea.KeyCtrlC}
)

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// typed returns one key message per rune of s, as a user types it.
func typed(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, runes(string(r)))
	}
	return out
}

// drive sends msgs to m one by one and, after each, runs the commands it
// returned and feeds their messages back until none are left, the way
// bubbletea's loop would. Spinner ticks are dropped (they would tick
// forever) and so is any command still running after a short wait: only
// timers block, the fake client answers at once.
func drive(t *testing.T, m Model, msgs ...tea.Msg) Model {
	t.Helper()
	for _, msg := range msgs {
		queue := []tea.Msg{msg}
		for len(queue) > 0 {
			next := queue[0]
			queue = queue[1:]
			nm, cmd := m.Update(next)
			m = nm.(Model)
			queue = append(queue, run(cmd)...)
		}
	}
	return m
}

// run executes cmd and returns the messages it produces, expanding
// batches.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(200 * time.Millisecond):
		return nil
	}
	switch msg := msg.(type) {
	case nil, spinner.TickMsg, tea.QuitMsg:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, run(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// quits reports whether cmd is or contains tea.Quit.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		return slices.ContainsFunc(msg, quits)
	}
	return false
}

// plain strips ANSI sequences from a view.
func plain(s string) string { return ansi.Strip(s) }

// assertState fails unless m shows st.
func assertState(t *testing.T, m Model, st state) {
	t.Helper()
	if m.state() != st {
		t.Fatalf("state = %s, want %s\n%s", m.state(), st, plain(m.View()))
	}
}

// assertView fails unless the view contains every one of want.
func assertView(t *testing.T, m Model, want ...string) {
	t.Helper()
	v := plain(m.View())
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Errorf("view lacks %q:\n%s", w, v)
		}
	}
}

// toRecord drives from the start to Camry #1's record page.
func toRecord(t *testing.T, m Model) Model {
	t.Helper()
	msgs := append([]tea.Msg{enter, runes("/")}, typed("toy")...)
	msgs = append(msgs, enter, enter, enter, enter)
	return drive(t, m, msgs...)
}

func TestStateString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    state
		want string
	}{
		{stateTypes, "types"}, {stateMakes, "makes"}, {stateModels, "models"}, {stateRecords, "records"},
		{stateRecord, "record"}, {stateTires, "tires"}, {stateRecalls, "recalls"}, {stateComplaints, "complaints"}, {stateVIN, "vin"},
		{stateGarage, "garage"}, {state(99), "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := tt.s.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestKindPlural(t *testing.T) {
	t.Parallel()
	for k, want := range map[client.Kind]string{client.KindCar: "Cars", client.KindMotorcycle: "Motorcycles",
		client.KindBoat: "Boats", client.KindTireSize: "Tire fitments"} {
		if got := kindPlural(k); got != want {
			t.Errorf("kindPlural(%s) = %q, want %q", k, got, want)
		}
	}
}

// atMakes drives a fresh model to the car makes. Each test starts from its
// own model: pages are pointers shared by successive Model values, as in
// any bubbletea program, so a model is not reused once updated.
func atMakes(t *testing.T, fc *fakeClient) Model {
	t.Helper()
	return drive(t, newTest(t, fc, 100, 30), enter)
}

func TestUpdateBrowse(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := newTest(t, fc, 100, 30)
	assertState(t, m, stateTypes)
	assertView(t, m, "Cars", "Motorcycles", "Boats", "Tire fitments", "Decode a VIN or HIN", "My garage", "q quit")

	// enter on Cars returns the command that opens the makes page; the
	// stack changes only when its message comes back.
	nm, cmd := m.Update(enter)
	m = nm.(Model)
	if m.state() != stateTypes || cmd == nil {
		t.Fatalf("enter should return the open command and leave the stack alone until it runs")
	}
	m = drive(t, m, run(cmd)...)
	assertState(t, m, stateMakes)
	if got := fc.called(); !slices.Equal(got, []string{"Makescar"}) {
		t.Errorf("calls = %q, want one Makes(car)", got)
	}
	assertView(t, m, "Cars: makes", "Honda", "Tesla", "Toyota", "13", "3 makes")

	m = drive(t, m, append(append([]tea.Msg{runes("/")}, typed("toy")...), enter, enter)...)
	assertState(t, m, stateModels)
	assertView(t, m, "Toyota: models", "Camry", "2019–2021", "Corolla", "2020")
	m = drive(t, m, enter)
	assertState(t, m, stateRecords)
	assertView(t, m, "page 1 of 2", "12 records", "2019 Toyota Camry LE", "Sedan")
	m = drive(t, m, enter)
	assertState(t, m, stateRecord)
	assertView(t, m, "2019 Toyota Camry LE", "Transmission", "Automatic", "City MPG                 28",
		"Engine displacement (L)  2.5", "t tires", "r recalls")
	assertView(t, m, "vds › Cars › Toyota › Camry › 2019 Toyota Camry LE")
	// The record came with the list: no GetCar.
	for _, c := range fc.called() {
		if strings.HasPrefix(c, "GetCar") {
			t.Errorf("unexpected %s: the list had the record", c)
		}
	}
	// Back up the stack, one page per esc or backspace.
	for _, want := range []state{stateRecords, stateModels, stateMakes, stateTypes} {
		m = drive(t, m, backspace)
		assertState(t, m, want)
	}
}

func TestUpdateFilterMakes(t *testing.T) {
	t.Parallel()
	m := drive(t, atMakes(t, newFake()), append([]tea.Msg{runes("/")}, typed("toy")...)...)
	assertState(t, m, stateMakes)
	p := m.top().(*makesPage)
	if p.list.FilterState() != list.Filtering {
		t.Fatalf("filter state = %s", p.list.FilterState())
	}
	if got := p.list.VisibleItems(); len(got) != 1 || got[0].(row).title != "Toyota" {
		t.Fatalf("visible = %v, want Toyota only", got)
	}
	assertView(t, m, "Filter: toy", "Toyota", "enter apply filter", "ctrl+c quit")
	if v := plain(m.View()); strings.Contains(v, "Honda") {
		t.Errorf("Honda should be filtered out:\n%s", v)
	}
	// enter applies the filter; esc then clears it, and the next esc goes back.
	m = drive(t, m, enter)
	if p.list.FilterState() != list.FilterApplied {
		t.Fatalf("filter state = %s, want applied", p.list.FilterState())
	}
	m = drive(t, m, esc)
	assertState(t, m, stateMakes)
	if n := len(p.list.VisibleItems()); n != 3 {
		t.Errorf("%d makes visible after clearing the filter, want 3", n)
	}
	m = drive(t, m, esc)
	assertState(t, m, stateTypes)
}

func TestUpdateFilterTakesQ(t *testing.T) {
	t.Parallel()
	m := drive(t, atMakes(t, newFake()), runes("/"))
	for _, k := range []tea.KeyMsg{runes("q"), runes("v"), runes("g")} {
		nm, cmd := m.Update(k)
		m = nm.(Model)
		if quits(cmd) || m.quitting {
			t.Fatal("q quit while typing a filter")
		}
	}
	assertState(t, m, stateMakes)
	if v := m.top().(*makesPage).list.FilterValue(); v != "qvg" {
		t.Errorf("filter = %q, want qvg", v)
	}
	// backspace edits the filter rather than going back.
	m = drive(t, m, backspace)
	assertState(t, m, stateMakes)
	if v := m.top().(*makesPage).list.FilterValue(); v != "qv" {
		t.Errorf("filter = %q, want qv", v)
	}
}

func TestUpdateRecordsPaging(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := toRecord(t, newTest(t, fc, 100, 30))
	m = drive(t, m, esc)
	assertState(t, m, stateRecords)
	p := m.top().(*recordsPage)
	if p.page != 1 || len(p.list.Items()) != 10 {
		t.Fatalf("page %d with %d rows, want page 1 with 10", p.page, len(p.list.Items()))
	}
	assertView(t, m, "n next page")

	// n fetches page 2: the command calls ListCars(page 2).
	nm, cmd := m.Update(runes("n"))
	m = nm.(Model)
	if m.top().base().loading == "" {
		t.Error("n should mark the page loading")
	}
	assertView(t, m, "Loading page 2")
	m = drive(t, m, run(cmd)...)
	if got := fc.called(); got[len(got)-1] != "ListCarsToyota/Camry/2" {
		t.Errorf("last call %q, want ListCars page 2", got[len(got)-1])
	}
	p = m.top().(*recordsPage)
	if p.page != 2 || len(p.list.Items()) != 2 {
		t.Fatalf("page %d with %d rows, want page 2 with 2", p.page, len(p.list.Items()))
	}
	assertView(t, m, "page 2 of 2", "p prev page")

	// n on the last page does nothing.
	if _, cmd := m.Update(runes("n")); cmd != nil {
		t.Error("n on the last page returned a command")
	}
	m = drive(t, m, runes("p"))
	if p := m.top().(*recordsPage); p.page != 1 {
		t.Errorf("after p: page %d, want 1", p.page)
	}
}

func TestUpdateTiresAndRecalls(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := toRecord(t, newTest(t, fc, 100, 40))
	m = drive(t, m, runes("t"))
	assertState(t, m, stateTires)
	assertView(t, m, "Tires: 2019 Toyota Camry LE", "fitments of its model year",
		"OEM  215/55R17", "225/50R17", "+1.2%", "✓ in window", "245/45R19", "+4.6%", "✗ outside", "[", "]", "█")
	m = drive(t, m, backspace, runes("r"))
	assertState(t, m, stateRecalls)
	assertView(t, m, "Recalls: 2019 Toyota Camry LE", "US (NHTSA)", "Crash ratings", "★★★★★", "19V123000",
		"FUEL SYSTEM", "PARK OUTSIDE", "Remedy")
	// Complaints are a page of their own, a call of their own.
	m = drive(t, m, backspace, runes("c"))
	assertState(t, m, stateComplaints)
	assertView(t, m, "Complaints: 2019 Toyota Camry LE", "NHTSA complaint files 2026-05-01", "Complaints (7)",
		"crashes 2  fires 1  injured 3  killed 0", "    5  ENGINE", "11500001  2023-03-01  ENGINE  CRASH 2 injured",
		"engine stalled", "1 of 7 shown")
	want := []string{"CarTireSizes" + fakeUUID(1), "CarRecalls" + fakeUUID(1), "CarComplaints" + fakeUUID(1)}
	if got := fc.called(); !slices.Equal(got[len(got)-3:], want) {
		t.Errorf("calls end %q, want %q", got[len(got)-3:], want)
	}
}

// Viewing recalls asks for recalls only; complaints that fail say why on
// their own page.
func TestComplaintsUnavailable(t *testing.T) {
	t.Parallel()
	fc := newFake()
	fc.setErr("CarComplaints", &client.APIError{Status: 503, Code: "upstream_unavailable", Detail: "NHTSA is unavailable"})
	m := drive(t, toRecord(t, newTest(t, fc, 100, 40)), runes("r"))
	assertState(t, m, stateRecalls)
	assertView(t, m, "19V123000")
	if got := fc.called(); slices.Contains(got, "CarComplaints"+fakeUUID(1)) {
		t.Errorf("the recalls page asked for complaints: calls %q", got)
	}
	m = drive(t, m, backspace, runes("c"))
	assertState(t, m, stateComplaints)
	assertView(t, m, "NHTSA is unavailable")
}

// atVIN drives a fresh model to the VIN screen, with the VIN decoded.
func atVIN(t *testing.T, fc *fakeClient) Model {
	t.Helper()
	m := drive(t, newTest(t, fc, 100, 40), runes("v"))
	assertState(t, m, stateVIN)
	return drive(t, m, append(typed(fakeVIN), enter)...)
}

func TestUpdateVIN(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := atVIN(t, fc)
	assertView(t, m, "2019 Toyota Camry LE", "Sedan/Saloon", "Georgetown, Kentucky", "Check     5 ✓ valid",
		"▸ Catalog car · 2019 Toyota Camry LE", "  Tire fitment · tire sizes for 2019 Toyota Camry LE")
	// A rule and a heading of their own set the links apart from the decode.
	if !regexp.MustCompile(`(?m)^─{20,} *\nLinked catalog records  1 car · 1 tire fitment of this make, model and year *\n▸ Catalog car`).
		MatchString(plain(m.View())) {
		t.Errorf("the links lack their rule and heading:\n%s", plain(m.View()))
	}
	if p := m.top().(*vinPage); p.editing {
		t.Error("focus should move to the links after a decode with links")
	}
	m = drive(t, m, enter)
	assertState(t, m, stateRecord)
	assertView(t, m, "2019 Toyota Camry LE", "Automatic")
	if got := fc.called(); got[len(got)-1] != "GetCar"+fakeUUID(1) {
		t.Errorf("last call %q, want GetCar", got[len(got)-1])
	}
	m = drive(t, m, runes("t"))
	assertState(t, m, stateTires)
	assertView(t, m, "225/50R17", "✓ in window")
}

// A VIN's linked motorcycles are rows after the cars and fitments, counted
// in the heading; enter opens the record.
func TestUpdateVINMotorcycleLink(t *testing.T) {
	t.Parallel()
	fc := newFake()
	fc.vinMotos = []string{fakeMoto}
	m := atVIN(t, fc)
	assertView(t, m, "1 motorcycle · 1 car · 1 tire fitment of this make, model and year", "  Catalog motorcycle · 2019 Toyota Camry LE")
	m = drive(t, m, down, down, enter)
	assertState(t, m, stateRecord)
	assertView(t, m, "Street Glide Special", "Street Motorcycle")
	if got := fc.called(); got[len(got)-1] != "GetMotorcycle"+fakeMoto {
		t.Errorf("last call %q, want GetMotorcycle", got[len(got)-1])
	}
}

// TestVINCalls: one user action, one call. A decode is DecodeVIN alone,
// however many records it links to; moving over the links costs nothing,
// opening one fetches that record, and going back fetches nothing.
func TestVINCalls(t *testing.T) {
	fc := newFake()
	for i := 1; i <= camryRecords; i++ {
		fc.vinCars = append(fc.vinCars, fakeUUID(i))
	}
	m := drive(t, newTest(t, fc, 100, 40), runes("v"))
	step := func(want []string, msgs ...tea.Msg) {
		t.Helper()
		before := len(fc.called())
		m = drive(t, m, msgs...)
		if got := fc.called()[before:]; !slices.Equal(got, want) {
			t.Errorf("calls %q, want %q", got, want)
		}
	}
	step([]string{"DecodeVIN" + fakeVIN}, append(typed(fakeVIN), enter)...)
	assertView(t, m, "12 cars · 1 tire fitment")
	step(nil, down, down, tea.KeyMsg{Type: tea.KeyUp}, tea.KeyMsg{Type: tea.KeyUp})
	step([]string{"GetCar" + fakeUUID(1)}, enter)
	assertState(t, m, stateRecord)
	step(nil, esc)
	assertState(t, m, stateVIN)
	step([]string{"GetCar" + fakeUUID(2)}, down, enter)
}

func TestUpdateVINTyping(t *testing.T) {
	t.Parallel()
	m := drive(t, newTest(t, newFake(), 100, 40), runes("v"))
	// q, v, g and backspace are text in the VIN input.
	m = drive(t, m, typed("qvg")...)
	assertState(t, m, stateVIN)
	if m.quitting {
		t.Fatal("q quit from the VIN input")
	}
	if v := m.top().(*vinPage).input.Value(); v != "qvg" {
		t.Errorf("input = %q, want qvg", v)
	}
	m = drive(t, m, backspace)
	assertState(t, m, stateVIN)
	if v := m.top().(*vinPage).input.Value(); v != "qv" {
		t.Errorf("input = %q after backspace, want qv", v)
	}
	assertView(t, m, "enter decode", "ctrl+c quit")
	// esc still goes back.
	m = drive(t, m, esc)
	assertState(t, m, stateTypes)
}

func TestUpdateVINTireLink(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := drive(t, atVIN(t, fc), down, enter)
	assertState(t, m, stateRecord)
	assertView(t, m, "OEM tire size", "215/55R17", "t tires")
	m = drive(t, m, runes("t"))
	assertView(t, m, "225/50R17", "✓ in window", "245/45R19", "✗ outside")
	if got := fc.called(); got[len(got)-1] != "TireGeometry"+tireFitID {
		t.Errorf("last call %q, want TireGeometry", got[len(got)-1])
	}
}

// TestUpdatePlusSizes: p on a fitment opens its plus sizes, by rim, each
// with its bar; on a car it does nothing.
func TestUpdatePlusSizes(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := drive(t, atVIN(t, fc), enter)
	assertState(t, m, stateRecord)
	before := len(fc.called())
	m = drive(t, m, runes("p"))
	assertState(t, m, stateRecord)
	if got := fc.called()[before:]; len(got) != 0 {
		t.Errorf("p on a car called %q", got)
	}
	m = drive(t, m, esc, down, enter)
	assertView(t, m, "OEM tire size", "p plus sizes")
	m = drive(t, m, runes("p"))
	assertState(t, m, statePlus)
	assertView(t, m, "Plus sizes", "within ±3% of the OEM diameter", "16 in rim (-1)", "none within the window",
		"215/55R17*", "225/45R18", "-1.3%", "@60.8", "91 XL", "load index 91 (615 kg)")
	if got := fc.called(); got[len(got)-1] != "TirePlusSizes"+tireFitID {
		t.Errorf("last call %q, want TirePlusSizes", got[len(got)-1])
	}
	m = drive(t, m, esc)
	assertState(t, m, stateRecord)
}

// TestUpdateHIN: the VIN input recognises a boat's HIN, written with spaces
// or hyphens, decodes it with one call and links its boats.
func TestUpdateHIN(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := drive(t, newTest(t, fc, 100, 40), runes("v"))
	m = drive(t, m, append(typed("ser 12345-a9 19"), enter)...)
	assertView(t, m, "SER · SEA RAY BOATS, KNOXVILLE, TN", "Built     January 2019", "Model yr  2019", `2 - a doubtful \x1b[31mwarning`,
		"1 boat of this maker and model year", "▸ Catalog boat · SEA RAY BOATS, model year 2019")
	if got := fc.called(); got[len(got)-1] != "DecodeHINser 12345-a9 19" {
		t.Errorf("last call %q, want DecodeHIN", got[len(got)-1])
	}
	m = drive(t, m, enter)
	assertState(t, m, stateRecord)
	if got := fc.called(); got[len(got)-1] != "GetBoat"+fakeUUID(3) {
		t.Errorf("last call %q, want GetBoat", got[len(got)-1])
	}
	m = drive(t, m, esc, runes("/"), tea.KeyMsg{Type: tea.KeyCtrlU})
	m = drive(t, m, append(typed("SER12O45A919"), enter)...)
	assertView(t, m, "✗ decode SER12O45A919", "invalid_hin")
	// A VIN in the same input still decodes as a VIN.
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyCtrlU})
	m = drive(t, m, append(typed(fakeVIN), enter)...)
	assertView(t, m, "2019 Toyota Camry LE", "Check     5 ✓ valid")
}

func TestUpdateVINInvalid(t *testing.T) {
	t.Parallel()
	// / returns to the input; ctrl+u clears it.
	m := drive(t, atVIN(t, newFake()), runes("/"), tea.KeyMsg{Type: tea.KeyCtrlU})
	m = drive(t, m, append(typed("X"), enter)...)
	assertState(t, m, stateVIN)
	assertView(t, m, "✗ decode X", "invalid_vin")
}

func TestUpdateGarage(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := drive(t, newTest(t, fc, 100, 30), runes("g"))
	assertState(t, m, stateGarage)
	assertView(t, m, "My garage", "2019 Toyota Camry", "daily driver", "(no longer in the catalog)",
		"VIN "+fakeVIN, "1 open recalls, 1 new")
	m = drive(t, m, down, enter)
	assertState(t, m, stateGarage)
	assertView(t, m, "left the catalog")
	m = drive(t, m, tea.KeyMsg{Type: tea.KeyUp}, enter)
	assertState(t, m, stateRecord)
	assertView(t, m, "2019 Toyota Camry LE")

	// The VIN opens its catalog car.
	m = drive(t, newTest(t, fc, 100, 30), runes("g"), down, down, enter)
	assertState(t, m, stateRecord)
	assertView(t, m, "2019 Toyota Camry LE")
}

func TestUpdateErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		method string
		keys   []tea.Msg
		state  state
	}{
		{"makes", "Makes", []tea.Msg{enter}, stateMakes},
		{"garage", "Lists", []tea.Msg{runes("g")}, stateGarage},
		{"vin", "DecodeVIN", append(typed(fakeVIN), enter), stateVIN},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := newFake()
			fc.setErr(tt.method, errUnavailable)
			m := newTest(t, fc, 100, 30)
			if tt.name == "vin" {
				m = drive(t, m, runes("v"))
			}
			m = drive(t, m, tt.keys...)
			assertState(t, m, tt.state)
			if m.loading() != "" {
				t.Errorf("still loading %q after the error", m.loading())
			}
			assertView(t, m, "✗ ", "503 upstream_unavailable")
			// Leaving the page clears the error.
			m = drive(t, m, esc)
			if v := plain(m.View()); strings.Contains(v, "upstream_unavailable") {
				t.Errorf("error still shown after going back:\n%s", v)
			}
		})
	}
}

func TestUpdateLateAnswerDropped(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := newTest(t, fc, 80, 24)
	nm, cmd := m.Update(enter)
	m = nm.(Model)
	open := run(cmd)
	nm, fetch := m.Update(open[0])
	m = nm.(Model)
	assertState(t, m, stateMakes)
	// Go back before the answer arrives; it must not land on the types page.
	m = drive(t, m, esc)
	m = drive(t, m, run(fetch)...)
	assertState(t, m, stateTypes)
	assertView(t, m, "What do you want to browse?")
	if m.loading() != "" {
		t.Errorf("loading %q with the page gone", m.loading())
	}
}

func TestUpdateSpinner(t *testing.T) {
	t.Parallel()
	fc := newFake()
	m := newTest(t, fc, 80, 24)
	nm, cmd := m.Update(enter)
	m = nm.(Model)
	nm, cmd = m.Update(run(cmd)[0])
	m = nm.(Model)
	if !m.spinning {
		t.Fatal("the spinner should start with the fetch")
	}
	assertView(t, m, "Loading makes")
	// The answer arrives; the next tick stops the spinner.
	var tick tea.Msg
	for _, msg := range run(cmd) {
		if _, ok := msg.(makesMsg); ok {
			m = drive(t, m, msg)
		}
	}
	tick = m.spinner.Tick()
	nm, next := m.Update(tick)
	m = nm.(Model)
	if m.spinning || next != nil {
		t.Error("the spinner kept ticking with nothing loading")
	}
}

func TestUpdateQuitAndBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		msg  tea.KeyMsg
	}{{"q", runes("q")}, {"ctrl+c", ctrlC}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTest(t, newFake(), 80, 24)
			m = drive(t, m, enter)
			nm, cmd := m.Update(tt.msg)
			if !quits(cmd) || !nm.(Model).quitting {
				t.Fatal("did not quit")
			}
			if v := nm.(Model).View(); v != "" {
				t.Errorf("view after quit = %q, want empty", v)
			}
		})
	}
	t.Run("esc on the first page stays", func(t *testing.T) {
		m := drive(t, newTest(t, newFake(), 80, 24), esc, backspace)
		assertState(t, m, stateTypes)
	})
}

func TestViewFitsWindow(t *testing.T) {
	t.Parallel()
	sizes := []struct{ w, h int }{{120, 40}, {80, 24}, {50, 16}, {30, 10}, {20, 6}}
	screens := []struct {
		name string
		keys []tea.Msg
	}{
		{"types", nil},
		{"makes", []tea.Msg{enter}},
		{"record", append(append([]tea.Msg{enter, runes("/")}, typed("toy")...), enter, enter, enter, enter)},
		{"tires", append(append([]tea.Msg{enter, runes("/")}, typed("toy")...), enter, enter, enter, enter, runes("t"))},
		{"recalls", append(append([]tea.Msg{enter, runes("/")}, typed("toy")...), enter, enter, enter, enter, runes("r"))},
		{"vin", append(append([]tea.Msg{runes("v")}, typed(fakeVIN)...), enter)},
		{"garage", []tea.Msg{runes("g"), runes("?")}},
	}
	for _, sc := range screens {
		m := drive(t, newTest(t, newFake(), 100, 30), sc.keys...)
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.name, sz.w, sz.h), func(t *testing.T) {
				m := drive(t, m, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
				v := m.View()
				lines := strings.Split(v, "\n")
				if len(lines) > sz.h {
					t.Errorf("%d lines, want at most %d", len(lines), sz.h)
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w > sz.w {
						t.Errorf("line %d is %d wide, want at most %d: %q", i, w, sz.w, l)
					}
				}
				// The help line is always the last one.
				if last := plain(lines[len(lines)-1]); !strings.Contains(last, "quit") && !strings.Contains(last, "…") && sz.w >= 30 && !m.help.ShowAll {
					t.Errorf("last line %q is not the help", last)
				}
			})
		}
	}
}

func TestHelpToggle(t *testing.T) {
	t.Parallel()
	m := newTest(t, newFake(), 100, 30)
	short := strings.Count(m.View(), "\n")
	m = drive(t, m, runes("?"))
	if !m.help.ShowAll {
		t.Fatal("? did not expand the help")
	}
	if got := strings.Count(m.View(), "\n"); got != short {
		t.Errorf("the frame changed height from %d to %d lines: the body should shrink instead", short, got)
	}
	// Full help: the page's keys and the global ones in columns, with
	// the list's paging keys that the one-line help leaves out.
	if !regexp.MustCompile(`(?m)^home +first`).MatchString(plain(m.View())) {
		t.Errorf("no home key in the full help:\n%s", plain(m.View()))
	}
	if !regexp.MustCompile(`(?m)↑/k +up +v VIN`).MatchString(plain(m.View())) {
		t.Errorf("no help columns:\n%s", plain(m.View()))
	}
	m = drive(t, m, runes("?"))
	if m.help.ShowAll {
		t.Error("? did not collapse the help")
	}
}

func TestNoColor(t *testing.T) {
	// CLICOLOR_FORCE gives colour without a terminal, so that the test
	// can tell NO_COLOR's effect from a pipe's.
	t.Setenv("CLICOLOR_FORCE", "1")
	view := func() string {
		m := New(newFake(), WithRenderer(lipgloss.NewRenderer(&strings.Builder{})))
		return drive(t, m, tea.WindowSizeMsg{Width: 80, Height: 24}).View()
	}
	if v := view(); !strings.Contains(v, "\x1b[") {
		t.Fatalf("no colour even when forced: %q", v)
	}
	t.Setenv("NO_COLOR", "1")
	if v := view(); strings.Contains(v, "\x1b[") {
		t.Errorf("NO_COLOR output has escape sequences: %q", v)
	}
}

func TestErrorWrapsClientError(t *testing.T) {
	t.Parallel()
	msg := fail(1, "load car makes", errUnavailable)
	e, ok := msg.(errMsg)
	if !ok || !errors.Is(e.err, errUnavailable) {
		t.Fatalf("fail() = %#v, want an errMsg wrapping the client error", msg)
	}
}

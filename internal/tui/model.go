package tui

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// state names the screen on top of the stack.
type state int

// The screens.
const (
	stateTypes state = iota
	stateMakes
	stateModels
	stateRecords
	stateRecord
	stateTires
	stateRecalls
	stateVIN
	stateGarage
)

// String returns the screen's name, for tests and debugging.
func (s state) String() string {
	switch s {
	case stateTypes:
		return "types"
	case stateMakes:
		return "makes"
	case stateModels:
		return "models"
	case stateRecords:
		return "records"
	case stateRecord:
		return "record"
	case stateTires:
		return "tires"
	case stateRecalls:
		return "recalls"
	case stateVIN:
		return "vin"
	case stateGarage:
		return "garage"
	}
	return "unknown"
}

// common is what every page needs. Pages get it as an argument rather than
// keeping a copy, so that a resize or a new style reaches them all.
type common struct {
	// ctx bounds every request, so that quitting cancels what is in
	// flight; bubbletea models have no other place to keep it.
	ctx    context.Context
	client Client
	styles *Styles
	keys   *KeyMap
	// width and height are the terminal's.
	width, height int
	// spin is the spinner's current frame, filled in for View only.
	spin string
}

// page is one screen. Pages are pointers owned by the root's stack and
// change only inside update.
type page interface {
	// base gives the root the fields it manages: id, size, loading.
	base() *pageBase
	state() state
	// crumb is the page's part of the breadcrumb in the header.
	crumb() string
	// init returns the page's first fetch, run when it is pushed.
	init(c *common) tea.Cmd
	update(c *common, msg tea.Msg) tea.Cmd
	view(c *common) string
	// help lists the page's own bindings for the help line.
	help(c *common) []key.Binding
	// captures reports whether the page takes the key before the global
	// bindings: every key while it is typing, esc while a filter is
	// applied (esc clears it before it goes back).
	captures(msg tea.KeyMsg) bool
	// typing reports whether a text input has focus: q, v, g and
	// backspace are then text, and the help line says so.
	typing() bool
	// setSize gives the page the body's size.
	setSize(c *common, w, h int)
}

// moreHelper is a page with keys for the full help only, such as a
// list's paging keys.
type moreHelper interface {
	moreHelp(c *common) []key.Binding
}

// pageBase holds what all pages share and default implementations.
type pageBase struct {
	id            pageID
	width, height int
	// loading says what the page waits for ("makes"); "" when idle. The
	// root shows the spinner while any page on the stack is loading.
	loading string
}

func (b *pageBase) base() *pageBase             { return b }
func (b *pageBase) setSize(_ *common, w, h int) { b.width, b.height = w, h }
func (b *pageBase) captures(tea.KeyMsg) bool    { return false }
func (b *pageBase) typing() bool                { return false }
func (b *pageBase) init(*common) tea.Cmd        { return nil }

// statusMsg puts an informational line in the status bar.
type statusMsg string

// Model is the root bubbletea model: the shared state, a stack of pages
// (the top one is on screen), the spinner, the help line and the status
// line. Successive values returned by Update share their pages, as
// bubbletea models that hold pointers do: keep using the latest one.
type Model struct {
	common
	stack    []page
	nextID   pageID
	spinner  spinner.Model
	spinning bool
	help     help.Model
	// status is the status line's text; statusErr makes it an error.
	status    string
	statusErr bool
	quitting  bool
}

// Option configures New.
type Option func(*Model)

// WithContext bounds the TUI's requests by ctx.
func WithContext(ctx context.Context) Option {
	return func(m *Model) { m.ctx = ctx }
}

// WithRenderer renders the styles for r's output (colour profile,
// NO_COLOR) instead of stdout's.
func WithRenderer(r *lipgloss.Renderer) Option {
	return func(m *Model) { m.styles = NewStyles(r) }
}

// Default size until the terminal reports its own.
const (
	defaultWidth  = 80
	defaultHeight = 24
)

// New returns the root model on the record-type screen.
func New(c Client, opts ...Option) Model {
	m := Model{common: common{ctx: context.Background(), client: c, keys: DefaultKeyMap(),
		width: defaultWidth, height: defaultHeight}}
	for _, o := range opts {
		o(&m)
	}
	if m.styles == nil {
		m.styles = NewStyles(nil)
	}
	m.spinner = spinner.New(spinner.WithSpinner(dots()), spinner.WithStyle(m.styles.Spinner))
	m.help = help.New()
	m.help.Styles = m.styles.Help
	m.help.Width = m.width
	_ = m.push(newTypesPage(&m.common))
	return m
}

// dots is spinner.Dot without the space after each frame, so that the
// spinner lines up with the text after it.
func dots() spinner.Spinner {
	sp := spinner.Dot
	sp.Frames = make([]string, len(spinner.Dot.Frames))
	for i, f := range spinner.Dot.Frames {
		sp.Frames[i] = strings.TrimSpace(f)
	}
	return sp
}

// Init implements tea.Model. The first screen needs no data.
func (m Model) Init() tea.Cmd { return nil }

// top returns the page on screen.
func (m Model) top() page { return m.stack[len(m.stack)-1] }

// state returns the screen on top.
func (m Model) state() state { return m.top().state() }

// Update implements tea.Model: global keys and window size here, the rest
// to the page it concerns.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.layout()
	// Start the spinner when something began loading; it stops itself
	// (see spinner.TickMsg) once nothing is.
	if !m.spinning && m.loading() != "" {
		m.spinning = true
		cmd = tea.Batch(cmd, m.spinner.Tick)
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
		return nil

	case spinner.TickMsg:
		if m.loading() == "" {
			m.spinning = false
			return nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return cmd

	case openMsg:
		return m.push(msg.p)

	case statusMsg:
		m.status, m.statusErr = string(msg), false
		return nil

	case tea.KeyMsg:
		return m.key(msg)

	case addressed:
		p := m.find(msg.target())
		if p == nil {
			// The page that asked is gone: the user moved on.
			return nil
		}
		if e, ok := msg.(errMsg); ok {
			m.status, m.statusErr = e.err.Error(), true
		} else if p == m.top() && m.statusErr {
			// Fresh data for the screen in view supersedes an old error.
			m.status, m.statusErr = "", false
		}
		return p.update(&m.common, msg)
	}
	// Component messages (list filter results, cursor blinks) belong to
	// the page on screen.
	return m.top().update(&m.common, msg)
}

// key handles a key press: ctrl+c always quits; a page taking text gets
// every other key; otherwise the global bindings come first.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	if key.Matches(msg, k.ForceQuit) {
		m.quitting = true
		return tea.Quit
	}
	top := m.top()
	if top.captures(msg) {
		return top.update(&m.common, msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		m.quitting = true
		return tea.Quit
	case key.Matches(msg, k.Back):
		m.pop()
		return nil
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
		return nil
	case key.Matches(msg, k.VIN):
		if m.state() != stateVIN {
			return m.push(newVINPage(&m.common))
		}
	case key.Matches(msg, k.Garage):
		if m.state() != stateGarage {
			return m.push(newGaragePage(&m.common))
		}
	}
	return top.update(&m.common, msg)
}

// push puts p on screen and starts its first fetch.
func (m *Model) push(p page) tea.Cmd {
	m.nextID++
	p.base().id = m.nextID
	m.stack = append(m.stack, p)
	m.status, m.statusErr = "", false
	m.layout()
	return p.init(&m.common)
}

// pop goes back one page; the first page stays.
func (m *Model) pop() {
	if len(m.stack) > 1 {
		m.stack = m.stack[:len(m.stack)-1]
		m.status, m.statusErr = "", false
	}
}

// find returns the page with id, or nil when it has left the stack.
func (m *Model) find(id pageID) page {
	for _, p := range m.stack {
		if p.base().id == id {
			return p
		}
	}
	return nil
}

// loading returns what the top-most loading page waits for, or "".
func (m *Model) loading() string {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if l := m.stack[i].base().loading; l != "" {
			return l
		}
	}
	return ""
}

// layout gives the page on screen the body's size, which depends on the
// help's height and so on the page and on ? as well as the window.
func (m *Model) layout() {
	w, h := m.width, m.bodyHeight()
	if b := m.top().base(); b.width != w || b.height != h {
		m.top().setSize(&m.common, w, h)
	}
}

// bodyHeight is what remains for the page under the header and above the
// status and help lines.
func (m *Model) bodyHeight() int {
	return max(1, m.height-2-lipgloss.Height(m.helpView()))
}

// helpKeys combines the page's bindings with the global ones that apply.
// While a page takes text only ctrl+c is global.
func (m *Model) helpKeys() helpKeys {
	top, k := m.top(), m.keys
	h := helpKeys{page: top.help(&m.common)}
	if mh, ok := top.(moreHelper); ok {
		h.more = mh.moreHelp(&m.common)
	}
	if top.typing() {
		h.pinned = []key.Binding{k.ForceQuit}
		return h
	}
	if top.state() != stateVIN {
		h.global = append(h.global, k.VIN)
	}
	if top.state() != stateGarage {
		h.global = append(h.global, k.Garage)
	}
	if len(m.stack) > 1 {
		h.pinned = append(h.pinned, k.Back)
	}
	h.pinned = append(h.pinned, k.Help, k.Quit)
	return h
}

// helpView renders the help: the full columns after ?, else one line
// whose pinned keys are drawn first and whose other keys get the width
// left, so that a narrow terminal loses "g garage" before "q quit".
func (m *Model) helpView() string {
	hk := m.helpKeys()
	if m.help.ShowAll {
		return m.help.View(hk)
	}
	pinned := m.shortHelp(hk.pinned, 0)
	sep := m.styles.Help.ShortSeparator.Render(m.help.ShortSeparator)
	rest := m.shortHelp(append(append([]key.Binding{}, hk.page...), hk.global...),
		m.width-lipgloss.Width(pinned)-lipgloss.Width(sep))
	if rest == "" {
		return pinned
	}
	return rest + sep + pinned
}

// shortHelp renders bindings on one line of at most width cells (0: no
// limit), dropping those that do not fit. The help bubble's own
// ShortHelpView stops truncating when its ellipsis does not fit either,
// and then overflows.
func (m *Model) shortHelp(bindings []key.Binding, width int) string {
	st := m.styles.Help
	sep := st.ShortSeparator.Render(m.help.ShortSeparator)
	var b strings.Builder
	for _, kb := range bindings {
		if !kb.Enabled() {
			continue
		}
		item := st.ShortKey.Render(kb.Help().Key) + " " + st.ShortDesc.Render(kb.Help().Desc)
		if b.Len() > 0 {
			item = sep + item
		}
		if width > 0 && lipgloss.Width(b.String()+item) > width {
			if ell := " " + st.Ellipsis.Render(m.help.Ellipsis); lipgloss.Width(b.String()+ell) <= width {
				b.WriteString(ell)
			}
			break
		}
		b.WriteString(item)
	}
	return b.String()
}

// View implements tea.Model: header, page, status line, help.
func (m Model) View() string {
	if m.quitting {
		return ""
	}
	c := m.common
	c.spin = m.spinner.View()
	helpView := m.helpView()
	bodyH := max(1, m.height-2-lipgloss.Height(helpView))
	body := lipgloss.NewStyle().Height(bodyH).MaxHeight(bodyH).Render(m.top().view(&c))
	out := strings.Join([]string{m.headerView(), body, m.statusView(), helpView}, "\n")
	// The final clamp is what guarantees the frame fits the terminal,
	// whatever a page renders.
	return lipgloss.NewStyle().MaxWidth(m.width).MaxHeight(m.height).Render(out)
}

// headerView is the brand and the breadcrumb of the stack. When it is
// too wide the oldest crumbs give way, since the newest say where the user
// is.
func (m Model) headerView() string {
	st := m.styles
	sep := st.CrumbSep.Render(" › ")
	crumbs := make([]string, 0, len(m.stack))
	for _, p := range m.stack[1:] {
		crumbs = append(crumbs, st.Crumb.Render(p.crumb()))
	}
	brand := st.Brand.Render("vds")
	for i := 0; i <= len(crumbs); i++ {
		parts := append([]string{brand}, crumbs[i:]...)
		if i > 0 {
			parts = append([]string{brand, st.CrumbSep.Render("…")}, crumbs[i:]...)
		}
		if s := strings.Join(parts, sep); lipgloss.Width(s) <= m.width || i == len(crumbs) {
			return st.Header.Render(s)
		}
	}
	return brand
}

// statusView is the spinner while the screen loads, else the last error
// or note.
func (m Model) statusView() string {
	st := m.styles
	switch {
	case m.top().base().loading != "":
		// Only the screen in view: a page further down that is still
		// loading would make this line talk about something not shown.
		return m.spinner.View() + st.StatusInfo.Render(" Loading "+m.top().base().loading+"…")
	case m.statusErr:
		return st.StatusError.Render("✗ " + m.status)
	default:
		return st.StatusInfo.Render(m.status)
	}
}

package tui

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/vds-dev/vds/internal/textfmt"
)

type state int

const (
	stateTypes state = iota
	stateMakes
	stateModels
	stateRecords
	stateRecord
	stateTires
	statePlus
	stateRecalls
	stateComplaints
	stateVIN
	stateGarage
)

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
	case statePlus:
		return "plus sizes"
	case stateRecalls:
		return "recalls"
	case stateComplaints:
		return "complaints"
	case stateVIN:
		return "vin"
	case stateGarage:
		return "garage"
	}
	return "unknown"
}

// common is what every page needs, passed in rather than copied so a resize reaches all.
type common struct {
	// ctx bounds every request, so quitting cancels what is in flight.
	ctx           context.Context
	client        Client
	styles        *Styles
	keys          *KeyMap
	width, height int
	// spin is the spinner's frame, filled in for View only.
	spin string
}

// page is one screen, owned by the root's stack and changed only in update.
type page interface {
	base() *pageBase
	state() state
	crumb() string
	// init returns the page's first fetch.
	init(c *common) tea.Cmd
	update(c *common, msg tea.Msg) tea.Cmd
	view(c *common) string
	help(c *common) []key.Binding
	// captures takes keys before the global bindings: all while typing, esc
	// while a filter is applied.
	captures(msg tea.KeyMsg) bool
	// typing: a text input has focus, so q, v, g and backspace are text.
	typing() bool
	setSize(c *common, w, h int)
}

type moreHelper interface {
	moreHelp(c *common) []key.Binding
}

type pageBase struct {
	id            pageID
	width, height int
	// loading says what the page waits for ("makes"); "" when idle.
	loading string
}

func (b *pageBase) base() *pageBase             { return b }
func (b *pageBase) setSize(_ *common, w, h int) { b.width, b.height = w, h }
func (b *pageBase) captures(tea.KeyMsg) bool    { return false }
func (b *pageBase) typing() bool                { return false }
func (b *pageBase) init(*common) tea.Cmd        { return nil }

type statusMsg string

// Model is the root bubbletea model. Successive values returned by Update
// share their pages: keep using the latest one.
type Model struct {
	common
	stack     []page
	nextID    pageID
	spinner   spinner.Model
	spinning  bool
	help      help.Model
	status    string
	statusErr bool
	// retry refetches what the error in the status line failed to load.
	retry        tea.Cmd
	retryPage    pageID
	retryLoading string
	quitting     bool
}

// Option configures New.
type Option func(*Model)

// WithContext bounds the TUI's requests by ctx.
func WithContext(ctx context.Context) Option {
	return func(m *Model) { m.ctx = ctx }
}

// WithRenderer renders the styles for r's output instead of stdout's.
func WithRenderer(r *lipgloss.Renderer) Option {
	return func(m *Model) { m.styles = NewStyles(r) }
}

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

// dots is spinner.Dot without the trailing space, to line up with the text.
func dots() spinner.Spinner {
	sp := spinner.Dot
	sp.Frames = make([]string, len(spinner.Dot.Frames))
	for i, f := range spinner.Dot.Frames {
		sp.Frames[i] = strings.TrimSpace(f)
	}
	return sp
}

// Init implements tea.Model; the first screen needs no data.
func (m Model) Init() tea.Cmd { return nil }

func (m Model) top() page { return m.stack[len(m.stack)-1] }

func (m Model) state() state { return m.top().state() }

// Update implements tea.Model: global keys and size here, the rest to its page.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := retryable(m.update(msg))
	m.layout()
	// The spinner stops itself once nothing loads.
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
			return nil
		}
		if e, ok := msg.(errMsg); ok {
			m.status, m.statusErr = textfmt.Printable(e.what+": "+errText(e.err)), true
			m.retry, m.retryPage, m.retryLoading = e.retry, p.base().id, p.base().loading
		} else if p == m.top() && m.statusErr {
			m.clearStatus()
		}
		return p.update(&m.common, msg)
	}
	return m.top().update(&m.common, msg)
}

// key: ctrl+c always quits; a typing page gets the rest; else global bindings first.
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
	case m.retry != nil && key.Matches(msg, k.Retry):
		retry := m.retry
		if p := m.find(m.retryPage); p != nil {
			p.base().loading = m.retryLoading
		}
		m.clearStatus()
		return retry
	case key.Matches(msg, k.Back):
		m.pop()
		return nil
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
		return nil
	case key.Matches(msg, k.VIN):
		if m.state() != stateVIN && !m.popTo(stateVIN) {
			return m.push(newVINPage(&m.common))
		}
	case key.Matches(msg, k.Garage):
		if m.state() != stateGarage && !m.popTo(stateGarage) {
			return m.push(newGaragePage(&m.common))
		}
	}
	return top.update(&m.common, msg)
}

func (m *Model) push(p page) tea.Cmd {
	m.nextID++
	p.base().id = m.nextID
	m.stack = append(m.stack, p)
	m.clearStatus()
	m.layout()
	return p.init(&m.common)
}

func (m *Model) pop() {
	if len(m.stack) > 1 {
		m.stack = m.stack[:len(m.stack)-1]
		m.clearStatus()
	}
}

// popTo goes back to an open page of state s, so v and g do not stack
// VIN and garage screens without end.
func (m *Model) popTo(s state) bool {
	for i := len(m.stack) - 1; i > 0; i-- {
		if m.stack[i].state() == s {
			m.stack = m.stack[:i+1]
			m.clearStatus()
			return true
		}
	}
	return false
}

func (m *Model) clearStatus() {
	m.status, m.statusErr, m.retry = "", false, nil
}

// retryable gives a failed fetch's errMsg the fetch itself, for the r key.
func retryable(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case errMsg:
			msg.retry = cmd
			return msg
		case tea.BatchMsg:
			for i := range msg {
				msg[i] = retryable(msg[i])
			}
			return msg
		default:
			return msg
		}
	}
}

// errText says an unreachable server in a few words instead of the dial error.
func errText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) && !errors.Is(err, context.Canceled) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			return "can't reach " + u.Scheme + "://" + u.Host
		}
	}
	return err.Error()
}

func (m *Model) find(id pageID) page {
	for _, p := range m.stack {
		if p.base().id == id {
			return p
		}
	}
	return nil
}

func (m *Model) loading() string {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if l := m.stack[i].base().loading; l != "" {
			return l
		}
	}
	return ""
}

// layout sizes the page, which depends on the help's height too.
func (m *Model) layout() {
	w, h := m.width, m.bodyHeight()
	if b := m.top().base(); b.width != w || b.height != h {
		m.top().setSize(&m.common, w, h)
	}
}

func (m *Model) bodyHeight() int {
	return max(1, m.height-1-lipgloss.Height(m.statusView())-lipgloss.Height(m.helpView()))
}

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

// helpView renders the full help after ?, else one line whose pinned keys
// come first, so a narrow terminal loses "g garage" before "q quit".
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

// shortHelp drops bindings that do not fit width: the help bubble's own
// truncation overflows once its ellipsis does not fit.
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
	bodyH := m.bodyHeight()
	body := lipgloss.NewStyle().Height(bodyH).MaxHeight(bodyH).Render(m.top().view(&c))
	out := strings.Join([]string{m.headerView(), body, m.statusView(), m.helpView()}, "\n")
	// The clamp guarantees the frame fits, whatever a page renders.
	return lipgloss.NewStyle().MaxWidth(m.width).MaxHeight(m.height).Render(out)
}

// maxCrumbs caps the breadcrumb; the middle crumbs go first.
const maxCrumbs = 4

// headerView keeps the first crumb (the record type) and the newest ones
// (where the user is), eliding the middle when there are many or too wide.
func (m Model) headerView() string {
	st := m.styles
	sep := st.CrumbSep.Render(" › ")
	crumbs := make([]string, 0, len(m.stack))
	for _, p := range m.stack[1:] {
		crumbs = append(crumbs, st.Crumb.Render(p.crumb()))
	}
	brand, ell := st.Brand.Render("vds"), st.CrumbSep.Render("…")
	if s := strings.Join(append([]string{brand}, crumbs...), sep); len(crumbs) <= maxCrumbs && lipgloss.Width(s) <= m.width {
		return st.Header.Render(s)
	}
	for keep := min(len(crumbs)-1, maxCrumbs-1); keep >= 1; keep-- {
		parts := append([]string{brand, crumbs[0], ell}, crumbs[len(crumbs)-keep:]...)
		if keep == len(crumbs)-1 {
			parts = append([]string{brand}, crumbs...)
		}
		if s := strings.Join(parts, sep); lipgloss.Width(s) <= m.width {
			return st.Header.Render(s)
		}
	}
	return st.Header.Render(strings.Join([]string{brand, ell, crumbs[len(crumbs)-1]}, sep))
}

// statusView wraps an error over up to three lines rather than cut it.
func (m Model) statusView() string {
	return lipgloss.NewStyle().Width(m.width).MaxHeight(3).Render(m.statusLine())
}

func (m Model) statusLine() string {
	st := m.styles
	switch {
	case m.top().base().loading != "":
		// Only the screen in view: a loading page below is not shown.
		return m.spinner.View() + st.StatusInfo.Render(" Loading "+m.top().base().loading+"…")
	case m.statusErr && m.retry != nil:
		return st.StatusError.Render("✗ " + m.status + " · r retry")
	case m.statusErr:
		return st.StatusError.Render("✗ " + m.status)
	default:
		return st.StatusInfo.Render(m.status)
	}
}

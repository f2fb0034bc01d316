package tui

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every binding the TUI reacts to; the root handles the global ones first.
type KeyMap struct {
	// Global.
	Quit      key.Binding
	ForceQuit key.Binding
	Back      key.Binding
	Help      key.Binding
	VIN       key.Binding
	Garage    key.Binding
	Retry     key.Binding

	// Lists.
	Up     key.Binding
	Down   key.Binding
	Select key.Binding
	Filter key.Binding

	// Records.
	NextPage key.Binding
	PrevPage key.Binding

	// One record.
	Tires      key.Binding
	Plus       key.Binding
	Recalls    key.Binding
	Complaints key.Binding

	// Scroll is help text only: the viewport's own key map scrolls.
	Scroll key.Binding

	// VIN screen.
	Decode  key.Binding
	EditVIN key.Binding
	Cancel  key.Binding
}

// DefaultKeyMap returns the bindings.
func DefaultKeyMap() *KeyMap {
	return &KeyMap{
		Quit:       key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit:  key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Back:       key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back")),
		Help:       key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		VIN:        key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "VIN/HIN")),
		Garage:     key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "garage")),
		Retry:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "retry")),
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Select:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Filter:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		NextPage:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next page")),
		PrevPage:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "prev page")),
		Tires:      key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tires")),
		Plus:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "plus sizes")),
		Recalls:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "recalls")),
		Complaints: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "complaints")),
		Scroll:     key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓/pgdn", "scroll")),
		Decode:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "decode")),
		EditVIN:    key.NewBinding(key.WithKeys("/", "i"), key.WithHelp("/", "edit VIN/HIN")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// helpKeys is the page's bindings, then the global ones that apply; pinned
// ones stay on the one-line help however narrow the terminal.
type helpKeys struct {
	page   []key.Binding
	more   []key.Binding
	global []key.Binding
	pinned []key.Binding
}

func (h helpKeys) ShortHelp() []key.Binding {
	return append(append(append([]key.Binding{}, h.page...), h.global...), h.pinned...)
}

func (h helpKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		append(append([]key.Binding{}, h.page...), h.more...),
		append(append([]key.Binding{}, h.global...), h.pinned...),
	}
}

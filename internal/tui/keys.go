package tui

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every binding the TUI reacts to. The root handles the global
// ones (quit, back, help, VIN, garage) before a page sees the key, unless
// the page is taking text: then q, v, g and backspace are letters.
type KeyMap struct {
	// Global.
	Quit      key.Binding
	ForceQuit key.Binding
	Back      key.Binding
	Help      key.Binding
	VIN       key.Binding
	Garage    key.Binding

	// Lists.
	Up     key.Binding
	Down   key.Binding
	Select key.Binding
	Filter key.Binding

	// Records.
	NextPage key.Binding
	PrevPage key.Binding

	// One record.
	Tires   key.Binding
	Recalls key.Binding

	// Scroll is shown in the help of the scrolling pages (record, tires,
	// recalls); the viewport bubble's own key map does the scrolling.
	Scroll key.Binding

	// VIN screen.
	Decode  key.Binding
	EditVIN key.Binding
	Cancel  key.Binding
}

// DefaultKeyMap returns the bindings. The list bubble's own g/G (go to
// start or end) are rebound to home/end so that g can open the garage.
func DefaultKeyMap() *KeyMap {
	return &KeyMap{
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Back:      key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		VIN:       key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "VIN")),
		Garage:    key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "garage")),
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Select:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		NextPage:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next page")),
		PrevPage:  key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "prev page")),
		Tires:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tires")),
		Recalls:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "recalls")),
		Scroll:    key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓/pgdn", "scroll")),
		Decode:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "decode")),
		EditVIN:   key.NewBinding(key.WithKeys("/", "i"), key.WithHelp("/", "edit VIN")),
		Cancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// helpKeys is what the help shows: the page's bindings, then the global
// ones that apply. The pinned ones (back, help, quit) stay on the one-line
// help however narrow the terminal; the rest give way first. It implements
// help.KeyMap.
type helpKeys struct {
	page []key.Binding
	// more are page keys for the full help only.
	more   []key.Binding
	global []key.Binding
	pinned []key.Binding
}

// ShortHelp is the one-line help, always on screen.
func (h helpKeys) ShortHelp() []key.Binding {
	return append(append(append([]key.Binding{}, h.page...), h.global...), h.pinned...)
}

// FullHelp is the expanded help that ? toggles: page keys and global keys
// in two columns.
func (h helpKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		append(append([]key.Binding{}, h.page...), h.more...),
		append(append([]key.Binding{}, h.global...), h.pinned...),
	}
}

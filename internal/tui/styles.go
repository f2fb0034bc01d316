package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/lipgloss"
)

// Styles holds every style the TUI renders with. All of them come from one
// lipgloss.Renderer, whose colour profile follows the output it was made
// for: NO_COLOR, a pipe or a dumb terminal give plain text, so the UI
// never depends on colour alone (in/out of the tire window also reads as
// ✓/✗ and [ ]).
//
// The colours are fixed ANSI-256 ones rather than adaptive: an adaptive
// colour makes lipgloss ask the terminal for its background, a round trip
// on the terminal the program is about to take over.
type Styles struct {
	// Header is the top line; Crumb and CrumbSep the breadcrumb in it.
	Header, Brand, Crumb, CrumbSep lipgloss.Style
	// Title heads a page; Subtle is secondary text.
	Title, Subtle lipgloss.Style
	// Label and Value are the two columns of a record.
	Label, Value lipgloss.Style
	// Cursor marks the selected row; Selected is its text; Match the
	// characters a filter matched; Detail the right-hand column of a row.
	Cursor, Selected, Normal, Match, Detail lipgloss.Style
	// StatusError and StatusInfo fill the status line.
	StatusError, StatusInfo lipgloss.Style
	// Spinner is the loading indicator.
	Spinner lipgloss.Style
	// Good, Bad and Warn colour verdicts: in the window, out of it, a
	// recall to act on.
	Good, Bad, Warn lipgloss.Style
	// BarTrack is the tire bar's scale, BarWindow the ±window part of it,
	// BarAxis its zero mark; BarIn and BarOut the fill.
	BarTrack, BarWindow, BarAxis, BarIn, BarOut lipgloss.Style
	// Help is the help bubble's styles.
	Help help.Styles
}

// NewStyles returns the styles rendered by r. A nil r means lipgloss's
// default renderer, which looks at stdout.
func NewStyles(r *lipgloss.Renderer) *Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	var (
		accent = lipgloss.Color("99")
		pink   = lipgloss.Color("205")
		grey   = lipgloss.Color("245")
		dim    = lipgloss.Color("240")
		green  = lipgloss.Color("35")
		red    = lipgloss.Color("160")
		orange = lipgloss.Color("214")
	)
	s := r.NewStyle
	return &Styles{
		Header:      s(),
		Brand:       s().Bold(true).Foreground(accent),
		Crumb:       s().Foreground(grey),
		CrumbSep:    s().Foreground(dim),
		Title:       s().Bold(true),
		Subtle:      s().Foreground(grey),
		Label:       s().Foreground(grey),
		Value:       s(),
		Cursor:      s().Foreground(pink).Bold(true),
		Selected:    s().Foreground(pink),
		Normal:      s(),
		Match:       s().Underline(true),
		Detail:      s().Foreground(grey),
		StatusError: s().Foreground(red).Bold(true),
		StatusInfo:  s().Foreground(grey),
		Spinner:     s().Foreground(accent),
		Good:        s().Foreground(green),
		Bad:         s().Foreground(red),
		Warn:        s().Foreground(orange).Bold(true),
		BarTrack:    s().Foreground(dim),
		BarWindow:   s().Foreground(green),
		BarAxis:     s().Bold(true),
		BarIn:       s().Foreground(green),
		BarOut:      s().Foreground(red),
		Help: help.Styles{
			Ellipsis:       s().Foreground(dim),
			ShortKey:       s().Foreground(grey).Bold(true),
			ShortDesc:      s().Foreground(dim),
			ShortSeparator: s().Foreground(dim),
			FullKey:        s().Foreground(grey).Bold(true),
			FullDesc:       s().Foreground(dim),
			FullSeparator:  s().Foreground(dim),
		},
	}
}

// listStyles adapts the list bubble's styles, which otherwise come from
// lipgloss's global renderer and pad the title bar for a title we don't
// show.
func (st *Styles) listStyles() list.Styles {
	ls := list.DefaultStyles()
	ls.TitleBar = st.Normal
	ls.Title = st.Title
	ls.StatusBar = st.Subtle
	ls.StatusEmpty = st.Subtle
	ls.StatusBarActiveFilter = st.Normal
	ls.StatusBarFilterCount = st.Subtle
	ls.NoItems = st.Subtle
	ls.PaginationStyle = st.Subtle
	ls.ActivePaginationDot = st.Selected.SetString("•")
	ls.InactivePaginationDot = st.Subtle.SetString("•")
	ls.ArabicPagination = st.Subtle
	ls.DividerDot = st.Subtle.SetString(" • ")
	ls.FilterPrompt = st.Selected
	ls.FilterCursor = st.Selected
	return ls
}

// styleInput applies the styles to a text input.
func (st *Styles) styleInput(ti *textinput.Model) {
	ti.PromptStyle = st.Selected
	ti.TextStyle = st.Normal
	ti.PlaceholderStyle = st.Subtle
	ti.Cursor.Style = st.Selected
	ti.Cursor.TextStyle = st.Normal
}

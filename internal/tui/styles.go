package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/lipgloss"
)

// Styles holds every style, from one renderer: NO_COLOR or a pipe give
// plain text. Colours are fixed ANSI-256, not adaptive (no terminal query).
type Styles struct {
	Header, Brand, Crumb, CrumbSep          lipgloss.Style
	Title, Subtle                           lipgloss.Style
	Label, Value                            lipgloss.Style
	Cursor, Selected, Normal, Match, Detail lipgloss.Style
	StatusError, StatusInfo                 lipgloss.Style
	Spinner                                 lipgloss.Style
	// Good, Bad and Warn colour verdicts: in the window, out of it, a recall to act on.
	Good, Bad, Warn lipgloss.Style
	// BarWindow is the ±window part of the tire bar's track, BarAxis its 0 mark.
	BarTrack, BarWindow, BarAxis, BarIn, BarOut lipgloss.Style
	Help                                        help.Styles
}

// NewStyles returns the styles rendered by r (nil: stdout's).
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

// listStyles would otherwise come from lipgloss's global renderer.
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

func (st *Styles) styleInput(ti *textinput.Model) {
	ti.PromptStyle = st.Selected
	ti.TextStyle = st.Normal
	ti.PlaceholderStyle = st.Subtle
	ti.Cursor.Style = st.Selected
	ti.Cursor.TextStyle = st.Normal
}

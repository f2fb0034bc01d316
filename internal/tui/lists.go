package tui

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// row is one line of a list screen: title, detail and the value selecting acts on.
type row struct {
	title, detail string
	value         any
}

// FilterValue is the title, whose matches the delegate highlights.
func (r row) FilterValue() string { return r.title }

type rowDelegate struct{ st *Styles }

func (d rowDelegate) Height() int                         { return 1 }
func (d rowDelegate) Spacing() int                        { return 0 }
func (d rowDelegate) Update(tea.Msg, *list.Model) tea.Cmd { return nil }

func (d rowDelegate) Render(w io.Writer, m list.Model, index int, it list.Item) {
	r, ok := it.(row)
	if !ok {
		return
	}
	cur, style := "  ", d.st.Normal
	if index == m.Index() {
		cur, style = d.st.Cursor.Render("▸ "), d.st.Selected
	}
	title := style.Render(r.title)
	if matches := m.MatchesForItem(index); len(matches) > 0 {
		title = lipgloss.StyleRunes(r.title, matches, d.st.Match.Inherit(style), style)
	}
	line := cur + title
	if r.detail != "" {
		detail := d.st.Detail.Render(r.detail)
		gap := max(2, m.Width()-lipgloss.Width(line)-lipgloss.Width(detail))
		line += strings.Repeat(" ", gap) + detail
	}
	fmt.Fprint(w, ansi.Truncate(line, m.Width(), "…"))
}

// substringFilter matches case-insensitive substrings, prefixes first: the
// default fuzzy match makes "toy" match any name with t, o and y in order.
func substringFilter(term string, targets []string) []list.Rank {
	t := lowerRunes(strings.TrimSpace(term))
	var prefix, inner []list.Rank
	for i, target := range targets {
		at := runeIndex(lowerRunes(target), t)
		if at < 0 {
			continue
		}
		idx := make([]int, len(t))
		for j := range idx {
			idx[j] = at + j
		}
		r := list.Rank{Index: i, MatchedIndexes: idx}
		if at == 0 {
			prefix = append(prefix, r)
		} else {
			inner = append(inner, r)
		}
	}
	return append(prefix, inner...)
}

// lowerRunes keeps match positions rune positions of the original.
func lowerRunes(s string) []rune {
	rs := []rune(s)
	for i, r := range rs {
		rs[i] = unicode.ToLower(r)
	}
	return rs
}

func runeIndex(s, sub []rune) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := range sub {
			if s[i+j] != sub[j] {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// newList sets up a list bubble without title, help or quit keys of its own:
// the root draws those, and q and esc mean quit and back there.
func newList(c *common, singular, plural string, filtering bool) list.Model {
	l := list.New(nil, rowDelegate{c.styles}, 0, 0)
	l.SetShowTitle(false)
	l.SetShowHelp(false)
	l.SetFilteringEnabled(filtering)
	l.SetStatusBarItemName(singular, plural)
	l.DisableQuitKeybindings()
	l.Styles = c.styles.listStyles()
	l.Filter = substringFilter
	// g would jump to the start; g opens the garage here.
	l.KeyMap.GoToStart = key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first"))
	l.KeyMap.GoToEnd = key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "last"))
	l.KeyMap.AcceptWhileFiltering.SetHelp("enter", "apply filter")
	l.KeyMap.CancelWhileFiltering.SetHelp("esc", "cancel filter")
	c.styles.styleInput(&l.FilterInput)
	l.FilterInput.Prompt = "Filter: "
	// A blinking cursor repaints twice a second for nothing.
	l.FilterInput.Cursor.SetMode(cursor.CursorStatic)
	return l
}

// updateList passes msg to l. The list filters each keystroke in a command
// of its own, and their answers can arrive out of order: one that no longer
// matches the filter typed is replaced by matching again, here.
func updateList(l list.Model, msg tea.Msg) (list.Model, tea.Cmd) {
	l, cmd := l.Update(msg)
	if _, ok := msg.(list.FilterMatchesMsg); !ok || l.FilterState() == list.Unfiltered {
		return l, cmd
	}
	items := l.Items()
	targets := make([]string, len(items))
	for i, it := range items {
		targets[i] = it.FilterValue()
	}
	want := l.Filter(l.FilterValue(), targets)
	got := l.VisibleItems()
	stale := len(want) != len(got)
	for i := 0; !stale && i < len(want); i++ {
		stale = targets[want[i].Index] != got[i].FilterValue()
	}
	if stale {
		typing := l.FilterState() == list.Filtering
		l.SetFilterText(l.FilterValue())
		if typing {
			l.SetFilterState(list.Filtering)
		}
	}
	return l, cmd
}

func listHelp(c *common, l list.Model, extra ...key.Binding) []key.Binding {
	if l.FilterState() == list.Filtering {
		return []key.Binding{l.KeyMap.AcceptWhileFiltering, l.KeyMap.CancelWhileFiltering}
	}
	var kb []key.Binding
	if len(l.Items()) > 0 {
		kb = append(kb, c.keys.Up, c.keys.Down, c.keys.Select)
	}
	kb = append(kb, extra...)
	return append(kb, l.KeyMap.Filter, l.KeyMap.ClearFilter)
}

func listMoreHelp(l list.Model) []key.Binding {
	if l.FilterState() == list.Filtering {
		return nil
	}
	page := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "page"))
	page.SetEnabled(l.Paginator.TotalPages > 1)
	return []key.Binding{page, l.KeyMap.GoToStart, l.KeyMap.GoToEnd}
}

func listCaptures(l list.Model, msg tea.KeyMsg) bool {
	return l.FilterState() == list.Filtering || key.Matches(msg, l.KeyMap.ClearFilter)
}

func selected(l list.Model) (any, bool) {
	r, ok := l.SelectedItem().(row)
	if !ok {
		return nil, false
	}
	return r.value, true
}

// setRows sets the size again: the list sizes pages by the old row count's
// pagination line, and the first page would be a row too long.
func setRows(l *list.Model, rows []row) tea.Cmd {
	items := make([]list.Item, len(rows))
	for i, r := range rows {
		items[i] = r
	}
	cmd := l.SetItems(items)
	l.SetSize(l.Width(), l.Height())
	return cmd
}

// listView shows empty instead of a list with no rows, which says so twice.
func listView(c *common, l list.Model, empty string) string {
	if len(l.Items()) == 0 {
		return c.styles.Subtle.Render(empty)
	}
	return l.View()
}

// unloaded is the view of a page before its first data: the title, and what
// it waits for.
func (b *pageBase) unloaded(c *common, title string) string {
	if b.loading == "" {
		return title
	}
	return title + "\n" + c.spin + c.styles.Subtle.Render(" Loading "+b.loading+"…")
}

// listPage is what the filterable list screens (makes, models, garage) share.
type listPage struct {
	pageBase
	list   list.Model
	loaded bool
}

func (p *listPage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.list.SetSize(w, max(1, h-1))
}

func (p *listPage) captures(msg tea.KeyMsg) bool   { return listCaptures(p.list, msg) }
func (p *listPage) typing() bool                   { return p.list.FilterState() == list.Filtering }
func (p *listPage) help(c *common) []key.Binding   { return listHelp(c, p.list) }
func (p *listPage) moreHelp(*common) []key.Binding { return listMoreHelp(p.list) }

func (p *listPage) show(rows []row) tea.Cmd {
	p.loading, p.loaded = "", true
	return setRows(&p.list, rows)
}

// updateList handles what the page's own data message leaves: a failed
// fetch, the select key (open gets the selected row's value) and list keys.
func (p *listPage) updateList(c *common, msg tea.Msg, open func(value any) tea.Cmd) tea.Cmd {
	switch msg := msg.(type) {
	case errMsg:
		p.loading = ""
		return nil
	case tea.KeyMsg:
		if p.list.FilterState() != list.Filtering && key.Matches(msg, c.keys.Select) {
			if v, ok := selected(p.list); ok {
				return open(v)
			}
			return nil
		}
	}
	var cmd tea.Cmd
	p.list, cmd = updateList(p.list, msg)
	return cmd
}

func (p *listPage) listView(c *common, title, empty string) string {
	if !p.loaded {
		return p.unloaded(c, title)
	}
	return title + "\n" + listView(c, p.list, empty)
}

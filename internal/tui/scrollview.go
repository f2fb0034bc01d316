package tui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// scrollView is a report loaded once and shown in a scrolling viewport
// under the page's two title lines: the tires and recalls pages.
type scrollView struct {
	loaded bool
	vp     viewport.Model
}

func newScrollView() scrollView { return scrollView{vp: viewport.New(0, 0)} }

// resize fits the viewport to the page and redraws content, which wraps
// (and draws bars) to the width; the viewport keeps its scroll offset.
func (s *scrollView) resize(w, h int, content string) {
	s.vp.Width, s.vp.Height = w, max(1, h-2)
	s.vp.SetContent(content)
}

// show puts the loaded report on screen.
func (s *scrollView) show(content string) {
	s.loaded = true
	s.vp.SetContent(content)
}

// scroll passes keys and mouse messages to the viewport.
func (s *scrollView) scroll(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.vp, cmd = s.vp.Update(msg)
	return cmd
}

// help offers the scroll keys only when there is something to scroll.
func (s *scrollView) help(c *common) []key.Binding {
	if s.vp.TotalLineCount() > s.vp.Height {
		return []key.Binding{c.keys.Scroll}
	}
	return nil
}

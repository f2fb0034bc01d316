package tui

import (
	"context"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
)

// reportPage is a report on a record, loaded once and shown in a scrolling
// viewport under the page's two title lines: the tires and recalls pages.
type reportPage[R any] struct {
	pageBase
	reportKind[R]
	rec    record
	report R
	loaded bool
	vp     viewport.Model
}

// reportKind is what sets one report page apart from the other.
type reportKind[R any] struct {
	screen state
	name   string // the crumb, and the title's prefix
	what   string // what the spinner says is loading
	fetch  func(ctx context.Context, c Client, id pageID, rec record) tea.Cmd
	// content renders the report to the width; it wraps and draws bars.
	content  func(st *Styles, r R, width int) string
	subtitle func(r R) string
}

type reportMsg[R any] struct {
	addr
	report R
}

func newReportPage[R any](rec record, k reportKind[R]) *reportPage[R] {
	return &reportPage[R]{reportKind: k, rec: rec, vp: viewport.New(0, 0)}
}

func (p *reportPage[R]) state() state  { return p.screen }
func (p *reportPage[R]) crumb() string { return p.name }

func (p *reportPage[R]) init(c *common) tea.Cmd {
	p.loading = p.what
	return p.fetch(c.ctx, c.client, p.id, p.rec)
}

// setSize redraws the content to the new width; the viewport keeps its offset.
func (p *reportPage[R]) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.vp.Width, p.vp.Height = w, max(1, h-2)
	p.vp.SetContent(p.content(c.styles, p.report, p.width))
}

func (p *reportPage[R]) update(c *common, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case reportMsg[R]:
		p.loading, p.report, p.loaded = "", msg.report, true
		p.vp.SetContent(p.content(c.styles, p.report, p.width))
		return nil
	case errMsg:
		p.loading = ""
		return nil
	}
	var cmd tea.Cmd
	p.vp, cmd = p.vp.Update(msg)
	return cmd
}

// help offers the scroll keys only when there is something to scroll.
func (p *reportPage[R]) help(c *common) []key.Binding {
	if p.vp.TotalLineCount() > p.vp.Height {
		return []key.Binding{c.keys.Scroll}
	}
	return nil
}

func (p *reportPage[R]) view(c *common) string {
	st := c.styles
	title := st.Title.Render(p.name + ": " + p.rec.title())
	if !p.loaded {
		return p.unloaded(c, title)
	}
	return title + "\n" + st.Subtle.Render(p.subtitle(p.report)) + "\n" + p.vp.View()
}

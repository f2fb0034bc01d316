package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
)

// recordPage shows one record in full, with t for tires, r for recalls and
// c for complaints;
// it fetches the record only when the list did not have it.
type recordPage struct {
	pageBase
	rec  record
	kind client.Kind
	uuid string
	vp   viewport.Model
}

func newRecordPage(rec record) *recordPage {
	return &recordPage{rec: rec, kind: rec.kind, uuid: rec.uuid(), vp: viewport.New(0, 0)}
}

func newRecordRef(kind client.Kind, uuid string) *recordPage {
	return &recordPage{kind: kind, uuid: uuid, vp: viewport.New(0, 0)}
}

func (p *recordPage) state() state { return stateRecord }

func (p *recordPage) crumb() string {
	if p.rec.loaded() {
		return p.rec.title()
	}
	return kindName(p.kind)
}

func (p *recordPage) init(c *common) tea.Cmd {
	if p.rec.loaded() {
		p.render(c)
		return nil
	}
	p.loading = kindName(p.kind)
	return fetchRecord(c.ctx, c.client, p.id, p.kind, p.uuid)
}

func (p *recordPage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.vp.Width, p.vp.Height = w, max(1, h-2)
}

func (p *recordPage) render(c *common) {
	fields := p.rec.fields()
	width := 0
	for _, f := range fields {
		width = max(width, len([]rune(f.label)))
	}
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte('\n')
		}
		pad := strings.Repeat(" ", width-len([]rune(f.label)))
		b.WriteString(c.styles.Label.Render(f.label+pad) + "  " + c.styles.Value.Render(f.value))
	}
	p.vp.SetContent(b.String())
}

func (p *recordPage) update(c *common, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case recordMsg:
		p.loading, p.rec = "", msg.rec
		p.render(c)
		return nil
	case errMsg:
		p.loading = ""
		return nil
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, c.keys.Tires) && p.rec.loaded() && p.rec.hasTires():
			return open(newTiresPage(p.rec))
		case key.Matches(msg, c.keys.Plus) && p.rec.loaded() && p.rec.kind == client.KindTireSize:
			return open(newPlusPage(p.rec))
		case key.Matches(msg, c.keys.Recalls) && p.rec.loaded() && p.rec.hasRecalls():
			return open(newRecallsPage(p.rec))
		case key.Matches(msg, c.keys.Complaints) && p.rec.loaded() && p.rec.hasRecalls():
			return open(newComplaintsPage(p.rec))
		}
	}
	var cmd tea.Cmd
	p.vp, cmd = p.vp.Update(msg)
	return cmd
}

func (p *recordPage) view(c *common) string {
	if !p.rec.loaded() {
		return p.unloaded(c, c.styles.Title.Render(kindName(p.kind)+" "+p.uuid))
	}
	return c.styles.Title.Render(p.rec.title()) + c.styles.Subtle.Render("  "+kindName(p.kind)) + "\n\n" + p.vp.View()
}

func (p *recordPage) help(c *common) []key.Binding {
	var kb []key.Binding
	if p.rec.loaded() && p.rec.hasTires() {
		kb = append(kb, c.keys.Tires)
	}
	if p.rec.loaded() && p.rec.kind == client.KindTireSize {
		kb = append(kb, c.keys.Plus)
	}
	if p.rec.loaded() && p.rec.hasRecalls() {
		kb = append(kb, c.keys.Recalls, c.keys.Complaints)
	}
	if p.vp.TotalLineCount() > p.vp.Height {
		kb = append(kb, c.keys.Scroll)
	}
	return kb
}

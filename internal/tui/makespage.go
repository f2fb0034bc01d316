package tui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"

	"github.com/vds-dev/vds/internal/textfmt"
)

// makesPage lists the makes of a record type with their record counts,
// filterable as you type after /.
type makesPage struct {
	pageBase
	kind   client.Kind
	list   list.Model
	loaded bool
}

func newMakesPage(c *common, kind client.Kind) *makesPage {
	return &makesPage{kind: kind, list: newList(c, "make", "makes", true)}
}

func (p *makesPage) state() state  { return stateMakes }
func (p *makesPage) crumb() string { return kindPlural(p.kind) }

func (p *makesPage) init(c *common) tea.Cmd {
	p.loading = "makes"
	return fetchMakes(c.ctx, c.client, p.id, p.kind)
}

func (p *makesPage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.list.SetSize(w, max(1, h-1))
}

func (p *makesPage) captures(msg tea.KeyMsg) bool { return listCaptures(p.list, msg) }
func (p *makesPage) typing() bool                 { return p.list.FilterState() == list.Filtering }

func (p *makesPage) update(c *common, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case makesMsg:
		p.loading, p.loaded = "", true
		rows := make([]row, len(msg.makes))
		for i, mk := range msg.makes {
			rows[i] = row{title: mk.Name, detail: textfmt.Thousands(int64(mk.Count)), value: mk.Name}
		}
		return setRows(&p.list, rows)
	case errMsg:
		p.loading = ""
		return nil
	case tea.KeyMsg:
		if p.list.FilterState() != list.Filtering && key.Matches(msg, c.keys.Select) {
			if mk, ok := selected(p.list); ok {
				return open(newModelsPage(c, p.kind, mk.(string)))
			}
			return nil
		}
	}
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return cmd
}

func (p *makesPage) view(c *common) string {
	title := c.styles.Title.Render(kindPlural(p.kind) + ": makes")
	if !p.loaded {
		if p.loading != "" {
			return title + "\n" + loadingView(c, p.loading)
		}
		return title
	}
	return title + "\n" + listView(c, p.list, "No makes.")
}

func (p *makesPage) help(c *common) []key.Binding { return listHelp(c, p.list) }

func (p *makesPage) moreHelp(*common) []key.Binding { return listMoreHelp(p.list) }

package tui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/textfmt"
)

// makesPage lists the makes of a record type with their record counts,
// filterable as you type after /.
type makesPage struct {
	listPage
	kind client.Kind
}

func newMakesPage(c *common, kind client.Kind) *makesPage {
	return &makesPage{kind: kind, listPage: listPage{list: newList(c, "make", "makes", true)}}
}

func (p *makesPage) state() state  { return stateMakes }
func (p *makesPage) crumb() string { return kindPlural(p.kind) }

func (p *makesPage) init(c *common) tea.Cmd {
	p.loading = "makes"
	return fetchMakes(c.ctx, c.client, p.id, p.kind)
}

func (p *makesPage) update(c *common, msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(makesMsg); ok {
		rows := make([]row, len(msg.makes))
		for i, mk := range msg.makes {
			rows[i] = row{title: mk.Name, detail: textfmt.Thousands(int64(mk.Count)), value: mk.Name}
		}
		return p.show(rows)
	}
	return p.updateList(c, msg, func(mk any) tea.Cmd { return open(newModelsPage(c, p.kind, mk.(string))) })
}

func (p *makesPage) view(c *common) string {
	return p.listView(c, c.styles.Title.Render(kindPlural(p.kind)+": makes"), "No makes.")
}

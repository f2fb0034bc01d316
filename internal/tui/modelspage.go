package tui

import (
	"strconv"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/textfmt"
)

// modelsPage lists the models of one make with their model-year ranges
// and record counts.
type modelsPage struct {
	listPage
	kind client.Kind
	make string
}

func newModelsPage(c *common, kind client.Kind, mk string) *modelsPage {
	return &modelsPage{kind: kind, make: mk, listPage: listPage{list: newList(c, "model", "models", true)}}
}

func (p *modelsPage) state() state  { return stateModels }
func (p *modelsPage) crumb() string { return p.make }

func (p *modelsPage) init(c *common) tea.Cmd {
	p.loading = "models"
	return fetchModels(c.ctx, c.client, p.id, p.kind, p.make)
}

func (p *modelsPage) update(c *common, msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(modelsMsg); ok {
		rows := make([]row, len(msg.models))
		for i, md := range msg.models {
			rows[i] = row{title: md.Name, detail: yearRange(md.YearMin, md.YearMax) + "  " + textfmt.Thousands(int64(md.Count)), value: md.Name}
		}
		return p.show(rows)
	}
	return p.updateList(c, msg, func(md any) tea.Cmd { return open(newRecordsPage(c, p.kind, p.make, md.(string))) })
}

func (p *modelsPage) view(c *common) string {
	title := c.styles.Title.Render(p.make+": models") + c.styles.Subtle.Render("  years · records")
	return p.listView(c, title, "No models for "+p.make+".")
}

// yearRange formats a model-year range: "2019–2024", or "2021" alone.
func yearRange(lo, hi int) string {
	if lo == hi || hi == 0 {
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + "–" + strconv.Itoa(hi)
}

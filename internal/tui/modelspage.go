package tui

import (
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/textfmt"
)

// modelsPage lists the models of one make with their model-year ranges
// and record counts.
type modelsPage struct {
	pageBase
	kind   client.Kind
	make   string
	list   list.Model
	loaded bool
}

func newModelsPage(c *common, kind client.Kind, mk string) *modelsPage {
	return &modelsPage{kind: kind, make: mk, list: newList(c, "model", "models", true)}
}

func (p *modelsPage) state() state  { return stateModels }
func (p *modelsPage) crumb() string { return p.make }

func (p *modelsPage) init(c *common) tea.Cmd {
	p.loading = "models"
	return fetchModels(c.ctx, c.client, p.id, p.kind, p.make)
}

func (p *modelsPage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.list.SetSize(w, max(1, h-1))
}

func (p *modelsPage) captures(msg tea.KeyMsg) bool { return listCaptures(p.list, msg) }
func (p *modelsPage) typing() bool                 { return p.list.FilterState() == list.Filtering }

func (p *modelsPage) update(c *common, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case modelsMsg:
		p.loading, p.loaded = "", true
		rows := make([]row, len(msg.models))
		for i, md := range msg.models {
			rows[i] = row{title: md.Name, detail: yearRange(md.YearMin, md.YearMax) + "  " + textfmt.Thousands(int64(md.Count)), value: md.Name}
		}
		return setRows(&p.list, rows)
	case errMsg:
		p.loading = ""
		return nil
	case tea.KeyMsg:
		if p.list.FilterState() != list.Filtering && key.Matches(msg, c.keys.Select) {
			if md, ok := selected(p.list); ok {
				return open(newRecordsPage(c, p.kind, p.make, md.(string)))
			}
			return nil
		}
	}
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return cmd
}

func (p *modelsPage) view(c *common) string {
	title := c.styles.Title.Render(p.make+": models") + c.styles.Subtle.Render("  years · records")
	if !p.loaded {
		if p.loading != "" {
			return title + "\n" + loadingView(c, p.loading)
		}
		return title
	}
	return title + "\n" + listView(c, p.list, "No models for "+p.make+".")
}

func (p *modelsPage) help(c *common) []key.Binding { return listHelp(c, p.list) }

// yearRange formats a model-year range: "2019–2024", or "2021" alone.
func yearRange(lo, hi int) string {
	if lo == hi || hi == 0 {
		return strconv.Itoa(lo)
	}
	return strconv.Itoa(lo) + "–" + strconv.Itoa(hi)
}

func (p *modelsPage) moreHelp(*common) []key.Binding { return listMoreHelp(p.list) }

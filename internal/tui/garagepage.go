package tui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
)

// garagePage lists the records saved in the user's lists, the same lists
// the dashboard and the my_garage agent tool show.
type garagePage struct {
	pageBase
	list   list.Model
	loaded bool
}

// garageItem is a saved record, the value of a garage row.
type garageItem struct {
	kind    client.Kind
	uuid    string
	missing bool
}

func newGaragePage(c *common) *garagePage {
	return &garagePage{list: newList(c, "saved vehicle", "saved vehicles", true)}
}

func (p *garagePage) state() state  { return stateGarage }
func (p *garagePage) crumb() string { return "Garage" }

func (p *garagePage) init(c *common) tea.Cmd {
	p.loading = "garage"
	return fetchGarage(c.ctx, c.client, p.id)
}

func (p *garagePage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.list.SetSize(w, max(1, h-1))
}

func (p *garagePage) captures(msg tea.KeyMsg) bool { return listCaptures(p.list, msg) }
func (p *garagePage) typing() bool                 { return p.list.FilterState() == list.Filtering }

func (p *garagePage) update(c *common, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case garageMsg:
		p.loading, p.loaded = "", true
		var rows []row
		for _, l := range msg.lists {
			for _, it := range l.Items {
				title := "(no longer in the catalog)"
				if it.Record != nil && !it.Missing {
					title = vehicleName(it.Record.Year, it.Record.Make, it.Record.Model)
				}
				rows = append(rows, row{
					title:  title,
					detail: joinNonEmpty(" · ", it.Note, kindName(it.Type), l.Name),
					value:  garageItem{kind: it.Type, uuid: it.UUID, missing: it.Missing || it.Record == nil},
				})
			}
		}
		return setRows(&p.list, rows)
	case errMsg:
		p.loading = ""
		return nil
	case tea.KeyMsg:
		if p.list.FilterState() != list.Filtering && key.Matches(msg, c.keys.Select) {
			v, ok := selected(p.list)
			if !ok {
				return nil
			}
			it := v.(garageItem)
			if it.missing {
				return func() tea.Msg {
					return statusMsg("That record has left the catalog; the list keeps it so you can see what you saved.")
				}
			}
			return open(newRecordRef(it.kind, it.uuid))
		}
	}
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return cmd
}

func (p *garagePage) view(c *common) string {
	title := c.styles.Title.Render("My garage")
	switch {
	case !p.loaded && p.loading != "":
		return title + "\n" + loadingView(c, p.loading)
	case !p.loaded:
		return title
	}
	return title + "\n" + listView(c, p.list, "Nothing saved yet: save vehicles from the dashboard and they show up here.")
}

func (p *garagePage) help(c *common) []key.Binding { return listHelp(c, p.list) }

func (p *garagePage) moreHelp(*common) []key.Binding { return listMoreHelp(p.list) }

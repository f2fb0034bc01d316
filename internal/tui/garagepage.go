package tui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
)

// garagePage lists the records saved in the user's lists, the same lists
// the dashboard and the my_garage agent tool show.
type garagePage struct {
	listPage
}

// garageItem is a saved record, the value of a garage row.
type garageItem struct {
	kind    client.Kind
	uuid    string
	missing bool
}

func newGaragePage(c *common) *garagePage {
	return &garagePage{listPage{list: newList(c, "saved vehicle", "saved vehicles", true)}}
}

func (p *garagePage) state() state  { return stateGarage }
func (p *garagePage) crumb() string { return "Garage" }

func (p *garagePage) init(c *common) tea.Cmd {
	p.loading = "garage"
	return fetchGarage(c.ctx, c.client, p.id)
}

func (p *garagePage) update(c *common, msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(garageMsg); ok {
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
		return p.show(rows)
	}
	return p.updateList(c, msg, func(v any) tea.Cmd {
		it := v.(garageItem)
		if it.missing {
			return func() tea.Msg {
				return statusMsg("That record has left the catalog; the list keeps it so you can see what you saved.")
			}
		}
		return open(newRecordRef(it.kind, it.uuid))
	})
}

func (p *garagePage) view(c *common) string {
	return p.listView(c, c.styles.Title.Render("My garage"), "Nothing saved yet: save vehicles from the dashboard and they show up here.")
}

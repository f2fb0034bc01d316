package tui

import (
	"fmt"

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
				value := garageItem{kind: it.Type, uuid: it.UUID, missing: it.Missing || it.Record == nil}
				kind := kindName(it.Type)
				if it.VIN != nil {
					// A VIN opens its first catalog car or motorcycle; none: nothing to open.
					kind, value = "VIN "+*it.VIN, garageItem{kind: client.KindCar, missing: true}
					switch {
					case it.Links != nil && len(it.Links.Cars) > 0:
						value = garageItem{kind: client.KindCar, uuid: it.Links.Cars[0]}
					case it.Links != nil && len(it.Links.Motorcycles) > 0:
						value = garageItem{kind: client.KindMotorcycle, uuid: it.Links.Motorcycles[0]}
					}
				}
				rows = append(rows, row{
					title:  title,
					detail: joinNonEmpty(" · ", it.Note, kind, recallsLine(it.Recalls), l.Name),
					value:  value,
				})
			}
		}
		return p.show(rows)
	}
	return p.updateList(c, msg, func(v any) tea.Cmd {
		it := v.(garageItem)
		if it.missing {
			return func() tea.Msg {
				return statusMsg("That record has left the catalog (or the VIN has no catalog car); the list keeps it so you can see what you saved.")
			}
		}
		return open(newRecordRef(it.kind, it.uuid))
	})
}

func (p *garagePage) view(c *common) string {
	return p.listView(c, c.styles.Title.Render("My garage"), "Nothing saved yet: save vehicles from the dashboard and they show up here.")
}

// recallsLine sums up an item's recall status; "" for none to show.
func recallsLine(r *client.RecallStatus) string {
	switch {
	case r == nil || r.CheckedAt == nil:
		return ""
	case len(r.Open) == 0:
		return "no open recalls"
	case len(r.New) > 0:
		return fmt.Sprintf("%d open recalls, %d new", len(r.Open), len(r.New))
	}
	return fmt.Sprintf("%d open recalls", len(r.Open))
}

package tui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
)

// typesPage is the first screen: the four record types, the VIN decoder
// and the garage.
type typesPage struct {
	pageBase
	list list.Model
}

func newTypesPage(c *common) *typesPage {
	p := &typesPage{list: newList(c, "entry", "entries", false)}
	p.list.SetShowStatusBar(false)
	rows := []row{
		{title: "Cars", detail: "with EPA fuel economy, tires, recalls", value: client.KindCar},
		{title: "Motorcycles", detail: "and ATVs, scooters, snowmobiles", value: client.KindMotorcycle},
		{title: "Boats", detail: "power boats", value: client.KindBoat},
		{title: "Tire fitments", detail: "OEM and alternate sizes", value: client.KindTireSize},
		{title: "Decode a VIN or HIN", detail: "vehicles by NHTSA vPIC, boats by the Coast Guard's rules", value: stateVIN},
		{title: "My garage", detail: "your saved vehicles", value: stateGarage},
	}
	setRows(&p.list, rows)
	return p
}

func (p *typesPage) state() state  { return stateTypes }
func (p *typesPage) crumb() string { return "" }

func (p *typesPage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.list.SetSize(w, max(1, h-2))
}

func (p *typesPage) update(c *common, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, c.keys.Select) {
		v, _ := selected(p.list)
		switch v := v.(type) {
		case client.Kind:
			return open(newMakesPage(c, v))
		case state:
			if v == stateVIN {
				return open(newVINPage(c))
			}
			return open(newGaragePage(c))
		}
		return nil
	}
	var cmd tea.Cmd
	p.list, cmd = updateList(p.list, msg)
	return cmd
}

func (p *typesPage) view(c *common) string {
	return c.styles.Title.Render("What do you want to browse?") + "\n\n" + p.list.View()
}

func (p *typesPage) help(c *common) []key.Binding { return listHelp(c, p.list) }

func (p *typesPage) moreHelp(*common) []key.Binding { return listMoreHelp(p.list) }

package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/textfmt"
)

// recordsPage shows the records of a make and model one API page at a
// time, each page a charged call fetched on demand.
type recordsPage struct {
	pageBase
	kind        client.Kind
	make, model string
	list        list.Model
	// page is the API page shown; next and prev are its neighbours
	// (0 when there is none).
	page, next, prev int
	meta             client.Meta
	loaded           bool
}

func newRecordsPage(c *common, kind client.Kind, mk, model string) *recordsPage {
	p := &recordsPage{kind: kind, make: mk, model: model, list: newList(c, "record", "records", false)}
	p.list.SetShowStatusBar(false)
	return p
}

func (p *recordsPage) state() state  { return stateRecords }
func (p *recordsPage) crumb() string { return p.model }

func (p *recordsPage) init(c *common) tea.Cmd { return p.fetch(c, 1) }

// fetch asks for API page n; the current rows stay on screen meanwhile.
func (p *recordsPage) fetch(c *common, n int) tea.Cmd {
	p.loading = fmt.Sprintf("page %d", n)
	return fetchRecords(c.ctx, c.client, p.id, p.kind, p.make, p.model, n)
}

func (p *recordsPage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.list.SetSize(w, max(1, h-2))
}

func (p *recordsPage) update(c *common, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case recordsMsg:
		p.loading, p.loaded = "", true
		p.page, p.next, p.prev, p.meta = msg.page, msg.next, msg.prev, msg.meta
		rows := make([]row, len(msg.rows))
		for i, r := range msg.rows {
			rows[i] = row{title: r.title(), detail: r.summary(), value: r}
		}
		cmd := setRows(&p.list, rows)
		p.list.Select(0)
		return cmd
	case errMsg:
		p.loading = ""
		return nil
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, c.keys.Select):
			if r, ok := selected(p.list); ok {
				return open(newRecordPage(r.(record)))
			}
			return nil
		case key.Matches(msg, c.keys.NextPage):
			// One request at a time: a second n while loading would race
			// the first for the screen.
			if p.next > 0 && p.loading == "" {
				return p.fetch(c, p.next)
			}
			return nil
		case key.Matches(msg, c.keys.PrevPage):
			if p.prev > 0 && p.loading == "" {
				return p.fetch(c, p.prev)
			}
			return nil
		}
	}
	var cmd tea.Cmd
	p.list, cmd = updateList(p.list, msg)
	return cmd
}

func (p *recordsPage) view(c *common) string {
	st := c.styles
	title := st.Title.Render(p.make + " " + p.model + ": " + kindName(p.kind) + " records")
	if !p.loaded {
		return p.unloaded(c, title)
	}
	info := fmt.Sprintf("page %d of %d · %s records", p.page, max(1, p.meta.TotalPages), textfmt.Thousands(int64(p.meta.Total)))
	if p.meta.Truncated {
		info += fmt.Sprintf(" · only the first %d pages can be shown", p.meta.MaxPage)
	}
	return title + "\n" + st.Subtle.Render(info) + "\n" + listView(c, p.list, "No records on this page.")
}

func (p *recordsPage) help(c *common) []key.Binding {
	var extra []key.Binding
	if p.next > 0 {
		extra = append(extra, c.keys.NextPage)
	}
	if p.prev > 0 {
		extra = append(extra, c.keys.PrevPage)
	}
	return listHelp(c, p.list, extra...)
}

func (p *recordsPage) moreHelp(*common) []key.Binding { return listMoreHelp(p.list) }

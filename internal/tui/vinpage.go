package tui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/vds-dev/vds/client"
)

// vinPage decodes a VIN, or a boat's HIN, and lists the catalog records it
// links to; / goes back to the input.
type vinPage struct {
	pageBase
	input  textinput.Model
	report *client.VINReport
	hin    *client.HINReport
	links  list.Model
	// editing is true while the input has focus.
	editing bool
}

type vinLink struct {
	kind client.Kind
	uuid string
}

func newVINPage(c *common) *vinPage {
	in := textinput.New()
	in.Prompt = "VIN or HIN: "
	in.Placeholder = "17 letters and digits, or a boat's 12"
	in.CharLimit = 24
	c.styles.styleInput(&in)
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Focus()
	p := &vinPage{input: in, links: newList(c, "linked record", "linked records", false), editing: true}
	p.links.SetShowStatusBar(false)
	return p
}

func (p *vinPage) state() state  { return stateVIN }
func (p *vinPage) crumb() string { return "VIN/HIN" }
func (p *vinPage) typing() bool  { return p.editing }

// captures gives the input every key but esc, which still goes back.
func (p *vinPage) captures(msg tea.KeyMsg) bool {
	return p.editing && msg.Type != tea.KeyEsc
}

func (p *vinPage) setSize(c *common, w, h int) {
	p.pageBase.setSize(c, w, h)
	p.input.Width = max(1, w-lipgloss.Width(p.input.Prompt)-1)
	p.links.SetSize(w, max(3, h-lipgloss.Height(p.top(c))-1))
}

func (p *vinPage) update(c *common, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case hinMsg:
		p.loading, p.report, p.hin = "", nil, msg.report
		name := hinName(msg.report)
		rows := make([]row, len(msg.report.Links.Boats))
		for i, id := range msg.report.Links.Boats {
			rows[i] = row{title: "Catalog boat · " + name, detail: shortID(id), value: vinLink{client.KindBoat, id}}
		}
		return p.showLinks(c, rows)
	case vinMsg:
		p.loading, p.report, p.hin = "", msg.report, nil
		var rows []row
		name := reportName(msg.report)
		for _, id := range msg.report.Links.Cars {
			rows = append(rows, row{title: "Catalog car · " + name, detail: shortID(id), value: vinLink{client.KindCar, id}})
		}
		for _, id := range msg.report.Links.TireSizes {
			rows = append(rows, row{title: "Tire fitment · tire sizes for " + name, detail: shortID(id), value: vinLink{client.KindTireSize, id}})
		}
		for _, id := range msg.report.Links.Motorcycles {
			rows = append(rows, row{title: "Catalog motorcycle · " + name, detail: shortID(id), value: vinLink{client.KindMotorcycle, id}})
		}
		return p.showLinks(c, rows)
	case errMsg:
		p.loading = ""
		return nil
	case tea.KeyMsg:
		if p.editing {
			if key.Matches(msg, c.keys.Decode) {
				id := strings.TrimSpace(p.input.Value())
				if id == "" || p.loading != "" {
					return nil
				}
				if looksLikeHIN(id) {
					p.loading = "HIN " + strings.ToUpper(id)
					return fetchHIN(c.ctx, c.client, p.id, id)
				}
				p.loading = "VIN " + strings.ToUpper(id)
				return fetchVIN(c.ctx, c.client, p.id, id)
			}
			var cmd tea.Cmd
			p.input, cmd = p.input.Update(msg)
			return cmd
		}
		switch {
		case key.Matches(msg, c.keys.EditVIN):
			p.editing = true
			return p.input.Focus()
		case key.Matches(msg, c.keys.Select):
			if v, ok := selected(p.links); ok {
				l := v.(vinLink)
				return open(newRecordRef(l.kind, l.uuid))
			}
			return nil
		}
		var cmd tea.Cmd
		p.links, cmd = p.links.Update(msg)
		return cmd
	}
	return nil
}

// showLinks lists the decode's links and moves the focus to them.
func (p *vinPage) showLinks(c *common, rows []row) tea.Cmd {
	cmd := setRows(&p.links, rows)
	p.links.Select(0)
	if len(rows) > 0 {
		p.editing = false
		p.input.Blur()
	}
	p.setSize(c, p.width, p.height)
	return cmd
}

// looksLikeHIN tells a boat's HIN (12 characters, 14 with a country code,
// once spaces and hyphens are dropped) from a VIN (17).
func looksLikeHIN(s string) bool {
	n := len(strings.NewReplacer(" ", "", "-", "").Replace(s))
	return n == 12 || n == 14
}

// hinName is the maker and model year a HIN names: "BOSTON WHALER INC, model year 2018".
func hinName(r *client.HINReport) string {
	maker := r.MIC
	if r.Manufacturer != nil {
		maker = r.Manufacturer.Company
	}
	if r.ModelYear != nil {
		return maker + ", model year " + strconv.Itoa(*r.ModelYear)
	}
	return maker
}

func reportName(r *client.VINReport) string {
	year := 0
	if r.Year != nil {
		year = *r.Year
	}
	s := vehicleName(year, deref(r.Make), deref(r.Model), deref(r.Trim))
	if strings.TrimSpace(s) == "" {
		return "unknown vehicle"
	}
	return s
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// shortID abbreviates a uuid for display; the full one is on the record.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8] + "…"
	}
	return id
}

func (p *vinPage) top(c *common) string {
	st := c.styles
	lines := []string{st.Title.Render("Decode a VIN or a boat's HIN"), p.input.View(), ""}
	add := func(label, value string) {
		if value = strings.TrimSpace(value); value != "" && value != "—" {
			lines = append(lines, st.Label.Render(label+strings.Repeat(" ", max(0, 8-len(label))))+"  "+st.Value.Render(value))
		}
	}
	if p.hin != nil {
		p.hinTop(c, add, func(line string) { lines = append(lines, line) })
		return strings.Join(lines, "\n")
	}
	r := p.report
	if r == nil {
		hint := "Type a VIN or a boat's hull identification number (HIN) and press enter. vds decodes a VIN with vPIC's rules (the server's snapshot, or NHTSA vPIC), a HIN with the Coast Guard's rules and manufacturer list, and links the result to catalog records of the same make, model and year."
		return strings.Join(lines, "\n") + lipgloss.NewStyle().Width(max(20, p.width)).Render(st.Subtle.Render(hint))
	}
	add("VIN", r.VIN)
	add("Vehicle", reportName(r))
	add("Body", joinNonEmpty(" · ", deref(r.Body), deref(r.BodyClass), deref(r.VehicleType)))
	add("Source", r.Source)
	add("Maker", deref(r.Manufacturer))
	e := r.Engine
	var engine []string
	if e.Cylinders != nil {
		engine = append(engine, strconv.Itoa(*e.Cylinders)+" cyl")
	}
	if e.DisplacementL != nil {
		engine = append(engine, formatFloat(*e.DisplacementL, 1)+" L")
	}
	engine = append(engine, deref(e.FuelType))
	if e.PowerHP != nil {
		engine = append(engine, formatFloat(*e.PowerHP, 0)+" hp")
	}
	add("Engine", joinNonEmpty(" · ", engine...))
	add("Plant", joinNonEmpty(", ", deref(r.Plant.City), deref(r.Plant.State), deref(r.Plant.Country)))
	add("WMI", joinNonEmpty(" · ", r.WMI.Code, r.WMI.Region, r.WMI.Country))
	check := st.Good.Render(r.CheckDigit.Found + " ✓ valid")
	if !r.CheckDigit.Valid {
		check = st.Bad.Render(r.CheckDigit.Found + " ✗ expected " + r.CheckDigit.Expected)
		if r.CheckDigit.Advisory {
			check += st.Subtle.Render(" (advisory outside North America)")
		}
	}
	add("Check", check) // the check digit, position 9
	if r.Year == nil && len(r.ModelYearCandidates) > 0 {
		years := make([]string, len(r.ModelYearCandidates))
		for i, y := range r.ModelYearCandidates {
			years[i] = strconv.Itoa(y)
		}
		add("Years", strings.Join(years, " or "))
	}
	add("vPIC", deref(r.ErrorText))
	if r.Stale {
		lines = append(lines, st.Warn.Render("vPIC is unavailable: this decode is from the cache."))
	}
	// The links are catalog matches, not part of the decode: a rule and a
	// heading set them apart.
	links := r.Links
	counts := count(len(links.Cars), "car", "cars") + " · " + count(len(links.TireSizes), "tire fitment", "tire fitments")
	if len(links.Motorcycles) > 0 {
		counts = count(len(links.Motorcycles), "motorcycle", "motorcycles") + " · " + counts
	}
	lines = append(lines, st.Subtle.Render(strings.Repeat("─", max(1, min(p.width, 60)))),
		st.Title.Render("Linked catalog records")+st.Subtle.Render("  "+counts+" of this make, model and year"))
	return strings.Join(lines, "\n")
}

// hinTop shows a decoded HIN above its linked boats: add writes a labelled
// line, raw any other.
func (p *vinPage) hinTop(c *common, add func(label, value string), raw func(string)) {
	st, r := c.styles, p.hin
	add("HIN", r.HIN)
	maker := st.Warn.Render("not in the Coast Guard's list")
	if m := r.Manufacturer; m != nil {
		maker = joinNonEmpty(", ", m.Company, m.City, m.State)
	}
	add("Maker", r.MIC+" · "+maker)
	format := strings.ReplaceAll(r.Format, "_", " ")
	if r.Country != nil {
		format += " · " + r.Country.Name
	}
	add("Format", format)
	add("Serial", r.Serial)
	add("Built", time.Month(r.ProductionMonth).String()+" "+strconv.Itoa(r.ProductionYear))
	if r.ModelYear != nil {
		add("Model yr", strconv.Itoa(*r.ModelYear))
	}
	for _, w := range r.Warnings {
		raw(st.Warn.Render(w.Text))
	}
	raw(st.Subtle.Render(strings.Repeat("─", max(1, min(p.width, 60)))))
	raw(st.Title.Render("Linked catalog boats") + st.Subtle.Render("  "+
		count(len(r.Links.Boats), "boat", "boats")+" of this maker and model year"))
}

// count is n and the noun that goes with it: "1 car", "2 cars".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func (p *vinPage) view(c *common) string {
	s := p.top(c)
	if p.report == nil && p.hin == nil {
		return s
	}
	if len(p.links.Items()) == 0 {
		return s + "\n" + c.styles.Subtle.Render("  The catalog has no record of this make, model and year.")
	}
	return s + "\n" + p.links.View()
}

func (p *vinPage) help(c *common) []key.Binding {
	if p.editing {
		return []key.Binding{c.keys.Decode, c.keys.Back}
	}
	return listHelp(c, p.links, c.keys.EditVIN)
}

func (p *vinPage) moreHelp(*common) []key.Binding {
	if p.editing {
		return nil
	}
	return listMoreHelp(p.links)
}

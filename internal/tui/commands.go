package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/vds-dev/vds/client"
)

// Every fetch is a tea.Cmd run off the update loop, capturing the Client and
// context, not the model, which may have moved on by then.

// perPage is the API's maximum, so paging costs the fewest charged calls.
const perPage = 10

func fail(id pageID, what string, err error) tea.Msg {
	return errMsg{addr: addr{id}, what: what, err: err}
}

func fetchMakes(ctx context.Context, c Client, id pageID, kind client.Kind) tea.Cmd {
	return func() tea.Msg {
		makes, err := c.Makes(ctx, kind)
		if err != nil {
			return fail(id, "load "+kindName(kind)+" makes", err)
		}
		printable(&makes)
		return makesMsg{addr: addr{id}, makes: makes}
	}
}

func fetchModels(ctx context.Context, c Client, id pageID, kind client.Kind, mk string) tea.Cmd {
	return func() tea.Msg {
		models, err := c.Models(ctx, kind, mk)
		if err != nil {
			return fail(id, "load "+mk+" models", err)
		}
		printable(&models)
		return modelsMsg{addr: addr{id}, models: models}
	}
}

func fillPage[T any](msg *recordsMsg, p *client.Page[T], err error, wrap func(*T) record) error {
	if err != nil {
		return err
	}
	printable(p)
	for i := range p.Data {
		msg.rows = append(msg.rows, wrap(&p.Data[i]))
	}
	msg.meta, msg.next, msg.prev = p.Meta, p.NextPage, p.PrevPage
	return nil
}

func fetchRecords(ctx context.Context, c Client, id pageID, kind client.Kind, mk, model string, page int) tea.Cmd {
	return func() tea.Msg {
		msg := recordsMsg{addr: addr{id}, page: page}
		var err error
		switch kind {
		case client.KindCar:
			p, e := c.ListCars(ctx, client.CarQuery{Make: mk, Model: model, Page: page, PerPage: perPage})
			err = fillPage(&msg, p, e, func(r *client.Car) record { return record{kind: kind, car: r} })
		case client.KindMotorcycle:
			p, e := c.ListMotorcycles(ctx, client.MotorcycleQuery{Make: mk, Model: model, Page: page, PerPage: perPage})
			err = fillPage(&msg, p, e, func(r *client.Motorcycle) record { return record{kind: kind, moto: r} })
		case client.KindBoat:
			p, e := c.ListBoats(ctx, client.BoatQuery{Make: mk, Model: model, Page: page, PerPage: perPage})
			err = fillPage(&msg, p, e, func(r *client.Boat) record { return record{kind: kind, boat: r} })
		case client.KindTireSize:
			p, e := c.ListTireSizes(ctx, client.TireSizeQuery{Make: mk, Model: model, Page: page, PerPage: perPage})
			err = fillPage(&msg, p, e, func(r *client.TireFitment) record { return record{kind: kind, tire: r} })
		default:
			err = fmt.Errorf("unknown record type %q", kind)
		}
		if err != nil {
			return fail(id, fmt.Sprintf("load %s %s page %d", mk, model, page), err)
		}
		return msg
	}
}

// fetchRecord serves the pages that know only a uuid (VIN links, the garage).
func fetchRecord(ctx context.Context, c Client, id pageID, kind client.Kind, uuid string) tea.Cmd {
	return func() tea.Msg {
		rec := record{kind: kind}
		var err error
		switch kind {
		case client.KindCar:
			rec.car, err = c.GetCar(ctx, uuid)
		case client.KindMotorcycle:
			rec.moto, err = c.GetMotorcycle(ctx, uuid)
		case client.KindBoat:
			rec.boat, err = c.GetBoat(ctx, uuid)
		case client.KindTireSize:
			rec.tire, err = c.GetTireSize(ctx, uuid)
		default:
			err = fmt.Errorf("unknown record type %q", kind)
		}
		if err != nil {
			return fail(id, "load "+kindName(kind)+" "+uuid, err)
		}
		printable(rec.car)
		printable(rec.moto)
		printable(rec.boat)
		printable(rec.tire)
		return recordMsg{addr: addr{id}, rec: rec}
	}
}

func fetchTires(ctx context.Context, c Client, id pageID, rec record) tea.Cmd {
	return func() tea.Msg {
		switch rec.kind {
		case client.KindCar:
			t, err := c.CarTireSizes(ctx, rec.uuid())
			if err != nil {
				return fail(id, "load tire fitments", err)
			}
			printable(t)
			return reportMsg[tireReport]{addr: addr{id}, report: tireReport{title: rec.title(), match: t.Match, fitments: t.Fitments}}
		case client.KindTireSize:
			g, err := c.TireGeometry(ctx, rec.uuid())
			if err != nil {
				return fail(id, "load tire geometry", err)
			}
			printable(g)
			return reportMsg[tireReport]{addr: addr{id}, report: tireReport{title: rec.title(), fitments: []client.FitmentGeometry{*g}}}
		}
		return fail(id, "load tires", fmt.Errorf("a %s has no tire fitments", kindName(rec.kind)))
	}
}

// complaintsPage is how many complaints the complaints page shows.
const complaintsPage = 5

func fetchRecalls(ctx context.Context, c Client, id pageID, rec record) tea.Cmd {
	return func() tea.Msg {
		var r recallReport
		switch rec.kind {
		case client.KindCar:
			cr, err := c.CarRecalls(ctx, rec.uuid())
			if err != nil {
				return fail(id, "load recalls", err)
			}
			printable(cr)
			r = recallReport{coverage: cr.Coverage, recalls: cr.Recalls, ratings: cr.Ratings, stale: cr.Stale, fetchedAt: cr.FetchedAt}
		case client.KindMotorcycle:
			mr, err := c.MotorcycleRecalls(ctx, rec.uuid())
			if err != nil {
				return fail(id, "load recalls", err)
			}
			printable(mr)
			r = recallReport{coverage: mr.Coverage, note: mr.Note, recalls: mr.Recalls, stale: mr.Stale, fetchedAt: mr.FetchedAt}
		default:
			return fail(id, "load recalls", fmt.Errorf("NHTSA has no recalls for a %s", kindName(rec.kind)))
		}
		r.title = rec.title()
		return reportMsg[recallReport]{addr: addr{id}, report: r}
	}
}

func fetchComplaints(ctx context.Context, c Client, id pageID, rec record) tea.Cmd {
	return func() tea.Msg {
		get := c.CarComplaints
		switch rec.kind {
		case client.KindCar:
		case client.KindMotorcycle:
			get = c.MotorcycleComplaints
		default:
			return fail(id, "load complaints", fmt.Errorf("NHTSA has no complaints for a %s", kindName(rec.kind)))
		}
		cs, err := get(ctx, rec.uuid(), 1, complaintsPage)
		if err != nil {
			return fail(id, "load complaints", err)
		}
		printable(cs)
		return reportMsg[complaintReport]{addr: addr{id}, report: complaintReport{title: rec.title(), complaints: cs}}
	}
}

func fetchHIN(ctx context.Context, c Client, id pageID, hin string) tea.Cmd {
	return func() tea.Msg {
		rep, err := c.DecodeHIN(ctx, hin)
		if err != nil {
			return fail(id, "decode "+hin, err)
		}
		printable(rep)
		return hinMsg{addr: addr{id}, report: rep}
	}
}

func fetchVIN(ctx context.Context, c Client, id pageID, vin string) tea.Cmd {
	return func() tea.Msg {
		rep, err := c.DecodeVIN(ctx, vin)
		if err != nil {
			return fail(id, "decode "+vin, err)
		}
		printable(rep)
		return vinMsg{addr: addr{id}, report: rep}
	}
}

func fetchGarage(ctx context.Context, c Client, id pageID) tea.Cmd {
	return func() tea.Msg {
		lists, err := c.Lists(ctx)
		if err != nil {
			return fail(id, "load garage", err)
		}
		printable(&lists)
		return garageMsg{addr: addr{id}, lists: lists}
	}
}

func open(p page) tea.Cmd {
	return func() tea.Msg { return openMsg{p: p} }
}

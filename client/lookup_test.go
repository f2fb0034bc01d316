package client

import (
	"context"
	"errors"
	"net/http"
	"testing"
)

func TestLookupPaths(t *testing.T) {
	t.Parallel()
	const id = "8737aed5-75cd-5e92-8e11-114a3fdffc1f"
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/vin/4T1B11HK5KU000001":
			writeBody(w, env(`{"vin":"4T1B11HK5KU000001","make":"Toyota","links":{"cars":["`+id+`"],"tire_sizes":[]}}`))
		case "/v1/cars/" + id + "/recalls":
			writeBody(w, env(`{"car":{"uuid":"`+id+`"},"coverage":"US (NHTSA)","recalls":[{"campaign_number":"19V123000","park_it":true}],"ratings":[]}`))
		case "/v1/motorcycles/" + id + "/recalls":
			writeBody(w, env(`{"motorcycle":{"uuid":"`+id+`"},"note":"n","recalls":[]}`))
		case "/v1/cars/" + id + "/complaints", "/v1/motorcycles/" + id + "/complaints":
			writeBody(w, env(`{"vehicle":{"uuid":"`+id+`"},"complaints":[{"odi_number":11628932,"components":["STEERING"]}],`+
				`"meta":{"page":`+r.URL.Query().Get("page")+`,"per_page":1,"total":7},"totals":{"complaints":7,"fires":2}}`))
		default:
			http.NotFound(w, r)
		}
	})
	c, ctx := f.client(), context.Background()

	rep, err := c.DecodeVIN(ctx, " 4T1B11HK5KU000001 ")
	if err != nil || *rep.Make != "Toyota" || len(rep.Links.Cars) != 1 || rep.Links.Cars[0] != id {
		t.Fatalf("DecodeVIN = %+v, %v", rep, err)
	}
	cr, err := c.CarRecalls(ctx, id)
	if err != nil || cr.Car.UUID != id || len(cr.Recalls) != 1 || !cr.Recalls[0].ParkIt {
		t.Fatalf("CarRecalls = %+v, %v", cr, err)
	}
	mr, err := c.MotorcycleRecalls(ctx, id)
	if err != nil || mr.Motorcycle.UUID != id || mr.Note != "n" {
		t.Fatalf("MotorcycleRecalls = %+v, %v", mr, err)
	}
	for _, get := range []func(context.Context, string, int, int, ...CallOption) (*Complaints, error){c.CarComplaints, c.MotorcycleComplaints} {
		cc, err := get(ctx, id, 3, 1)
		if err != nil || cc.Vehicle.UUID != id || cc.Meta.Page != 3 || cc.Totals.Fires != 2 || cc.Complaints[0].ODINumber != 11628932 {
			t.Fatalf("complaints = %+v, %v", cc, err)
		}
	}
}

func TestLookupRefusesBadInputLocally(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeBody(w, env(`{}`)) })
	c, ctx := f.client(), context.Background()
	for _, vin := range []string{"", "  ", "../me", "4T1B11HK5KU00000/", "4T1B11HK5KU 000001", "..", "VIN%2F"} {
		if _, err := c.DecodeVIN(ctx, vin); !errors.Is(err, ErrInvalidVIN) {
			t.Errorf("DecodeVIN(%q) = %v, want ErrInvalidVIN", vin, err)
		}
	}
	for _, id := range []string{"makes", "../vin/x"} {
		if _, err := c.CarRecalls(ctx, id); !errors.Is(err, ErrInvalidUUID) {
			t.Errorf("CarRecalls(%q) = %v, want ErrInvalidUUID", id, err)
		}
		if _, err := c.MotorcycleRecalls(ctx, id); !errors.Is(err, ErrInvalidUUID) {
			t.Errorf("MotorcycleRecalls(%q) = %v, want ErrInvalidUUID", id, err)
		}
	}
	if n := f.count(); n != 0 {
		t.Errorf("%d requests made for invalid input, want none", n)
	}
}

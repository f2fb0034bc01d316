package vehicle_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

// TestUnvalidatedRecords feeds records that never went through Normalize,
// as a store written by an older version might hold: the snapshot must
// still build, answer consistently, and never panic.
func TestUnvalidatedRecords(t *testing.T) {
	t.Parallel()
	id := func(n byte) uuid.UUID { return uuid.UUID{15: n} }
	c := &catalog.Catalog{
		Cars: []catalog.Car{
			{UUID: id(1), Make: "Zil", Model: "41047", Year: 1990, Body: "Limousine", FuelType: "gasoline"},
			{UUID: id(2), Make: "zil", Model: "41047", Year: 1990, Body: "suv", FuelType: "battery electric vehicle (bev)"},
			{UUID: id(3), Make: "ZIL", Model: "41047", Year: 1990, Body: "SUV", FuelType: catalog.FuelGasoline},
		},
		Boats: []catalog.Boat{{UUID: id(4), Make: "Raft", Model: "Log", Year: 1950}},
		TireSizes: []catalog.TireFitment{{UUID: id(5), Make: "Zil", Model: "41047", Year: 1990, TireSize: "bogus",
			AlternateSizes: []string{"235/75R15", "worse"}}},
	}
	svc := vehicle.NewService(snapshot(t, c, catalog.Version{}))

	t.Run("body counts merge case and list unknown bodies last", func(t *testing.T) {
		bodies := svc.BodyTypes()
		last := bodies[len(bodies)-1]
		var suv int
		for _, b := range bodies {
			if b.Name == "SUV" {
				suv = b.Count
			}
		}
		if suv != 2 || last.Name != "Limousine" || last.Count != 1 || len(bodies) != len(catalog.Bodies)+1 {
			t.Errorf("BodyTypes = %+v", bodies)
		}
	})
	t.Run("make spellings are one make", func(t *testing.T) {
		makes := svc.Makes(catalog.KindCar)
		if len(makes) != 1 || makes[0].Count != 3 {
			t.Errorf("Makes = %+v, want one make with 3 records", makes)
		}
	})
	t.Run("ev_only follows the fuel type", func(t *testing.T) {
		res, err := find(svc, catalog.KindCar, []string{"ev_only", "1"})
		if err != nil || res.Meta.Total != 1 || res.Records().([]catalog.Car)[0].UUID != id(2) {
			t.Errorf("ev_only=1: %+v, %v", res, err)
		}
	})
	t.Run("records sharing make, model, year and trim order by uuid", func(t *testing.T) {
		_, got := searchAll(t, svc, catalog.KindCar, []string{"make", "zil"})
		if len(got) != 3 || got[0].id != id(1) || got[1].id != id(2) || got[2].id != id(3) {
			t.Errorf("order = %v", got)
		}
	})
	t.Run("zero hp and length", func(t *testing.T) {
		for _, tt := range []struct {
			params []string
			want   int
		}{
			{[]string{"hp_max", "0"}, 1},
			{[]string{"hp_min", "1"}, 0},
			{[]string{"length_max", "0"}, 1},
			{[]string{"length_min", "0.1"}, 0},
		} {
			res, err := find(svc, catalog.KindBoat, tt.params)
			if err != nil || res.Meta.Total != tt.want {
				t.Errorf("%v: total %d, %v; want %d", tt.params, res.Meta.Total, err, tt.want)
			}
		}
	})
	t.Run("unparseable tire sizes keep their text", func(t *testing.T) {
		fg, err := svc.Geometry(id(5))
		if err != nil {
			t.Fatal(err)
		}
		if fg.OEM.Size != "bogus" || fg.OEM.DiameterIn != 0 || len(fg.Alternates) != 2 {
			t.Errorf("geometry = %+v", fg)
		}
		for _, a := range fg.Alternates {
			if a.WithinWindow || a.DiameterDiffPct != 0 {
				t.Errorf("alternate %+v compared against an unknown OEM size", a)
			}
		}
		res, err := find(svc, catalog.KindTireSize, []string{"q", "bogus"})
		if err != nil || res.Meta.Total != 1 {
			t.Errorf("q=bogus: %+v, %v", res.Meta, err)
		}
	})
	t.Run("filters on kinds with no such values", func(t *testing.T) {
		// Here no car is electrified, no fitment has a load index, no car
		// year falls in the window and there are no motorcycles at all.
		empty := vehicle.NewService(snapshot(t, &catalog.Catalog{Cars: c.Cars[:1], TireSizes: c.TireSizes}, catalog.Version{}))
		for _, tt := range []struct {
			kind   catalog.Kind
			params []string
		}{
			{catalog.KindCar, []string{"ev_only", "1"}},
			{catalog.KindCar, []string{"year_min", "2000", "year_max", "2005"}},
			{catalog.KindCar, []string{"model", "Chaika"}},
			{catalog.KindTireSize, []string{"tire_size", "235/75R15 109T"}},
			{catalog.KindMotorcycle, []string{"q", "anything"}},
		} {
			res, err := find(empty, tt.kind, tt.params)
			if err != nil || res.Meta.Total != 0 {
				t.Errorf("%s %v: %+v, %v; want no matches", tt.kind, tt.params, res.Meta, err)
			}
		}
	})
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	_, err := find(demoService(t), catalog.KindCar, []string{"year", "1" + strings.Repeat("é", 30)})
	e := wantError(t, err, vehicle.CodeInvalidParameter, "year")
	if err.Error() != e.Message {
		t.Errorf("Error() = %q, want the message %q", err.Error(), e.Message)
	}
	// The odd prefix puts byte 40 inside an "é": the echo must back up to a
	// rune boundary so the message stays valid UTF-8.
	if !strings.Contains(e.Message, `é..."`) || !utf8.ValidString(e.Message) {
		t.Errorf("message %q: want the value cut cleanly", e.Message)
	}
}

package e2e

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
)

// demoCatalog parses the embedded demo catalog, the truth the answers of a
// server loaded with it are checked against.
func demoCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	src, err := ingest.DemoSources()
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := ingest.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEveryEndpointThroughTheSDK drives each endpoint of a real vds serve
// through the public client, on both stores; every response also passes
// the OpenAPI validator.
func TestEveryEndpointThroughTheSDK(t *testing.T) {
	t.Parallel()
	demo := demoCatalog(t)
	backends(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		e.vds("ingest")
		_, tok := e.newToken("sdk@example.com", "developer")
		in := e.serve()
		c := client.New(in.URL, tok, client.WithHTTPClient(validatingClient(t)), client.WithRetries(0))

		// Cars: filters agree with a brute-force count over the demo data.
		wantToyota, wantBEV := 0, 0
		for _, car := range demo.Cars {
			if car.Make == "Toyota" {
				wantToyota++
				if car.FuelType == catalog.FuelBEV {
					wantBEV++
				}
			}
		}
		page, err := c.ListCars(ctx, client.CarQuery{Make: "toyota", PerPage: 5})
		if err != nil {
			t.Fatal(err)
		}
		if page.Meta.Total != wantToyota || len(page.Data) != min(5, wantToyota) || page.NextPage != 2 || page.Rate.QuotaUsed != 1 {
			t.Fatalf("Toyota cars: total %d (want %d), %d on the page, next %d, quota used %d", page.Meta.Total, wantToyota, len(page.Data), page.NextPage, page.Rate.QuotaUsed)
		}
		bev, err := c.ListCars(ctx, client.CarQuery{Make: "Toyota", FuelType: "BEV"})
		if err != nil || bev.Meta.Total != wantBEV {
			t.Fatalf("Toyota BEVs: %v, %v; want %d", bev, err, wantBEV)
		}
		car, err := c.GetCar(ctx, page.Data[0].UUID)
		if err != nil || car.UUID != page.Data[0].UUID || car.Make != "Toyota" {
			t.Fatalf("GetCar: %+v, %v", car, err)
		}
		tires, err := c.CarTireSizes(ctx, car.UUID)
		if err != nil || tires.Car.UUID != car.UUID {
			t.Fatalf("CarTireSizes: %+v, %v", tires, err)
		}
		for _, f := range tires.Fitments {
			if f.Fitment.Make != "Toyota" || !strings.EqualFold(f.Fitment.Model, car.Model) {
				t.Fatalf("fitment %s %s for a %s %s", f.Fitment.Make, f.Fitment.Model, car.Make, car.Model)
			}
		}
		makes, err := c.Makes(ctx, client.KindCar)
		if err != nil || !slices.ContainsFunc(makes, func(m client.MakeCount) bool { return m.Name == "Toyota" && m.Count == wantToyota }) {
			t.Fatalf("car makes lack Toyota with %d: %v, %v", wantToyota, makes, err)
		}
		models, err := c.CarModels(ctx, "Toyota")
		if err != nil || len(models) == 0 {
			t.Fatalf("Toyota models: %v, %v", models, err)
		}
		bodies, err := c.CarBodyTypes(ctx)
		if err != nil || sumNames(bodies) != len(demo.Cars) {
			t.Fatalf("body types count %d cars, want %d (%v)", sumNames(bodies), len(demo.Cars), err)
		}

		// Motorcycles, boats, HINs, tire sizes.
		var apiErr *client.APIError
		types, err := c.MotorcycleTypes(ctx)
		if err != nil || len(types) != len(catalog.MotorcycleTypes) {
			t.Fatalf("motorcycle types: %v, %v", types, err)
		}
		motos, err := c.ListMotorcycles(ctx, client.MotorcycleQuery{MotorcycleType: "Snowmobile"})
		if err != nil || motos.Meta.Total != count(demo.Motorcycles, func(m catalog.Motorcycle) bool { return m.MotorcycleType == "Snowmobile" }) {
			t.Fatalf("snowmobiles: %+v, %v", motos.Meta, err)
		}
		if m, err := c.GetMotorcycle(ctx, motos.Data[0].UUID); err != nil || m.VehicleType != catalog.ClassSnowmobile {
			t.Fatalf("GetMotorcycle: %+v, %v", m, err)
		}
		hp := 300
		boats, err := c.ListBoats(ctx, client.BoatQuery{HullType: "Aluminum", HPMin: &hp})
		want := count(demo.Boats, func(b catalog.Boat) bool { return b.HullType == "Aluminum" && b.HP >= 300 })
		if err != nil || boats.Meta.Total != want {
			t.Fatalf("aluminum boats of 300 hp or more: %d, %v; want %d", boats.Meta.Total, err, want)
		}
		hulls, err := c.BoatHullTypes(ctx)
		if err != nil || sumNames(hulls) != len(demo.Boats) {
			t.Fatalf("hull types count %d boats, want %d", sumNames(hulls), len(demo.Boats))
		}
		hin, err := c.DecodeHIN(ctx, "US-BWC 12345 L7 18")
		if err != nil || hin.Manufacturer == nil || hin.Manufacturer.Company != "BOSTON WHALER INC" || hin.ModelYear == nil ||
			*hin.ModelYear != 2018 || len(hin.Links.Boats) != count(demo.Boats, func(b catalog.Boat) bool { return b.Make == "Boston Whaler" && b.Year == 2018 }) {
			t.Fatalf("DecodeHIN: %+v, %v", hin, err)
		}
		hins, err := c.DecodeHINs(ctx, []string{"BWC12345L718", "BWC12O45L718"})
		if err != nil || len(hins) != 2 || hins[0].Report == nil || hins[1].Error == nil || hins[1].Error.Position != 6 {
			t.Fatalf("DecodeHINs: %+v, %v", hins, err)
		}
		if _, err := c.DecodeHIN(ctx, "BWC12345Z718"); !errors.As(err, &apiErr) || apiErr.Code != "invalid_hin" || apiErr.Position != 9 {
			t.Fatalf("invalid HIN: %v", err)
		}
		fits, err := c.ListTireSizes(ctx, client.TireSizeQuery{Make: "Chevrolet", Model: "Corvette"})
		if err != nil || fits.Meta.Total == 0 {
			t.Fatalf("Corvette fitments: %+v, %v", fits, err)
		}
		geo, err := c.TireGeometry(ctx, fits.Data[0].UUID)
		if err != nil || len(geo.Alternates) != len(fits.Data[0].AlternateSizes) || geo.OEM.DiameterIn <= 0 {
			t.Fatalf("geometry: %+v, %v", geo, err)
		}
		plus, err := c.TirePlusSizes(ctx, fits.Data[0].UUID, 2)
		if err != nil || plus.WindowPct != 2 || plus.Front.OEM != geo.OEM || len(plus.Front.Rims) != 6 || (plus.Rear == nil) != (geo.Rear == nil) {
			t.Fatalf("plus sizes: %+v, %v", plus, err)
		}
		carrying := count(demo.TireSizes, func(f catalog.TireFitment) bool {
			return f.TireSize == "LT285/70R17" || slices.Contains(f.AlternateSizes, "LT285/70R17")
		})
		look, err := c.LookupTireSize(ctx, client.SizeLookupQuery{Size: "lt285/70 r17"})
		if err != nil || look.Size.Size != "LT285/70R17" || look.Meta.Total != carrying || carrying == 0 {
			t.Fatalf("lookup LT285/70R17: %+v, %v; want %d fitments", look, err, carrying)
		}

		// Account.
		me, err := c.Me(ctx)
		if err != nil || me.Plan.Name != "developer" || me.Account.Email != "sdk@example.com" {
			t.Fatalf("Me: %+v, %v", me, err)
		}
		lists, err := c.Lists(ctx)
		if err != nil || len(lists) != 1 || lists[0].Name != "My garage" {
			t.Fatalf("Lists: %+v, %v", lists, err)
		}
		if recalls, err := c.ListRecalls(ctx); err != nil || recalls == nil {
			t.Fatalf("ListRecalls: %+v, %v", recalls, err)
		}
		if log, err := c.Changelog(ctx); err != nil || len(log) == 0 || log[0].Version != "1.5.0" {
			t.Fatalf("Changelog: %+v, %v", log, err)
		}
		if spec, err := c.OpenAPI(ctx); err != nil || !strings.Contains(string(spec), `"openapi":"3.1.0"`) {
			t.Fatalf("OpenAPI: %d bytes, %v", len(spec), err)
		}

		// Errors carry the problem code and the request id.
		_, err = c.ListCars(ctx, client.CarQuery{YearMin: 1990})
		if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Code != "query_too_broad" || apiErr.RequestID == "" {
			t.Fatalf("open-ended year: %v", err)
		}
		if _, err := c.GetBoat(ctx, "00000000-0000-5000-8000-000000000000"); !client.IsNotFound(err) {
			t.Fatalf("unknown boat: %v", err)
		}
		bad := client.New(in.URL, "vds_notarealtoken", client.WithHTTPClient(validatingClient(t)), client.WithRetries(0))
		if _, err := bad.Me(ctx); !client.IsUnauthorized(err) {
			t.Fatalf("bad token: %v", err)
		}
	})
}

func sumNames(ns []client.NameCount) int {
	n := 0
	for _, c := range ns {
		n += c.Count
	}
	return n
}

func count[T any](xs []T, f func(T) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}

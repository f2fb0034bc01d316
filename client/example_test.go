package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/vds-dev/vds/client"
)

// These examples need a running server (vds serve --demo prints a token),
// so they have no Output lines and are only compiled by go test.

func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := client.New("http://localhost:8080", os.Getenv("VDS_TOKEN"))

	me, err := c.Me(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s on the %s plan, %d calls used this month\n", me.Account.Email, me.Plan.Name, me.Quota.Used)

	// Drill down the taxonomy: makes, then models, then records.
	makes, err := c.CarMakes(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range makes[:min(3, len(makes))] {
		models, err := c.CarModels(ctx, m.Name)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(m.Name, len(models), "models")
	}

	_, err = c.GetCar(ctx, "6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41")
	var apiErr *client.APIError
	switch {
	case client.IsNotFound(err):
		fmt.Println("no such car")
	case client.IsRateLimited(err) && errors.As(err, &apiErr):
		fmt.Println("slow down; retry in", apiErr.RetryAfter)
	case err != nil:
		log.Fatal(err)
	}
}

func ExampleClient_ListCars() {
	ctx := context.Background()
	c := client.New("http://localhost:8080", os.Getenv("VDS_TOKEN"), client.WithRetries(3))

	q := client.CarQuery{Make: "Toyota", YearMin: 2018, YearMax: 2024, EVOnly: true, PerPage: 10}
	for {
		page, err := c.ListCars(ctx, q)
		if err != nil {
			log.Fatal(err)
		}
		for _, car := range page.Data {
			mpg := "n/a"
			if car.MPGCombined != nil {
				mpg = fmt.Sprintf("%.0f mpg", *car.MPGCombined)
			}
			fmt.Println(car.Year, car.Make, car.Model, car.Trim, mpg)
		}
		fmt.Printf("page %d of %d, %d calls left this month\n", page.Meta.Page, page.Meta.MaxPage, page.Rate.QuotaRemaining)
		if !page.HasNext() {
			break
		}
		q.Page = page.NextPage
	}

	// The same, letting the iterator fetch the pages.
	for car, err := range c.AllCars(ctx, client.CarQuery{Make: "Toyota", Model: "Prius"}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(car.UUID, car.Year)
	}
}

func ExampleClient_CarTireSizes() {
	ctx := context.Background()
	c := client.New("http://localhost:8080", os.Getenv("VDS_TOKEN"))

	var info client.ResponseInfo
	tires, err := c.CarTireSizes(ctx, "6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41", client.CaptureInfo(&info))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d %s %s (%s match, request %s)\n", tires.Car.Year, tires.Car.Make, tires.Car.Model, tires.Match, info.RequestID)
	for _, f := range tires.Fitments {
		fmt.Println("OEM", f.OEM.Size, f.OEM.DiameterIn, "in")
		for _, alt := range f.Alternates {
			fmt.Printf("  %s %+.2f%% within ±%.0f%%: %v\n", alt.Size, alt.DiameterDiffPct, f.WindowPct, alt.WithinWindow)
		}
	}
}

func ExampleClient_ListBoats() {
	ctx := context.Background()
	c := client.New("http://localhost:8080", os.Getenv("VDS_TOKEN"))
	// Pointers distinguish "no bound" from a bound of 0; new(v) makes one.
	page, err := c.ListBoats(ctx, client.BoatQuery{HullType: "Aluminum", HPMin: new(150), LengthMax: new(20.0)})
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range page.Data {
		fmt.Println(b.Make, b.Model, b.LengthFt, "ft", b.HP, "hp")
	}
}

// Command catalog writes a synthetic car catalog of N cars for
// scripts/scale.sh: a cars CSV that vds ingest accepts, drawn from the demo
// catalog's cars, so makes, models, bodies, fuels, drives, engines and EPA
// figures keep the demo's proportions. Each car takes a demo car's shape, a
// model year up to ten before it, and a trim of its own: the demo trim with
// an edition or package. The same seed writes the same file.
package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
)

func main() {
	n := flag.Int("cars", 10000, "how many cars")
	seed := flag.Uint64("seed", 1, "seed of the draws: the same seed writes the same file")
	out := flag.String("o", "", "the file to write, named cars*.csv (default: cars-N.csv)")
	flag.Parse()
	if *out == "" {
		*out = fmt.Sprintf("cars-%d.csv", *n)
	}
	if err := writeFile(*out, *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "catalog:", err)
		os.Exit(1)
	}
}

func writeFile(path string, n int, seed uint64) error {
	if k, _, err := ingest.KindOfFile(path); err != nil || k != catalog.KindCar {
		return fmt.Errorf("%s: name the file cars*.csv, so that vds ingest reads it as cars", path)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = generate(w, n, seed)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// lastYear bounds the years drawn; the demo's cars span 2015-2025.
const lastYear = 2026

// editions and packages make a demo trim into many: real catalogs list a
// model year's trim with each package and edition it was sold with.
var (
	editions = []string{"", "Premium", "Limited", "Sport", "Touring", "Launch Edition", "Black Edition", "Nightshade",
		"Technology", "Luxury", "Platinum", "Special Edition", "Anniversary Edition", "Off-Road", "Value Edition", "Design"}
	packages = []string{"", "Convenience Package", "Cold Weather Package", "Towing Package", "Appearance Package",
		"Driver Assist Package", "Performance Package", "Premium Audio", "Panoramic Roof", "Winter Package",
		"Executive Package", "Safety Package", "Navigation Package", "Trailering Package", "Sun and Sound"}
)

var header = []string{"make", "model", "year", "trim", "body", "fuel_type", "drive_type", "transmission", "displacement_l", "cylinders",
	"epa_id", "mpg_city", "mpg_highway", "mpg_combined", "epa_range_miles", "epa_electric_range_miles", "annual_fuel_cost", "co2_gpm"}

// generate writes n distinct cars: no two share a natural key, so none is
// refused as a duplicate.
func generate(w io.Writer, n int, seed uint64) error {
	src, err := ingest.DemoSources()
	if err != nil {
		return err
	}
	demo, _, err := ingest.Parse(src[:1])
	if err != nil {
		return err
	}
	shapes := demo.Cars
	if len(shapes) == 0 {
		return errors.New("the demo catalog has no cars")
	}
	rng := rand.New(rand.NewPCG(seed, 0x7664732d6361722d))
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	seen := make(map[uuid.UUID]struct{}, n)
	row := make([]string, len(header))
	for len(seen) < n {
		c := draw(rng, &shapes[rng.IntN(len(shapes))])
		if errs := c.Normalize(); len(errs) > 0 {
			return fmt.Errorf("drew an invalid car %s %s %d: %v", c.Make, c.Model, c.Year, errs)
		}
		if _, dup := seen[c.UUID]; dup {
			continue
		}
		seen[c.UUID] = struct{}{}
		if err := cw.Write(fill(row, &c)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// draw makes a car of shape's make, model, body, fuel, engine and figures,
// with a year within ten years before it and a trim of its own.
func draw(rng *rand.Rand, shape *catalog.Car) catalog.Car {
	c := *shape
	c.Year = min(lastYear, shape.Year-10+rng.IntN(12))
	c.Trim = shape.Trim
	for _, extra := range []string{editions[rng.IntN(len(editions))], packages[rng.IntN(len(packages))]} {
		if extra != "" {
			c.Trim += " " + extra
		}
	}
	// One in twenty gets a market code, as EPA's and trim databases carry
	// them: that keeps 1,000,000 keys apart with the demo's few hundred shapes.
	if rng.IntN(20) == 0 {
		c.Trim += " (" + strconv.Itoa(100+rng.IntN(900)) + ")"
	}
	if (c.DriveType == "FWD" || c.DriveType == "RWD") && rng.IntN(5) == 0 {
		c.DriveType = "AWD"
	}
	return c
}

func fill(row []string, c *catalog.Car) []string {
	ints := func(o catalog.Opt[int]) string {
		if !o.Valid {
			return ""
		}
		return strconv.Itoa(o.V)
	}
	floats := func(o catalog.Opt[float64]) string {
		if !o.Valid {
			return ""
		}
		return strconv.FormatFloat(o.V, 'f', -1, 64)
	}
	copy(row, []string{c.Make, c.Model, strconv.Itoa(c.Year), c.Trim, c.Body, c.FuelType, c.DriveType, c.Transmission,
		floats(c.DisplacementL), ints(c.Cylinders), ints(c.EPAID), floats(c.MPGCity), floats(c.MPGHighway), floats(c.MPGCombined),
		ints(c.EPARangeMiles), ints(c.EPAElectricRangeMiles), ints(c.AnnualFuelCost), floats(c.CO2GPM)})
	return row
}

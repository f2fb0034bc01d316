package vehicle

import (
	"sync"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
)

// carStrings is how many strings a catalog.Car holds.
const carStrings = 9

// carRow is a car as a built snapshot keeps it: its strings as ids into
// carRows.strs. The cars are most of a large catalog's memory, and as
// catalog.Car each held nine pointers that every garbage collection
// followed (a million cars: nine million); carRow holds none.
type carRow struct {
	id           uuid.UUID
	strs         [carStrings]uint32
	year         int
	displacement catalog.Opt[float64]
	cylinders    catalog.Opt[int]
	economy      catalog.FuelEconomy
	electrified  bool
}

// carRows holds a table's cars packed, in the table's order.
type carRows struct {
	rows []carRow
	strs dict
}

func carStringsOf(c *catalog.Car) [carStrings]string {
	return [carStrings]string{c.Make, c.Model, c.SourceModel, c.Trim, c.Body, c.FuelType, c.DriveType, c.Transmission, c.Engine}
}

// packCars packs each half of cars on a goroutine of its own, then renumbers
// the second half's strings into the first half's dictionary.
func packCars(cars []catalog.Car) *carRows {
	r := &carRows{rows: make([]carRow, len(cars))}
	half := len(cars) / 2
	var second dict
	var wg sync.WaitGroup
	wg.Go(func() { packInto(r.rows[half:], cars[half:], &second) })
	packInto(r.rows[:half], cars[:half], &r.strs)
	wg.Wait()
	ids := make([]uint32, len(second.names))
	for i, s := range second.names {
		ids[i] = r.strs.id(s)
	}
	for i := half; i < len(r.rows); i++ {
		w := &r.rows[i]
		for f, id := range w.strs {
			w.strs[f] = ids[id]
		}
	}
	// Only the names are read from here on.
	r.strs.ids = nil
	return r
}

func packInto(rows []carRow, cars []catalog.Car, strs *dict) {
	// Sorted cars mostly repeat the previous one's strings, and comparing
	// is cheaper than hashing.
	var last [carStrings]string
	var lastID [carStrings]uint32
	for i := range cars {
		c, w := &cars[i], &rows[i]
		for f, s := range carStringsOf(c) {
			if i == 0 || s != last[f] {
				last[f], lastID[f] = s, strs.id(s)
			}
			w.strs[f] = lastID[f]
		}
		w.id, w.year, w.displacement, w.cylinders = c.UUID, c.Year, c.DisplacementL, c.Cylinders
		w.economy, w.electrified = c.FuelEconomy, c.Electrified
	}
}

func (r *carRows) at(p int32) catalog.Car {
	w, s := &r.rows[p], r.strs.names
	return catalog.Car{
		UUID: w.id, Make: s[w.strs[0]], Model: s[w.strs[1]], SourceModel: s[w.strs[2]], Year: w.year,
		Trim: s[w.strs[3]], Body: s[w.strs[4]], FuelType: s[w.strs[5]], DriveType: s[w.strs[6]],
		Transmission: s[w.strs[7]], DisplacementL: w.displacement, Cylinders: w.cylinders, Engine: s[w.strs[8]],
		FuelEconomy: w.economy, Electrified: w.electrified,
	}
}

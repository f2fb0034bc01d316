package vehicle

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
)

// Snapshot is an immutable, indexed catalog version; the hot path only reads it.
type Snapshot struct {
	version catalog.Version
	cars    *table[catalog.Car]
	motos   *table[catalog.Motorcycle]
	boats   *table[catalog.Boat]
	tires   *table[catalog.TireFitment]

	bodyTypes []NameCount
	motoTypes []TypeCount
	hullTypes []NameCount
	geometry  []FitmentGeometry
	// families groups fitment positions by make and model.
	families      familyIndex
	fitPowertrain []powertrain
	// carFamilies and motoFamilies are the same for VIN links.
	carFamilies, motoFamilies familyIndex
	makeNames                 map[string]string
	// bySize maps a size's filter key to the fitments carrying it, in list order.
	bySize map[string][]sizePost
	plus   plusCache
}

// NewSnapshot indexes a catalog, which must not change afterwards; a
// record that cannot be encoded fails it, naming the record.
func NewSnapshot(c *catalog.Catalog, v catalog.Version) (*Snapshot, error) {
	return newSnapshot(c, v, false)
}

// NewSnapshotOwning is NewSnapshot for a catalog handed over, as one just
// loaded: its records are sorted in place and become the snapshot's, where
// NewSnapshot copies them (a quarter of a million cars' memory at start-up).
func NewSnapshotOwning(c *catalog.Catalog, v catalog.Version) (*Snapshot, error) {
	return newSnapshot(c, v, true)
}

func newSnapshot(c *catalog.Catalog, v catalog.Version, own bool) (*Snapshot, error) {
	if c == nil {
		c = &catalog.Catalog{}
	}
	v.Counts = c.Counts()
	s := &Snapshot{version: v}
	// The kinds share nothing, so they are indexed in parallel.
	var (
		wg                                sync.WaitGroup
		carErr, motoErr, boatErr, tireErr error
	)
	wg.Go(func() {
		if s.cars, carErr = newTable(c.Cars, own, carFields, shareCar, &carRules.vocab); carErr != nil {
			return
		}
		s.bodyTypes = countBy(s.cars.recs, func(c *catalog.Car) string { return c.Body }, catalog.Bodies)
		s.carFamilies = newFamilyIndex()
		s.makeNames = make(map[string]string)
		for i := range s.cars.recs {
			c := &s.cars.recs[i]
			s.carFamilies.add(c.Make, c.Model, i)
			s.makeNames[squash(c.Make)] = c.Make
		}
	})
	wg.Go(func() {
		if s.motos, motoErr = newTable(c.Motorcycles, own, motorcycleFields, shareMotorcycle, &motoRules.vocab); motoErr != nil {
			return
		}
		s.motoFamilies = newFamilyIndex()
		for i := range s.motos.recs {
			s.motoFamilies.add(s.motos.recs[i].Make, s.motos.recs[i].Model, i)
		}
		types := countBy(s.motos.recs, func(m *catalog.Motorcycle) string { return m.MotorcycleType }, catalog.MotorcycleTypes)
		for _, nc := range types[:len(catalog.MotorcycleTypes)] {
			s.motoTypes = append(s.motoTypes, TypeCount{Name: nc.Name, VehicleType: catalog.ClassOf(nc.Name), Count: nc.Count})
		}
	})
	wg.Go(func() {
		if s.boats, boatErr = newTable(c.Boats, own, boatFields, shareBoat, &boatRules.vocab); boatErr != nil {
			return
		}
		s.hullTypes = countBy(s.boats.recs, func(b *catalog.Boat) string { return b.HullType }, catalog.HullTypes)
	})
	wg.Go(func() {
		if s.tires, tireErr = newTable(c.TireSizes, own, tireFields, shareTire, &tireRules.vocab); tireErr != nil {
			return
		}
		s.geometry = make([]FitmentGeometry, len(s.tires.recs))
		s.families = newFamilyIndex()
		for i := range s.tires.recs {
			f := &s.tires.recs[i]
			s.geometry[i] = GeometryOf(f)
			s.families.add(f.Make, f.Model, i)
		}
		s.indexSizes()
	})
	wg.Wait()
	if err := errors.Join(kindError(catalog.KindCar, carErr), kindError(catalog.KindMotorcycle, motoErr),
		kindError(catalog.KindBoat, boatErr), kindError(catalog.KindTireSize, tireErr)); err != nil {
		return nil, fmt.Errorf("catalog version %d: %w", v.Number, err)
	}
	// Built, the cars are packed (carRow), beside the last steps, which
	// only read them: the records and their copy in the catalog handed
	// over become garbage. For a catalog just loaded, the build's own
	// garbage is collected first, so that the packed rows take its place
	// rather than grow the heap: a million cars' start-up peaked 170 MB
	// higher without.
	packed := make(chan *carRows, 1)
	go func() {
		if own {
			runtime.GC()
		}
		packed <- packCars(s.cars.recs)
	}()
	s.linkPowertrains()
	for _, mk := range [][]MakeCount{s.motos.makes, s.tires.makes} {
		for _, m := range mk {
			if _, ok := s.makeNames[squash(m.Name)]; !ok {
				s.makeNames[squash(m.Name)] = m.Name
			}
		}
	}
	s.cars.packed, s.cars.recs = <-packed, nil
	return s, nil
}

func kindError(kind catalog.Kind, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s %w", kind, err)
}

func (s *Snapshot) vocab(kind catalog.Kind) *[maxAttrs][]string {
	switch kind {
	case catalog.KindCar:
		return &s.cars.vocab
	case catalog.KindMotorcycle:
		return &s.motos.vocab
	case catalog.KindBoat:
		return &s.boats.vocab
	}
	return &s.tires.vocab
}

// Version returns the catalog version the snapshot holds, with its counts.
func (s *Snapshot) Version() catalog.Version { return s.version }

func shareCar(c *catalog.Car, p *strPool) {
	p.share(&c.Make, &c.Model, &c.SourceModel, &c.Trim, &c.Body, &c.FuelType, &c.DriveType, &c.Transmission, &c.Engine)
}

func shareMotorcycle(m *catalog.Motorcycle, p *strPool) {
	p.share(&m.Make, &m.Model, &m.MotorcycleType, &m.VehicleType, &m.EngineType, &m.BodyClass, &m.FuelType, &m.Source)
}

func shareBoat(b *catalog.Boat, p *strPool) {
	p.share(&b.Make, &b.Model, &b.ModelType, &b.HullType, &b.FuelType)
}

func shareTire(f *catalog.TireFitment, p *strPool) { p.share(&f.Make, &f.Model, &f.Trim, &f.TireSize) }

func carFields(c *catalog.Car, f *fields) {
	f.id, f.make, f.model, f.trim, f.year = c.UUID, c.Make, c.Model, c.Trim, c.Year
	f.attrs = [maxAttrs]string{c.Body, c.FuelType, c.DriveType}
	f.text = append(f.text, c.Trim, c.Body, c.FuelType, c.DriveType)
	// Electrified is derived and may be unset on a hand-built record; the
	// fuel type is the definition.
	f.ev = c.Electrified || catalog.IsElectrified(strings.ToUpper(c.FuelType))
}

func motorcycleFields(m *catalog.Motorcycle, f *fields) {
	f.id, f.make, f.model, f.year = m.UUID, m.Make, m.Model, m.Year
	f.attrs = [maxAttrs]string{m.MotorcycleType, m.VehicleType}
	f.text = append(f.text, m.MotorcycleType, m.VehicleType)
}

func boatFields(b *catalog.Boat, f *fields) {
	f.id, f.make, f.model, f.year = b.UUID, b.Make, b.Model, b.Year
	f.attrs = [maxAttrs]string{b.HullType, b.FuelType, b.ModelType}
	f.text = append(f.text, b.ModelType, b.HullType)
	f.hp, f.length = b.HP, b.LengthFt
}

func tireFields(t *catalog.TireFitment, f *fields) {
	f.id, f.make, f.model, f.trim, f.year = t.UUID, t.Make, t.Model, t.Trim, t.Year
	// Stored sizes are canonical already; parsing again keeps the filter
	// correct for a catalog loaded from elsewhere.
	if sz, err := tire.Parse(t.TireSize); err == nil {
		f.attrs[0] = sizeKey(sz)
	} else {
		f.attrs[0] = t.TireSize
	}
	f.text = append(f.text, t.Trim, t.TireSize)
}

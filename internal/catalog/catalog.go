package catalog

import (
	"reflect"
	"slices"
	"time"

	"github.com/google/uuid"
)

// Catalog is a whole set of records, as read from ingest files or the store.
type Catalog struct {
	Cars        []Car
	Motorcycles []Motorcycle
	Boats       []Boat
	TireSizes   []TireFitment
}

// Counts holds a record count per kind.
type Counts struct {
	Cars        int `json:"cars"`
	Motorcycles int `json:"motorcycles"`
	Boats       int `json:"boats"`
	TireSizes   int `json:"tire_sizes"`
}

// Counts returns the number of records of each kind.
func (c *Catalog) Counts() Counts {
	return Counts{Cars: len(c.Cars), Motorcycles: len(c.Motorcycles), Boats: len(c.Boats), TireSizes: len(c.TireSizes)}
}

// Version is one published state of the catalog; servers poll its number.
type Version struct {
	Number      int64     `json:"version"`
	PublishedAt time.Time `json:"published_at"`
	Source      string    `json:"source"`
	// Counts are the record counts of this version.
	Counts Counts `json:"counts"`
}

// Changes is the difference between the stored catalog and an ingest.
type Changes struct {
	Cars        KindChanges[Car]
	Motorcycles KindChanges[Motorcycle]
	Boats       KindChanges[Boat]
	TireSizes   KindChanges[TireFitment]
}

// KindChanges is the change set of one kind.
type KindChanges[T any] struct {
	// Replace is true when the ingest carried this kind at all; a kind the
	// ingest does not mention is left alone.
	Replace bool
	Insert  []T
	Update  []T
	Delete  []uuid.UUID
	// Unchanged counts records present on both sides with equal content.
	Unchanged int
}

// Empty reports whether applying the change set would change nothing.
func (c *Changes) Empty() bool {
	return c.Cars.empty() && c.Motorcycles.empty() && c.Boats.empty() && c.TireSizes.empty()
}

func (k *KindChanges[T]) empty() bool {
	return len(k.Insert) == 0 && len(k.Update) == 0 && len(k.Delete) == 0
}

// Summary is what an ingest did (or, dry, would do), per kind.
type Summary struct {
	Kind      Kind `json:"type"`
	Added     int  `json:"added"`
	Changed   int  `json:"changed"`
	Unchanged int  `json:"unchanged"`
	Removed   int  `json:"removed"`
}

func (k *KindChanges[T]) summary(kind Kind) Summary {
	return Summary{Kind: kind, Added: len(k.Insert), Changed: len(k.Update), Unchanged: k.Unchanged, Removed: len(k.Delete)}
}

// Summaries returns one summary per kind the change set replaces.
func (c *Changes) Summaries() []Summary {
	var out []Summary
	if c.Cars.Replace {
		out = append(out, c.Cars.summary(KindCar))
	}
	if c.Motorcycles.Replace {
		out = append(out, c.Motorcycles.summary(KindMotorcycle))
	}
	if c.Boats.Replace {
		out = append(out, c.Boats.summary(KindBoat))
	}
	if c.TireSizes.Replace {
		out = append(out, c.TireSizes.summary(KindTireSize))
	}
	return out
}

// Diff computes the changes that turn current into next for the kinds in
// replace. A car whose input pins no EPA id keeps its stored EPA fields,
// which belong to enrich.
func Diff(current, next *Catalog, replace map[Kind]bool) Changes {
	cars := next.Cars
	if replace[KindCar] {
		stored := make(map[uuid.UUID]FuelEconomy, len(current.Cars))
		for _, c := range current.Cars {
			stored[c.UUID] = c.FuelEconomy
		}
		cars = slices.Clone(next.Cars)
		for i := range cars {
			if !cars[i].EPAID.Valid {
				cars[i].FuelEconomy = stored[cars[i].UUID]
			}
		}
	}
	return Changes{
		Cars:        diffKind(replace[KindCar], current.Cars, cars, func(c Car) uuid.UUID { return c.UUID }, equal[Car]),
		Motorcycles: diffKind(replace[KindMotorcycle], current.Motorcycles, next.Motorcycles, func(m Motorcycle) uuid.UUID { return m.UUID }, equal[Motorcycle]),
		Boats:       diffKind(replace[KindBoat], current.Boats, next.Boats, func(b Boat) uuid.UUID { return b.UUID }, equal[Boat]),
		TireSizes:   diffKind(replace[KindTireSize], current.TireSizes, next.TireSizes, func(t TireFitment) uuid.UUID { return t.UUID }, equal[TireFitment]),
	}
}

func equal[T any](a, b T) bool { return reflect.DeepEqual(a, b) }

func diffKind[T any](replace bool, current, next []T, id func(T) uuid.UUID, same func(a, b T) bool) KindChanges[T] {
	ch := KindChanges[T]{Replace: replace}
	if !replace {
		return ch
	}
	old := make(map[uuid.UUID]T, len(current))
	for _, r := range current {
		old[id(r)] = r
	}
	for _, r := range next {
		prev, ok := old[id(r)]
		switch {
		case !ok:
			ch.Insert = append(ch.Insert, r)
		case same(prev, r):
			ch.Unchanged++
		default:
			ch.Update = append(ch.Update, r)
		}
		delete(old, id(r))
	}
	// Deletes in input order of the stored catalog, for deterministic output.
	for _, r := range current {
		if _, gone := old[id(r)]; gone {
			ch.Delete = append(ch.Delete, id(r))
		}
	}
	return ch
}

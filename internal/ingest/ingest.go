// Package ingest loads catalog records from the embedded demo catalog or
// from JSON and CSV files, validates all of them, and replaces the stored
// catalog in one transaction: one invalid record and nothing is written.
package ingest

import (
	"context"
	"fmt"
	"io/fs"
	"os"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/catalog/demo"
	"github.com/vds-dev/vds/internal/store"
)

// Source is the content of one input file.
type Source struct {
	Name string
	Data []byte
}

// DemoSources returns the embedded demo catalog files.
func DemoSources() ([]Source, error) {
	return readAll(demo.Files, demo.Names, "demo/")
}

// FileSources reads input files from disk.
func FileSources(paths []string) ([]Source, error) {
	out := make([]Source, 0, len(paths))
	for _, p := range paths {
		if _, _, err := KindOfFile(p); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("read %w", err)
		}
		out = append(out, Source{Name: p, Data: data})
	}
	return out, nil
}

func readAll(fsys fs.FS, names []string, label string) ([]Source, error) {
	out := make([]Source, 0, len(names))
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("read embedded %s: %w", n, err)
		}
		out = append(out, Source{Name: label + n, Data: data})
	}
	return out, nil
}

// Parse reads and validates every source. It returns the catalog they
// describe and the kinds they carry, or an *InvalidError listing every
// problem with its file, line and field.
func Parse(sources []Source) (*catalog.Catalog, []catalog.Kind, error) {
	var (
		c     catalog.Catalog
		probs []RecordError
		kinds []catalog.Kind
		seen  = map[catalog.Kind]bool{}
		dups  = map[uuid.UUID]RecordError{}
	)
	for _, src := range sources {
		kind, ext, err := KindOfFile(src.Name)
		if err != nil {
			return nil, nil, err
		}
		if !seen[kind] {
			seen[kind] = true
			kinds = append(kinds, kind)
		}
		switch kind {
		case catalog.KindCar:
			probs = collect(src, ext, &c.Cars, probs, dups, (*carInput).record, (*catalog.Car).Normalize, func(r *catalog.Car) uuid.UUID { return r.UUID })
		case catalog.KindMotorcycle:
			probs = collect(src, ext, &c.Motorcycles, probs, dups, (*motorcycleInput).record, (*catalog.Motorcycle).Normalize, func(r *catalog.Motorcycle) uuid.UUID { return r.UUID })
		case catalog.KindBoat:
			probs = collect(src, ext, &c.Boats, probs, dups, (*boatInput).record, (*catalog.Boat).Normalize, func(r *catalog.Boat) uuid.UUID { return r.UUID })
		case catalog.KindTireSize:
			probs = collect(src, ext, &c.TireSizes, probs, dups, (*tireInput).record, (*catalog.TireFitment).Normalize, func(r *catalog.TireFitment) uuid.UUID { return r.UUID })
		}
	}
	if len(probs) > 0 {
		return nil, nil, &InvalidError{Problems: probs}
	}
	return &c, kinds, nil
}

// collect parses one source into dst and reports duplicates: two records
// with the same natural key would get the same uuid.
func collect[I any, R any](src Source, ext string, dst *[]R, probs []RecordError, dups map[uuid.UUID]RecordError,
	conv func(*I) R, norm func(*R) catalog.FieldErrors, id func(*R) uuid.UUID) []RecordError {
	recs, ps := parseFile(src.Name, ext, src.Data, conv, norm)
	probs = append(probs, ps...)
	for i := range recs {
		u := id(&recs[i].rec)
		here := RecordError{File: src.Name, Line: recs[i].line}
		if first, ok := dups[u]; ok {
			here.Reason = fmt.Sprintf("duplicate record: same natural key as %s:%d", first.File, first.Line)
			probs = append(probs, here)
			continue
		}
		dups[u] = here
		*dst = append(*dst, recs[i].rec)
	}
	return probs
}

// Result is the outcome of an ingest.
type Result struct {
	Changes catalog.Changes
	Version catalog.Version
	// Published is true when the ingest changed the catalog and so published
	// Version; false when the input equalled the stored catalog.
	Published bool
}

// Run replaces the stored records of the parsed kinds with c.
func Run(ctx context.Context, st store.CatalogStore, c *catalog.Catalog, kinds []catalog.Kind, source string, progress func(done, total int)) (Result, error) {
	ch, v, err := st.ReplaceCatalog(ctx, c, kinds, source, progress)
	if err != nil {
		return Result{}, fmt.Errorf("write catalog: %w", err)
	}
	return Result{Changes: ch, Version: v, Published: !ch.Empty()}, nil
}

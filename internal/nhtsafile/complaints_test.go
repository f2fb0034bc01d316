package nhtsafile

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/fixture"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// complaintSample is the real 2020 FLAT_CMPL sample: 49 fields, LF, 21 rows.
func complaintSample(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(fixture.Path(t, "nhtsa-recalls", "flat-cmpl-2020-sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// widen gives each line n more (or, negative, fewer) trailing fields.
func widen(lines []string, n int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if n < 0 {
			f := strings.Split(l, "\t")
			out[i] = strings.Join(f[:len(f)+n], "\t")
		} else {
			out[i] = l + strings.Repeat("\t", n)
		}
	}
	return out
}

// scanAll reads a complaint file whole, in batches of complaintBatch.
func scanAll(text string) ([]store.NHTSAComplaint, *complaintTally, error) {
	var lines []store.NHTSAComplaint
	t, err := scanComplaints(strings.NewReader(text), "FLAT_CMPL.txt", func(b []store.NHTSAComplaint) error {
		lines = append(lines, b...)
		return nil
	})
	return lines, t, err
}

func TestParseComplaintLayouts(t *testing.T) {
	t.Parallel()
	lines := complaintSample(t)
	for _, extra := range []int{0, -1, 2} {
		got, tally, err := scanAll(strings.Join(widen(lines, extra), "\n"))
		if err != nil {
			t.Fatalf("%d fields: %v", 49+extra, err)
		}
		if c := tally.counts(); len(got) != len(lines) || c["rows"] != int64(len(lines)) || c["complaints"] != 21 || tally.dataDate != "2017-09-14" {
			t.Fatalf("%d fields: %d lines, counts %v, data date %s", 49+extra, len(got), c, tally.dataDate)
		}
		first := got[0]
		if first.Vehicle != "lincoln|towncar|1994" || first.ODI != 958173 || !first.Crash || first.Fire ||
			first.IncidentDate != "1994-12-22" || first.ReceivedDate != "1995-01-03" || first.Component != "SERVICE BRAKES, HYDRAULIC" ||
			!strings.HasPrefix(first.Summary, "BRAKE PEDAL PUSH ROD") {
			t.Errorf("%d fields: first line %+v", 49+extra, first)
		}
	}
	var injured int
	got, _, _ := scanAll(strings.Join(lines, "\n"))
	for _, c := range gather(got) {
		injured += c.Injuries
	}
	if injured != 2 {
		t.Errorf("injured over the sample = %d, want the 2 of ODI 11003906", injured)
	}
}

// Lines of one complaint are one complaint naming their components; a
// file streams in batches, never whole.
func TestComplaintsGatherAndBatch(t *testing.T) {
	t.Parallel()
	line := complaintSample(t)[0]
	f := strings.Split(line, "\t")
	f[cComponent] = "ENGINE:COOLING"
	text := strings.Repeat(line+"\n", complaintBatch+1) + strings.Join(f, "\t")
	var sizes []int
	_, err := scanComplaints(strings.NewReader(text), "x", func(b []store.NHTSAComplaint) error {
		sizes = append(sizes, len(b))
		return nil
	})
	if err != nil || !slices.Equal(sizes, []int{complaintBatch, 2}) {
		t.Fatalf("batches %v, %v; want %d then 2", sizes, err, complaintBatch)
	}
	lines, _, _ := scanAll(text)
	c := gather(lines)
	if len(c) != 1 || !slices.Equal(c[0].Components, []string{"ENGINE", "SERVICE BRAKES, HYDRAULIC"}) {
		t.Errorf("gathered %+v, want one complaint naming both components", c)
	}
}

func TestParseComplaintsRefusesBadLines(t *testing.T) {
	t.Parallel()
	lines := complaintSample(t)
	set := func(line, field int, v string) []string {
		out := append([]string(nil), lines...)
		f := strings.Split(out[line], "\t")
		f[field] = v
		out[line] = strings.Join(f, "\t")
		return out
	}
	for name, c := range map[string]struct {
		lines []string
		want  string
	}{
		"short line":  {append(append([]string(nil), lines[:4]...), "1\t2\t3"), "line 5: 3 fields where the file's first line has 49"},
		"bad ODI":     {set(2, cODI, "ABC"), `line 3: ODINO "ABC"`},
		"bad year":    {set(6, cYear, "19X4"), `line 7: YEARTXT "19X4"`},
		"bad injured": {set(1, cInjured, "-2"), `line 2: INJURED "-2"`},
	} {
		_, _, err := scanAll(strings.Join(c.lines, "\n"))
		var le *LineError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), "FLAT_CMPL.txt "+c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

func TestImportComplaints(t *testing.T) {
	t.Parallel()
	lines := complaintSample(t)
	good := zipped(t, "FLAT_CMPL.zip", "FLAT_CMPL.txt", lines)
	bad := write(t, "COMPLAINTS_RECEIVED_2020-2024.txt", append(append([]string(nil), lines[:2]...), strings.Replace(lines[2], "\t", "", 1)))
	rcl := write(t, "FLAT_RCL_POST_2010.txt", current(sample(t), "No", "No"))
	ctx := context.Background()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		if _, err := Import(ctx, st, []string{good, bad}, Options{Now: now}); err == nil || !strings.Contains(err.Error(), "line 3: 48 fields") {
			t.Fatalf("import with a bad file: %v, want line 3 named", err)
		}
		if dry, err := Import(ctx, st, []string{good}, Options{Now: now, DryRun: true}); err != nil || dry[0].Kind != KindComplaints || dry[0].Rows["complaints"] != 21 {
			t.Fatalf("dry run: %+v, %v", dry, err)
		}
		if _, err := LoadComplaints(ctx, st); !errors.Is(err, ErrNoComplaintFiles) {
			t.Fatalf("after a refused import and a dry run: %v, want no files", err)
		}
		got, err := Import(ctx, st, []string{good, rcl}, Options{Now: now})
		if err != nil || got[0].Name != "FLAT_CMPL" || got[0].Kind != KindComplaints || got[1].Kind != KindRecalls {
			t.Fatalf("import: %+v, %v", got, err)
		}
		again, err := Import(ctx, st, []string{good}, Options{Now: now.Add(time.Hour)})
		if err != nil || again[0].Status != "unchanged" {
			t.Fatalf("re-import: %+v, %v", again, err)
		}
		ix, err := LoadComplaints(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ix.Complaints(ctx, "Dodge", "Ram 1500", 2005)
		if err != nil || len(c) != 2 || c[0].ODINumber != 11003906 || c[0].Injuries != 2 || !c[0].Crash || c[1].ODINumber != 10846473 {
			t.Errorf("Dodge Ram 1500 2005: %+v, want two, newest first", c)
		}
		if !ix.Since().Equal(now) || ix.Source() != "NHTSA complaint files "+ix.DataDate() {
			t.Errorf("index since %v, source %q", ix.Since(), ix.Source())
		}
		if r, err := Load(ctx, st); err != nil || len(r.Files()) != 1 || r.Files()[0].Kind != KindRecalls {
			t.Errorf("recall index over a complaint file: %v", err)
		}
	})
}

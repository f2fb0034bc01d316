package nhtsafile

import (
	"archive/zip"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/fixture"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

var now = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// sample is the real 2014 FLAT_RCL sample: 24 fields, CRLF, 100 rows.
func sample(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(fixture.Path(t, "nhtsa-recalls", "flat-rcl-2014-sample.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\r\n"), "\r\n")
}

// current widens sample lines to today's 29 fields: fields 25-27 empty,
// DO_NOT_DRIVE and PARK_OUTSIDE as given.
func current(lines []string, doNotDrive, parkOutside string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l + "\t\t\t\t" + doNotDrive + "\t" + parkOutside
	}
	return out
}

func write(t *testing.T, name string, lines []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func zipped(t *testing.T, name, member string, lines []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: member, Method: zip.Deflate, Modified: time.Date(2026, 5, 4, 3, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(strings.Join(lines, "\r\n") + "\r\n")); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseSample2014(t *testing.T) {
	t.Parallel()
	d, err := parseRecalls(strings.NewReader(strings.Join(sample(t), "\r\n")), "sample")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rows) != 100 || len(d.Camps) != 21 {
		t.Fatalf("rows %d, campaigns %d; the sample has 100 rows of 21 campaigns", len(d.Rows), len(d.Camps))
	}
	ix := NewIndex([]store.NHTSAFile{{Name: "S"}}, []*Data{d})
	got, _, _ := ix.Find("Ford", "focus", 2001)
	if len(got) != 1 || got[0].CampaignNumber != "02V288000" {
		t.Fatalf("2001 Ford Focus: %+v, want campaign 02V288000", got)
	}
	r := got[0]
	// RCDATE 20021106 in the file: ISO 8601 in the answer.
	if deref(r.ReportDate) != "2002-11-06" || deref(r.Component) != "ELECTRICAL SYSTEM:BATTERY:CABLES" || deref(r.Manufacturer) != "Ford Motor Company" {
		t.Errorf("recall %+v: want report date 2002-11-06, the component and MFGTXT", r)
	}
	if !strings.HasPrefix(deref(r.Summary), "CERTAIN PASSENGER VEHICLES") || r.ParkIt || r.ParkOutside {
		t.Errorf("recall %+v: summary from DESC_DEFECT, no advisories in a 24-field file", r)
	}
	if d.DataDate == "" || !has(ix, "FORD", "FOCUS", 2000) || has(ix, "FORD", "FOCUS", 1999) {
		t.Errorf("data date %q; 2000 Focus listed, 1999 not", d.DataDate)
	}
	if got, enc, _ := ix.Find("Ford", "Focus", 1999); got == nil || len(got) != 0 || string(enc) != "[]" {
		t.Errorf("an absent vehicle has no campaigns, as an empty list: %#v", got)
	}
}

func TestParseRefusesBadLines(t *testing.T) {
	t.Parallel()
	lines := current(sample(t)[:5], "Yes", "No")
	cases := map[string]struct {
		edit func([]string) []string
		line int
		msg  string
	}{
		"a field short": {func(l []string) []string { l[2] = l[2][:strings.LastIndex(l[2], "\t")]; return l }, 3, "28 fields"},
		"a 27-field line among 29": {func(l []string) []string {
			l[3] = strings.Join(strings.Split(l[3], "\t")[:27], "\t")
			return l
		}, 4, "27 fields where"},
		"complaints layout": {func(l []string) []string { l[0] += strings.Repeat("\tx", 20); return l }, 1, "49 fields"},
		"empty campaign":    {func(l []string) []string { l[1] = strings.Replace(l[1], "02V288000", "", 1); return l }, 2, "CAMPNO"},
		"year not a year": {func(l []string) []string {
			f := strings.Split(l[4], "\t")
			f[4] = "20X1"
			l[4] = strings.Join(f, "\t")
			return l
		}, 5, "YEARTXT"},
		"record id not a num": {func(l []string) []string { l[1] = "x" + l[1]; return l }, 2, "RECORD_ID"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := parseRecalls(strings.NewReader(strings.Join(c.edit(append([]string(nil), lines...)), "\r\n")), "F")
			var le *LineError
			if !errors.As(err, &le) || le.Line != c.line || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err %v; want line %d, %q", err, c.line, c.msg)
			}
		})
	}
}

func TestParseLatin1AndAdvisories(t *testing.T) {
	t.Parallel()
	lines := current(sample(t)[:2], "Yes", "Yes")
	raw := strings.Join(lines, "\r\n")
	raw = strings.Replace(raw, "Ford Motor Company", "Ford Motor Compa\xe9", 1) // Latin-1 é
	raw = "\xef\xbb\xbf" + raw                                                  // a byte order mark
	d, err := parseRecalls(strings.NewReader(raw), "F")
	if err != nil {
		t.Fatal(err)
	}
	c := d.Camps[0]
	if c.Manufacturer != "Ford Motor Compaé" || !c.ParkIt || !c.ParkOutside {
		t.Errorf("campaign %+v: want Latin-1 decoded and both advisories set", c)
	}
}

func TestImport(t *testing.T) {
	t.Parallel()
	lines := current(sample(t), "No", "Yes")
	post := zipped(t, "FLAT_RCL_POST_2010.zip", "FLAT_RCL_POST_2010.txt", lines[:60])
	pre := write(t, "flat_rcl_pre_2010.txt", lines[60:])
	bad := write(t, "FLAT_RCL_BAD.txt", append(append([]string(nil), lines[:3]...), "1\t2\t3"))
	ctx := context.Background()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		// A bad file refuses the whole import: nothing of the good one is stored.
		if _, err := Import(ctx, st, []string{post, bad}, Options{Now: now}); err == nil || !strings.Contains(err.Error(), "line 4: 3 fields") {
			t.Fatalf("import with a bad file: %v, want line 4 named", err)
		}
		dry, err := Import(ctx, st, []string{post, pre}, Options{Now: now, DryRun: true})
		if err != nil || len(dry) != 2 || dry[0].Status != "added" {
			t.Fatalf("dry run: %+v, %v", dry, err)
		}
		if files, _ := st.NHTSAFiles(ctx); len(files) != 0 {
			t.Fatalf("stored after a refused import and a dry run: %+v", files)
		}
		got, err := Import(ctx, st, []string{post, pre}, Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Name != "FLAT_RCL_POST_2010" || got[0].FileDate != "2026-05-04" || got[0].Rows["rows"] != 60 || got[1].Name != "FLAT_RCL_PRE_2010" || got[1].Rows["rows"] != 40 {
			t.Errorf("import: %+v", got)
		}
		if len(got[0].SHA256) != 64 || got[0].ID == 0 {
			t.Errorf("import recorded no sha256 or id: %+v", got[0])
		}
		again, err := Import(ctx, st, []string{pre, post}, Options{Now: now.Add(time.Hour)})
		if err != nil || again[0].Status != "unchanged" || again[1].Status != "unchanged" {
			t.Fatalf("re-import: %+v, %v", again, err)
		}
		files, _ := st.NHTSAFiles(ctx)
		if len(files) != 2 || !files[0].ImportedAt.Equal(now) {
			t.Errorf("re-import wrote: %+v", files)
		}
		ix, err := Load(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		r, _, _ := ix.Find("FORD", "FOCUS", 2001)
		if len(r) != 1 || !r[0].ParkOutside || r[0].ParkIt {
			t.Errorf("loaded recalls %+v: want one, park_outside from the file", r)
		}
		// A new version of one name replaces it alone.
		fewer := write(t, "FLAT_RCL_PRE_2010.txt", lines[60:70])
		rep, err := Import(ctx, st, []string{fewer}, Options{Now: now.Add(2 * time.Hour)})
		if err != nil || rep[0].Status != "replaced" || rep[0].Before["rows"] != 40 || rep[0].Rows["rows"] != 10 || rep[0].CampaignsRemoved == 0 {
			t.Errorf("replace: %+v, %v", rep, err)
		}
		if files, _ := st.NHTSAFiles(ctx); len(files) != 2 {
			t.Errorf("after replacing one of two: %d files", len(files))
		}
	})
}

func TestImportURL(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(zipped(t, "x.zip", "FLAT_RCL_POST_2010.txt", current(sample(t), "", "")))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/odi/ffdd/rcl/FLAT_RCL_POST_2010.zip" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Last-Modified", "Mon, 04 May 2026 10:00:00 GMT")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	st := storetest.Empty(t, "sqlite")
	got, err := Import(context.Background(), st, []string{srv.URL + "/odi/ffdd/rcl/FLAT_RCL_POST_2010.zip"}, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Name != "FLAT_RCL_POST_2010" || got[0].Rows["campaigns"] != 21 || got[0].FileDate != "2026-05-04" {
		t.Errorf("import from a URL: %+v", got[0])
	}
	if _, err := Import(context.Background(), st, []string{srv.URL + "/missing.zip?x"}, Options{Now: now}); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("a missing URL: %v, want the 404 named", err)
	}
}

// The 27-field layout of March 2020 to May 2025 reads as well, without advisories.
func TestParse27Fields(t *testing.T) {
	t.Parallel()
	lines := sample(t)[:3]
	for i := range lines {
		lines[i] += "\tPART\tDESC\tPN-1"
	}
	d, err := parseRecalls(strings.NewReader(strings.Join(lines, "\r\n")), "F")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Rows) != 3 || d.Camps[0].ParkIt || d.Camps[0].Notes == "" {
		t.Errorf("27 fields: %d rows, campaign %+v", len(d.Rows), d.Camps[0])
	}
}

func has(ix *Index, vehicleMake, model string, year int) bool {
	_, _, ok := ix.Find(vehicleMake, model, year)
	return ok
}

package epa

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/fetch"
)

// writeZip writes a zip archive with the given members to path.
func writeZip(t *testing.T, path string, members map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, body := range members {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// progressLog records the last progress report and checks that done never
// goes backwards, which a progress bar relies on.
type progressLog struct {
	t           *testing.T
	calls       int
	done, total int64
}

func (p *progressLog) report(done, total int64) {
	if done < p.done {
		p.t.Errorf("progress went back from %d to %d", p.done, done)
	}
	p.calls++
	p.done, p.total = done, total
}

func TestLoadSources(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "vehicles.csv")
	writeFile(t, plain, tinyCSV)
	zipped := filepath.Join(dir, "vehicles.csv.zip")
	writeZip(t, zipped, map[string]string{"vehicles.csv": tinyCSV})
	// A zip without the .zip name is recognised by its PK magic.
	noExt := filepath.Join(dir, "download.bin")
	writeZip(t, noExt, map[string]string{"data/vehicles.csv": tinyCSV})
	// A zip whose only CSV has another name.
	otherName := filepath.Join(dir, "epa.zip")
	writeZip(t, otherName, map[string]string{"README.txt": "hello", "fueleconomy.csv": tinyCSV})

	zipData, err := os.ReadFile(zipped)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/vehicles.csv.zip":
			_, _ = w.Write(zipData)
		case "/vehicles.csv":
			_, _ = w.Write([]byte(tinyCSV))
		case "/chunked.zip":
			// Flushing before the end drops Content-Length: total unknown.
			_, _ = w.Write(zipData[:10])
			w.(http.Flusher).Flush()
			_, _ = w.Write(zipData[10:])
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	want := tinyTable(t, tinyCSV).Rows
	for _, tc := range []struct {
		src       string
		wantTotal int64 // the last progress total
	}{
		{plain, int64(len(tinyCSV))},
		{zipped, int64(len(tinyCSV))},
		{noExt, int64(len(tinyCSV))},
		{otherName, int64(len(tinyCSV))},
		{srv.URL + "/vehicles.csv.zip", int64(len(zipData))},
		{srv.URL + "/vehicles.csv", int64(len(tinyCSV))},
		{srv.URL + "/chunked.zip", -1},
	} {
		t.Run(strings.TrimPrefix(tc.src, dir), func(t *testing.T) {
			p := &progressLog{t: t}
			tb, err := Load(context.Background(), tc.src, srv.Client(), p.report)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tb.Rows, want) {
				t.Errorf("rows differ from the plain parse")
			}
			if p.calls == 0 || p.total != tc.wantTotal {
				t.Errorf("progress: %d calls, last total %d, want %d", p.calls, p.total, tc.wantTotal)
			}
			wantDone := tc.wantTotal
			if wantDone < 0 {
				wantDone = int64(len(zipData))
			}
			if p.done != wantDone {
				t.Errorf("progress done %d, want %d", p.done, wantDone)
			}
		})
	}

	t.Run("temp file removed", func(t *testing.T) {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		if _, err := Load(context.Background(), srv.URL+"/vehicles.csv.zip", srv.Client(), nil); err != nil {
			t.Fatal(err)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("left behind: %v", left)
		}
	})

	t.Run("Open", func(t *testing.T) {
		rc, err := Open(context.Background(), zipped, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		tb, err := Parse(context.Background(), rc, zipped)
		if err != nil || tb.Len() != len(want) {
			t.Fatalf("Parse(Open(zip)) = %v rows, %v", tb, err)
		}
	})

	t.Run("errors", func(t *testing.T) {
		notZip := filepath.Join(dir, "fake.zip")
		writeFile(t, notZip, tinyCSV)
		noCSV := filepath.Join(dir, "nocsv.zip")
		writeZip(t, noCSV, map[string]string{"README.txt": "hello"})
		for _, tc := range []struct{ src, want string }{
			{"", "no EPA source"},
			{filepath.Join(dir, "missing.csv"), "no such file"},
			{notZip, "named .zip but not a zip archive"},
			{noCSV, "no vehicles.csv in the archive"},
			{srv.URL + "/missing.zip", "404"},
			{"http://127.0.0.1:1/vehicles.csv", "download EPA data"},
		} {
			if _, err := Load(context.Background(), tc.src, srv.Client(), nil); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load(%q) = %v, want an error containing %q", tc.src, err, tc.want)
			}
		}
	})

	t.Run("corrupt zip", func(t *testing.T) {
		// A stored (uncompressed) member with one changed digit still
		// parses as CSV; only its checksum can tell, and the load must fail.
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "vehicles.csv", Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(tinyCSV))
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		data := bytes.Replace(buf.Bytes(), []byte(",1650,"), []byte(",1651,"), 1)
		bad := filepath.Join(dir, "corrupt.zip")
		writeFile(t, bad, string(data))
		if _, err := Load(context.Background(), bad, nil, nil); !errors.Is(err, zip.ErrChecksum) {
			t.Errorf("err = %v, want zip.ErrChecksum", err)
		}
	})

	t.Run("size cap", func(t *testing.T) {
		for _, path := range []string{"/vehicles.csv", "/chunked.zip"} { // with and without Content-Length
			f, err := fetch.Download(context.Background(), srv.URL+path, "EPA data", srv.Client(), 100, nil)
			if err == nil {
				f.Close()
				os.Remove(f.Name())
				t.Fatalf("%s: download over the cap succeeded", path)
			}
			if !strings.Contains(err.Error(), "limit") {
				t.Errorf("%s: %v, want a size-limit error", path, err)
			}
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Load(ctx, srv.URL+"/vehicles.csv.zip", srv.Client(), nil); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if _, err := Load(ctx, plain, nil, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestParseErrors(t *testing.T) {
	header := "id,year,make,model,city08,highway08,comb08,displ\r\n"
	for _, tc := range []struct {
		name, csv string
		line      int
		field     string
		want      string
	}{
		{"empty", "", 0, "", "empty file"},
		{"header only", header, 0, "", "no vehicle rows"},
		{"not vehicles.csv", "<html><body>Not found</body></html>\r\n", 1, "", "missing column(s) id, year, make, model, city08, highway08, comb08"},
		{"bad number", header + "1,2024,Acme,A,20,30,24,2.0\r\n2,2024,Acme,B,twenty,30,24,2.0\r\n", 3, "city08", `"twenty" is not a number`},
		{"fractional id", header + "1.5,2024,Acme,A,20,30,24,2.0\r\n", 2, "id", "not a whole number"},
		{"missing year", header + "1,,Acme,A,20,30,24,2.0\r\n", 2, "year", "is empty"},
		{"ragged row without make", header + "1,2024\r\n", 2, "make", "is empty"},
		{"duplicate id", header + "1,2024,Acme,A,20,30,24,2.0\r\n1,2024,Acme,B,20,30,24,2.0\r\n", 3, "id", "duplicate id 1 (first on line 2)"},
		{"bad quoting", header + "1,2024,Acme,\"A,20,30,24,2.0\r\n", 2, "", "extraneous or missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(context.Background(), strings.NewReader(tc.csv), "x.csv")
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *FormatError", err)
			}
			if fe.File != "x.csv" || fe.Line != tc.line || fe.Field != tc.field || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q (line %d, field %q), want line %d, field %q, containing %q", err, fe.Line, fe.Field, tc.line, tc.field, tc.want)
			}
		})
	}
}

func TestParseTolerates(t *testing.T) {
	// A BOM, header names in another case, NA for an absent number, an
	// integral decimal for an integer, and a row longer than the header.
	csv := "\ufeffID,Year,MAKE,Model,City08,Highway08,Comb08,Cylinders,Displ\r\n" +
		"7,2024,Acme,A,20,30,24,4.0,NA,extra\r\n"
	tb, err := Parse(context.Background(), strings.NewReader(csv), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := Row{ID: 7, Year: 2024, Make: "Acme", Model: "A", City08: 20, Highway08: 30, Comb08: 24, Cylinders: 4}
	if got := tb.Rows[0]; got != want {
		t.Errorf("row = %+v, want %+v", got, want)
	}
}

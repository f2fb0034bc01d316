package epa

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/bombtest"
)

const minimalHeader = "id,year,make,model,city08,highway08,comb08\n"

// loadBomb loads src and returns the bytes allocated meanwhile and the error.
func loadBomb(t *testing.T, src string) (uint64, error) {
	t.Helper()
	var err error
	alloc := bombtest.Alloc(func() { _, err = Load(context.Background(), src, nil, nil) })
	if err == nil {
		t.Fatalf("%s: loaded", src)
	}
	return alloc, err
}

// A zip holding a 1.2 GB one-line vehicles.csv is refused from its header,
// and one whose header lies is refused within one record: kilobytes, where
// encoding/csv took 4.4 GB before the caps.
func TestZipBombs(t *testing.T) {
	dir := t.TempDir()
	honest := filepath.Join(dir, "bomb.zip")
	prefix := []byte(minimalHeader + "1,2024,")
	bombtest.Zip(t, honest, "vehicles.csv", prefix, 1200, -1)
	lying := filepath.Join(dir, "lying.zip")
	bombtest.Zip(t, lying, "vehicles.csv", prefix, 1200, 10<<20)
	for _, tc := range []struct{ src, want string }{
		{honest, fmt.Sprintf("%s!vehicles.csv: unpacks to %d bytes, over the %d-byte limit", honest, len(prefix)+1200<<20, MaxCSVBytes)},
		{lying, lying + "!vehicles.csv:2: record longer than 16384 bytes"},
	} {
		if st, err := os.Stat(tc.src); err != nil || st.Size() > 2<<20 {
			t.Fatalf("the bomb is not small on disk: %v, %v", st, err)
		}
		alloc, err := loadBomb(t, tc.src)
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v\nwant %q", err, tc.want)
		}
		if alloc > 4<<20 {
			t.Errorf("%s: allocated %d bytes before refusing it", tc.src, alloc)
		}
	}
}

// A long record is refused on its line, plain or zipped, having read
// little more than the cap.
func TestRecordCap(t *testing.T) {
	body := minimalHeader + "1,2024,Acme,Widget,20,30,24\n2,2024,Acme," + strings.Repeat("W", 1<<20) + ",20,30,24\n"
	plain := writeTemp(t, "vehicles.csv", body)
	alloc, err := loadBomb(t, plain)
	if want := plain + ":3: record longer than 16384 bytes"; !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %q", err, want)
	}
	if alloc > 1<<20 {
		t.Errorf("allocated %d bytes for a 1 MiB record", alloc)
	}
	// Just under the cap loads.
	ok := minimalHeader + "1,2024,Acme," + strings.Repeat("W", MaxRecordBytes-40) + ",20,30,24\n"
	if _, err := Parse(context.Background(), strings.NewReader(ok), "ok.csv"); err != nil {
		t.Errorf("a %d-byte record: %v", len(ok)-len(minimalHeader), err)
	}
}

// A file over MaxCSVBytes is refused by its size.
func TestSizeCap(t *testing.T) {
	big := writeTemp(t, "vehicles.csv", minimalHeader)
	if err := os.Truncate(big, MaxCSVBytes+1); err != nil { // sparse: nothing written
		t.Fatal(err)
	}
	alloc, err := loadBomb(t, big)
	if want := fmt.Sprintf("%s: %d bytes, over the %d-byte limit", big, MaxCSVBytes+1, MaxCSVBytes); !strings.Contains(err.Error(), want) || alloc > 1<<20 {
		t.Errorf("got %v after %d bytes\nwant %q", err, alloc, want)
	}
}

// More than MaxRows rows are refused on the row after the last.
func TestRowCap(t *testing.T) {
	t.Parallel() // seconds under the race detector; allocations are not measured
	b := []byte(minimalHeader)
	for id := 1; id <= MaxRows+1; id++ {
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, ",2024,A,B,1,1,1\n"...)
	}
	_, err := Parse(context.Background(), bytes.NewReader(b), "rows.csv")
	if want := fmt.Sprintf("rows.csv:%d: more than %d rows", MaxRows+2, MaxRows); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

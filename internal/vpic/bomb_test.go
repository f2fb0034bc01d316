package vpic_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/bombtest"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

const sqliteMagic = "SQLite format 3\x00"

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Bad snapshots are refused before the work, naming the user's file, never
// the temporary file a .gz unpacks to, and leave no temporary file behind.
// A 6.5 MB .gz of zeros wrote a 1.4 GB temporary file before the checks.
func TestRefusedSnapshots(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where a .gz unpacks to
	dir := t.TempDir()
	zeros := filepath.Join(dir, "zeros.db.gz")
	bombtest.Gzip(t, zeros, nil, 1500)
	notDB := gzipped(t, append([]byte(sqliteMagic), make([]byte, 1<<20)...))
	big := write(t, dir, "big.db", []byte(sqliteMagic))
	if err := os.Truncate(big, vpic.MaxSnapshotBytes+1); err != nil { // sparse
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
	}{
		{zeros, zeros + ": not a vPIC snapshot: not an SQLite database"},
		{write(t, dir, "text.db", []byte("not a database")), "text.db: not a vPIC snapshot: not an SQLite database"},
		{write(t, dir, "plain.db.gz", []byte(sqliteMagic+"not gzipped")), "plain.db.gz: not a gzip file (gzip: invalid header)"},
		{write(t, dir, "empty.db.gz", nil), "empty.db.gz: not a gzip file (EOF)"},
		{write(t, dir, "cut.db.gz", notDB[:len(notDB)/2]), "cut.db.gz: the gzip data is cut short (unexpected EOF)"},
		{write(t, dir, "notdb.db.gz", notDB), "notdb.db.gz: not a vPIC snapshot: table Wmi:"},
		{big, fmt.Sprintf("big.db: %d bytes, over the %d-byte limit", vpic.MaxSnapshotBytes+1, vpic.MaxSnapshotBytes)},
		{filepath.Join(dir, "missing.db.gz"), "open " + filepath.Join(dir, "missing.db.gz") + ": no such file or directory"},
	} {
		st := storetest.Empty(t, "sqlite")
		var err error
		alloc := bombtest.Alloc(func() { _, err = vpic.Import(context.Background(), st, tc.path, time.Now()) })
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: got %v, want %q", tc.path, err, tc.want)
		}
		if alloc > 8<<20 {
			t.Errorf("%s: allocated %d bytes before refusing it", tc.path, alloc)
		}
		if left, _ := filepath.Glob(filepath.Join(tmp, "*")); len(left) > 0 {
			t.Errorf("%s: left %v", tc.path, left)
		}
	}
}

// A .gz that unpacks past MaxSnapshotBytes stops there.
func TestSnapshotBomb(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "bomb.db.gz")
	bombtest.Gzip(t, p, []byte(sqliteMagic), vpic.MaxSnapshotBytes>>20+1)
	if st, err := os.Stat(p); err != nil || st.Size() > 1<<20 {
		t.Fatalf("the bomb is not small on disk: %v, %v", st, err)
	}
	_, err := vpic.Open(context.Background(), p)
	if want := fmt.Sprintf("%s: unpacks to more than %d bytes", p, vpic.MaxSnapshotBytes); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

// The sha256 Import records is the file's, hashed as it is read.
func TestImportHashesTheFile(t *testing.T) {
	t.Parallel()
	subset := vpictest.Subset(t, "1FT")
	data, err := os.ReadFile(subset)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	meta, err := vpic.Import(context.Background(), storetest.Empty(t, "sqlite"), subset, time.Now())
	if err != nil || meta.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("sha256 %s, %v; want %x", meta.SHA256, err, sum)
	}
}

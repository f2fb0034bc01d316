package vpic_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// The shared file's published sha256 (its SOURCES entry).
const sharedSHA = "b81911077f96fe6b322ab02e9fdc43a900b9fbaac14b107ed4deec3b374a17e1"

func TestImportAndLoad(t *testing.T) {
	file := vpictest.File(t, 2)
	subset := vpictest.Subset(t, 2)
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		if _, err := vpic.Load(ctx, st); !errors.Is(err, vpic.ErrNoSnapshot) {
			t.Fatalf("Load before any import: got %v, want ErrNoSnapshot", err)
		}
		at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		meta, err := vpic.Import(ctx, st, file, at)
		if err != nil {
			t.Fatal(err)
		}
		if meta.DataDate != "2026-02-17" || meta.SHA256 != sharedSHA || meta.Rows["Pattern"] != 799207 || meta.Community != 90 {
			t.Errorf("imported %+v", meta)
		}

		// A file that is not a vPIC database is refused, and the one
		// imported before keeps serving.
		bad := filepath.Join(t.TempDir(), "bad.db")
		if err := os.WriteFile(bad, []byte("not a database"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := vpic.Import(ctx, st, bad, at); err == nil {
			t.Error("importing a text file succeeded")
		}

		if got, err := st.VPICSnapshot(ctx); err != nil || got.ID != meta.ID {
			t.Fatalf("after a refused import: %+v, %v; want snapshot %d", got, err, meta.ID)
		}

		// A new import replaces the old one. (The subset loads in a
		// moment under the race detector; the whole file takes a minute.)
		next, err := vpic.Import(ctx, st, subset, at)
		if err != nil {
			t.Fatal(err)
		}
		if next.ID == meta.ID || next.Rows["Pattern"] >= meta.Rows["Pattern"] || next.DataDate != "2026-02-17" {
			t.Errorf("second import %+v", next)
		}
		snap, err := vpic.Load(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if snap.Meta.ID != next.ID || !snap.Meta.ImportedAt.Equal(at) || snap.Source() != "vPIC snapshot 2026-02-17" {
			t.Errorf("loaded %+v (%s), want the second snapshot %d", snap.Meta, snap.Source(), next.ID)
		}
		got, err := snap.Decode("1FTMW1T88MFA00001")
		if err != nil || got.Model == nil || *got.Model != "F-150" {
			t.Errorf("decode after load: %v, %v", got.Model, err)
		}
	})
}

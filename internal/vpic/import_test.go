package vpic_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/fixture"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// The whole published file imports with its sha256, row counts, community
// rows and data date, and decodes once loaded. It runs on one store (the
// store's side is the same for any snapshot, and TestImportAndLoad covers
// both), and not under the race detector, where its 800,000 patterns take a
// minute: scripts/test.sh runs it without.
func TestImportWholeFile(t *testing.T) {
	if fixture.Race {
		t.Skip("the whole snapshot imports without -race (scripts/test.sh's bare-clone step, go test ./internal/vpic)")
	}
	t.Parallel()
	ctx := context.Background()
	st := storetest.Empty(t, "sqlite")
	meta, err := vpic.Import(ctx, st, vpictest.File(t), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if meta.DataDate != "2026-02-17" || meta.SHA256 != vpictest.SHA256 || meta.Rows["Pattern"] != 799207 || meta.Community != 90 {
		t.Errorf("imported %+v", meta)
	}
	snap, err := vpic.Load(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	got, err := snap.Decode("1FTMW1T88MFA00001")
	if err != nil || got.Model == nil || *got.Model != "F-150" {
		t.Errorf("decode after load: %v, %v", got.Model, err)
	}
}

func TestImportAndLoad(t *testing.T) {
	t.Parallel()
	// Two manufacturers, then one: the import is the same code for any
	// number of patterns, and a few thousand keep the race detector quick.
	subset := vpictest.Subset(t, "1FT", "5UX")
	small := vpictest.Subset(t, "1FT")
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		if _, err := vpic.Load(ctx, st); !errors.Is(err, vpic.ErrNoSnapshot) {
			t.Fatalf("Load before any import: got %v, want ErrNoSnapshot", err)
		}
		at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		meta, err := vpic.Import(ctx, st, subset, at)
		if err != nil {
			t.Fatal(err)
		}
		if meta.DataDate != "2026-02-17" || len(meta.SHA256) != 64 || meta.Rows["Pattern"] == 0 || meta.Rows["Pattern"] >= 799207 {
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

		// A new import replaces the old one.
		next, err := vpic.Import(ctx, st, small, at)
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
		// Only Ford's 1FT patterns are left: a BMW is known by its WMI alone.
		if got, err := snap.Decode("5UXWX7C50BA000000"); err != nil || got.Make == nil || got.Model != nil {
			t.Errorf("a WMI without patterns: %+v, %v", got, err)
		}
	})
}

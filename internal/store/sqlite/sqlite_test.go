package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/sqlite"
	"github.com/vds-dev/vds/internal/store/storetest"
)

func TestContract(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := sqlite.Open(filepath.Join(t.TempDir(), "vds.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatal(err)
		}
		return s
	})
}

package sqldb_test

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store/sqldb"
	"github.com/vds-dev/vds/internal/store/storetest"
)

func byUUID(cars []catalog.Car) []catalog.Car {
	return slices.SortedFunc(slices.Values(cars), func(a, b catalog.Car) int { return bytes.Compare(a.UUID[:], b.UUID[:]) })
}

// A load in parts returns the records of one in a single transaction, and
// gives up when a part cannot be the version's.
func TestLoadCatalogInParts(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			st, _ := storetest.Demo(t, backend)
			db := st.(*sqldb.DB)
			whole, v, err := db.LoadCatalog(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want := byUUID(whole.Cars)
			for _, parts := range []int{2, 3, 7} {
				cars, err := sqldb.LoadCarParts(ctx, db, v, parts)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(byUUID(cars), want) {
					t.Errorf("%d parts: %d cars, not the %d of one transaction", parts, len(cars), len(want))
				}
			}
			sqldb.SetLoadParts(db, 3)
			split, sv, err := db.LoadCatalog(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if sv != v || !reflect.DeepEqual(byUUID(split.Cars), want) || !reflect.DeepEqual(split.Counts(), whole.Counts()) ||
				!reflect.DeepEqual(split.TireSizes, whole.TireSizes) {
				t.Errorf("LoadCatalog in parts: version %d %+v, not %d %+v", sv.Number, split.Counts(), v.Number, whole.Counts())
			}
			for name, other := range map[string]catalog.Version{
				"another version": {Number: v.Number + 1, Counts: v.Counts},
				"fewer cars":      {Number: v.Number, Counts: catalog.Counts{Cars: v.Counts.Cars - 1}},
				"more cars":       {Number: v.Number, Counts: catalog.Counts{Cars: v.Counts.Cars + 1}},
			} {
				if cars, err := sqldb.LoadCarParts(ctx, db, other, 3); err != nil || cars != nil {
					t.Errorf("%s: %d cars, %v; want none, to read them again", name, len(cars), err)
				}
			}
		})
	}
}

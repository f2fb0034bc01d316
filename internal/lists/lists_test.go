package lists_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/textcheck"
)

// newService returns a Service on st, which it fills with one car, and that car.
func newService(t *testing.T, st store.Store) (*lists.Service, catalog.Car) {
	t.Helper()
	ctx := context.Background()
	displ, cyl := 2.5, 4
	car := catalog.Car{Make: "Toyota", Model: "Camry", Year: 2022, Trim: "LE", Body: "Sedan", FuelType: catalog.FuelGasoline,
		DriveType: "FWD", Transmission: "Automatic", DisplacementL: &displ, Cylinders: &cyl}
	if err := car.Normalize().Err(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.ReplaceCatalog(ctx, &catalog.Catalog{Cars: []catalog.Car{car}}, catalog.Kinds, store.ReplaceOptions{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	return lists.New(st), car
}

func newAccount(t *testing.T, st store.Store, email string) account.Account {
	t.Helper()
	a := account.Account{ID: account.NewID("acc"), Email: email, Plan: "free", CreatedAt: time.Now()}
	if err := st.CreateAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestAccountScoping: an account reaches only its own lists.
func TestAccountScoping(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, car := newService(t, st)
		mine, theirs := newAccount(t, st, "me@example.com"), newAccount(t, st, "them@example.com")

		theirGarage, err := svc.Default(ctx, theirs.ID)
		if err != nil || !theirGarage.IsDefault || theirGarage.Name != account.DefaultListName {
			t.Fatalf("Default = %+v, %v", theirGarage, err)
		}
		if _, err := svc.Add(ctx, mine.ID, theirGarage.ID, catalog.KindCar, car.UUID, ""); !errors.Is(err, lists.ErrNotFound) {
			t.Fatalf("adding to another account's list: %v", err)
		}
		if err := svc.Delete(ctx, mine.ID, theirGarage.ID); !errors.Is(err, lists.ErrNotFound) {
			t.Fatalf("deleting another account's list: %v", err)
		}
		myGarage, _ := svc.Default(ctx, mine.ID)
		if err := svc.Delete(ctx, mine.ID, myGarage.ID); !errors.Is(err, lists.ErrDefaultList) {
			t.Fatalf("deleting the default list: %v", err)
		}
		trips, err := svc.Create(ctx, mine.ID, "  Road   trips ")
		if err != nil || trips.Name != "Road trips" {
			t.Fatalf("Create = %+v, %v", trips, err)
		}
		if _, err := svc.Create(ctx, mine.ID, "Road trips"); !errors.Is(err, lists.ErrConflict) {
			t.Fatalf("a second list of one name: %v", err)
		}
		if _, err := svc.Create(ctx, mine.ID, " "); !errors.Is(err, lists.ErrListName) {
			t.Fatalf("a list without a name: %v", err)
		}
		if _, err := svc.Add(ctx, mine.ID, trips.ID, catalog.KindCar, car.UUID, " note "); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Add(ctx, mine.ID, trips.ID, catalog.KindCar, uuid.New(), ""); !errors.Is(err, lists.ErrUnknownRecord) {
			t.Fatalf("adding a record not in the catalog: %v", err)
		}
		got, err := svc.Lists(ctx, mine.ID)
		if err != nil || len(got) != 2 || !got[0].IsDefault || len(got[1].Items) != 1 || got[1].Items[0].Note != "note" {
			t.Fatalf("Lists = %+v, %v; want the garage, then Road trips with the car", got, err)
		}
		if err := svc.Remove(ctx, theirs.ID, trips.ID, catalog.KindCar, car.UUID); !errors.Is(err, lists.ErrNotFound) {
			t.Fatalf("removing from another account's list: %v", err)
		}
		if err := svc.Remove(ctx, mine.ID, trips.ID, catalog.KindCar, car.UUID); err != nil {
			t.Fatal(err)
		}
		if err := svc.Delete(ctx, mine.ID, trips.ID); err != nil {
			t.Fatal(err)
		}
	})
}

// Stored items are returned as stored: an item whose record has left the
// catalog is marked by the reader's snapshot (views.NewLists), not here.
func TestListsAreAsStored(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, car := newService(t, st)
		a := newAccount(t, st, "ann@example.com")
		garage, _ := svc.Default(ctx, a.ID)
		if _, err := svc.Add(ctx, a.ID, garage.ID, catalog.KindCar, car.UUID, ""); err != nil {
			t.Fatal(err)
		}
		if _, _, err := st.ReplaceCatalog(ctx, &catalog.Catalog{}, catalog.Kinds, store.ReplaceOptions{Source: "empty"}); err != nil {
			t.Fatal(err)
		}
		got, err := svc.Lists(ctx, a.ID)
		if err != nil || len(got[0].Items) != 1 || got[0].Items[0].UUID != car.UUID || got[0].Items[0].Missing {
			t.Fatalf("Lists after the record left = %+v, %v; want the item, unmarked", got, err)
		}
	})
}

func TestTextNoPersonTypesIsRefused(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, car := newService(t, st)
		a := newAccount(t, st, "text@example.com")
		garage, err := svc.Default(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		const bad = "x\x00y"
		for name, call := range map[string]func() error{
			"list name":   func() error { _, err := svc.Create(ctx, a.ID, bad); return err },
			"list id":     func() error { return svc.Delete(ctx, a.ID, bad) },
			"note":        func() error { _, err := svc.Add(ctx, a.ID, garage.ID, catalog.KindCar, car.UUID, bad); return err },
			"invalid utf": func() error { _, err := svc.Create(ctx, a.ID, "x\xffy"); return err },
		} {
			var te *textcheck.Error
			if err := call(); !errors.As(err, &te) {
				t.Errorf("%s: %v, want a textcheck error", name, err)
			}
		}
	})
}

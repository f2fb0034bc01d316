package lists_test

import (
	"context"
	"errors"
	"strings"
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
		DriveType: "FWD", Transmission: "Automatic", DisplacementL: catalog.Some(displ), Cylinders: catalog.Some(cyl)}
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

// TestVINAndRecallStatus: a VIN item is stored with its decode; its
// sightings are new until seen, dealt with only by its account, and go
// with the item.
func TestVINAndRecallStatus(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, car := newService(t, st)
		mk, model, year := "Toyota", "Camry", 2022
		svc.SetVINDecoder(func(_ context.Context, raw string) (string, account.VINDecode, error) {
			if len(raw) != 17 {
				return "", account.VINDecode{}, errors.New("the VIN has the wrong length")
			}
			return strings.ToUpper(raw), account.VINDecode{Make: &mk, Model: &model, Year: &year, Cars: []uuid.UUID{car.UUID}}, nil
		})
		a, other := newAccount(t, st, "vin@example.com"), newAccount(t, st, "other@example.com")
		garage, _ := svc.Default(ctx, a.ID)
		if _, err := svc.AddVIN(ctx, a.ID, garage.ID, "4T1B11HK5KU00000", ""); err == nil {
			t.Fatal("a VIN the decoder refuses was saved")
		}
		item, err := svc.AddVIN(ctx, a.ID, garage.ID, "4t1b11hk5ku000001", " Dana's ")
		if err != nil || item.Kind != account.KindVIN || *item.VIN != "4T1B11HK5KU000001" || item.UUID != account.VINItemID("4T1B11HK5KU000001") {
			t.Fatalf("AddVIN = %+v, %v", item, err)
		}
		if _, err := svc.AddVIN(ctx, a.ID, garage.ID, "4T1B11HK5KU000001", ""); !errors.Is(err, lists.ErrConflict) {
			t.Fatalf("the same VIN twice: %v", err)
		}
		got, _ := svc.Lists(ctx, a.ID)
		if it := got[0].Items[0]; it.Note != "Dana's" || it.Decode == nil || *it.Decode.Model != "Camry" || it.Decode.Cars[0] != car.UUID {
			t.Fatalf("stored VIN item = %+v", it)
		}

		ref := store.ItemRef{ListID: garage.ID, Kind: account.KindVIN, UUID: item.UUID}
		now := time.Now().UTC().Truncate(time.Second)
		if added, err := st.RecordItemRecalls(ctx, ref, map[string][]byte{"20V001000": []byte(`{}`)}, now); err != nil || len(added) != 0 {
			t.Fatalf("baseline = %v, %v; want nothing new", added, err)
		}
		added, err := st.RecordItemRecalls(ctx, ref, map[string][]byte{"20V001000": []byte(`{}`), "26V777000": []byte(`{"park_it":true}`)}, now.Add(time.Hour))
		if err != nil || len(added) != 1 || added[0].Campaign != "26V777000" || added[0].AccountID != a.ID {
			t.Fatalf("second check = %+v, %v; want 26V777000 alone", added, err)
		}
		newOnes := func() (n int) {
			rs, err := svc.Recalls(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if !r.Baseline && !r.Seen && r.DealtWithAt == nil {
					n++
				}
			}
			return n
		}
		if n := newOnes(); n != 1 {
			t.Fatalf("%d new before the user looked, want 1", n)
		}
		if err := svc.MarkRecallsSeen(ctx, a.ID); err != nil || newOnes() != 0 {
			t.Fatalf("after MarkRecallsSeen: %d new, %v", newOnes(), err)
		}
		if err := svc.SetDealtWith(ctx, other.ID, ref, "26V777000", true, ""); !errors.Is(err, lists.ErrNotFound) {
			t.Fatalf("another account marked it: %v", err)
		}
		if err := svc.SetDealtWith(ctx, a.ID, ref, "26V777000", true, " at the dealer "); err != nil {
			t.Fatal(err)
		}
		rs, _ := svc.Recalls(ctx, a.ID)
		dealt := 0
		for _, r := range rs {
			if r.DealtWithAt != nil && r.DealtWithNote == "at the dealer" {
				dealt++
			}
		}
		if dealt != 1 {
			t.Fatalf("Recalls = %+v; want 26V777000 dealt with, its note trimmed", rs)
		}
		if err := svc.Remove(ctx, a.ID, garage.ID, account.KindVIN, item.UUID); err != nil {
			t.Fatal(err)
		}
		if rs, err := svc.Recalls(ctx, a.ID); err != nil || len(rs) != 0 {
			t.Fatalf("sightings after the item left: %+v, %v", rs, err)
		}
	})
}

package storetest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
)

// testRecallClaims: a vehicle is claimed by one caller at a time, only
// when due; a failed check frees it at retryAt; the watch lock is one.
func testRecallClaims(t *testing.T, s store.Store) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	lease, interval := now.Add(10*time.Minute), 24*time.Hour
	var won atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if ok, err := s.ClaimRecallCheck(ctx, "ford|f-150|2021", now.Add(-interval), now, lease); err != nil {
				t.Error(err)
			} else if ok {
				won.Add(1)
			}
		})
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Fatalf("%d of 8 concurrent claims won, want 1", won.Load())
	}
	if err := s.FinishRecallCheck(ctx, "ford|f-150|2021", nil, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.ClaimRecallCheck(ctx, "ford|f-150|2021", now.Add(-interval), now, lease); ok {
		t.Fatal("claimed before the failed check's retry time")
	}
	later := now.Add(2 * time.Minute)
	if ok, err := s.ClaimRecallCheck(ctx, "ford|f-150|2021", later.Add(-interval), later, later.Add(time.Minute)); err != nil || !ok {
		t.Fatalf("claim after the retry time: %v, %v", ok, err)
	}
	if err := s.FinishRecallCheck(ctx, "ford|f-150|2021", &later, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.ClaimRecallCheck(ctx, "ford|f-150|2021", later.Add(time.Hour-interval), later.Add(time.Hour), later.Add(2*time.Hour)); ok {
		t.Fatal("claimed within the interval of its check")
	}
	checks, err := s.RecallChecks(ctx)
	if err != nil || len(checks) != 1 || !checks["ford|f-150|2021"].Equal(later) {
		t.Fatalf("RecallChecks = %v, %v; want the check at %v", checks, err, later)
	}
	held, release, err := s.TryWatchLock(ctx)
	if err != nil || !held {
		t.Fatalf("TryWatchLock = %v, %v", held, err)
	}
	release()
}

// testItemRecalls: sightings go with their item and their account, and
// are notified once.
func testItemRecalls(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := account.Account{ID: account.NewID("acc"), Email: "recalls@example.com", Plan: "free", CreatedAt: time.Now().UTC()}
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	l, _ := s.DefaultList(ctx, a.ID)
	vin := "4T1B11HK5KU000001"
	it := account.ListItem{Kind: account.KindVIN, UUID: account.VINItemID(vin), VIN: &vin, Decode: &account.VINDecode{}, AddedAt: time.Now().UTC()}
	if err := s.AddListItem(ctx, l.ID, it); err != nil {
		t.Fatal(err)
	}
	ref := store.ItemRef{ListID: l.ID, Kind: it.Kind, UUID: it.UUID}
	now := time.Now().UTC().Truncate(time.Second)
	if _, err := s.RecordItemRecalls(ctx, ref, map[string][]byte{}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordItemRecalls(ctx, ref, map[string][]byte{"26V777000": []byte(`{}`)}, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	pending, err := s.UnnotifiedRecalls(ctx)
	if err != nil || len(pending) != 1 || pending[0].AccountID != a.ID || pending[0].ItemRef != ref {
		t.Fatalf("UnnotifiedRecalls = %+v, %v", pending, err)
	}
	if err := s.MarkRecallNotified(ctx, ref, "26V777000"); err != nil {
		t.Fatal(err)
	}
	if pending, _ := s.UnnotifiedRecalls(ctx); len(pending) != 0 {
		t.Fatalf("still pending after MarkRecallNotified: %+v", pending)
	}
	gone := store.ItemRef{ListID: l.ID, Kind: account.KindVIN, UUID: account.VINItemID("X")}
	if _, err := s.RecordItemRecalls(ctx, gone, map[string][]byte{"26V777000": []byte(`{}`)}, now); err == nil {
		t.Fatal("recorded recalls of an item not in the list")
	}
	if err := s.DeleteAccount(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if rs, err := s.ItemRecalls(ctx, a.ID); err != nil || len(rs) != 0 {
		t.Fatalf("sightings of a deleted account: %+v, %v", rs, err)
	}
}

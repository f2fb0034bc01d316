// Package storetest is the contract test suite every store implementation
// must pass. The sqlite and postgres packages run it against a real
// database each.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
)

// Opener returns a migrated, empty store for one test.
type Opener func(t *testing.T) store.Store

// Run runs the whole contract suite.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"MigrateTwice", testMigrateTwice},
		{"EmptyCatalog", testEmptyCatalog},
		{"ReplaceCatalog", testReplaceCatalog},
		{"ReplaceOnlyNamedKinds", testReplaceOnlyNamedKinds},
		{"ConcurrentIngests", testConcurrentIngests},
		{"ReplaceCheckAndDryRun", testReplaceCheckAndDryRun},
		{"Accounts", testAccounts},
		{"Tokens", testTokens},
		{"Lists", testLists},
		{"ListItemsSurviveRemoval", testListItemsSurviveRemoval},
		{"Usage", testUsage},
		{"TouchTokens", testTouchTokens},
		{"RequestLog", testRequestLog},
		{"RequestLogRefusedLine", testRequestLogRefusedLine},
		{"LeaseUsage", testLeaseUsage},
		{"Cache", testCache},
		{"EnrichCars", testEnrichCars},
		{"Passwords", testPasswords},
		{"Sessions", testSessions},
		{"SignInThrottle", testSignInThrottle},
		{"ConcurrentFailedSignIns", testConcurrentFailedSignIns},
		{"NamedLists", testNamedLists},
		{"ListCap", testListCap},
		{"TokenCap", testTokenCap},
		{"TokenGrace", testTokenGrace},
		{"DeleteAccount", testDeleteAccount},
		{"Flash", testFlash},
		{"MICList", testMICList},
		{"Webhooks", testWebhooks},
		{"RecallClaims", testRecallClaims},
		{"ItemRecalls", testItemRecalls},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

func ptr[T any](v T) *T { return &v }

// sampleCatalog builds a small valid catalog; n varies the car count.
func sampleCatalog(t *testing.T, cars int) *catalog.Catalog {
	t.Helper()
	c := &catalog.Catalog{}
	for i := range cars {
		car := catalog.Car{Make: "Toyota", Model: "Camry", Year: 2015 + i%10, Trim: fmt.Sprintf("LE %d", i), Body: "Sedan",
			FuelType: catalog.FuelGasoline, DriveType: "FWD", Transmission: "Automatic (S8)", DisplacementL: catalog.Some(2.5), Cylinders: catalog.Some(4)}
		mustValid(t, car.Normalize())
		c.Cars = append(c.Cars, car)
	}
	m := catalog.Motorcycle{Make: "Honda", Model: "CRF450R", Year: 2022, MotorcycleType: "Off-road Motorcycle", DisplacementCC: ptr(450), EngineType: "Single", PowerHP: ptr(55.0)}
	mustValid(t, m.Normalize())
	b := catalog.Boat{Make: "Boston Whaler", Model: "Montauk 170", Year: 2021, ModelType: "Center Console", LengthFt: 17.4, BeamFt: 7.1,
		DryWeightLbs: 1750, EngineCount: 1, HP: 115, HullType: "Fiberglass", FuelType: "Gas"}
	mustValid(t, b.Normalize())
	tf := catalog.TireFitment{Make: "Toyota", Model: "Camry", Year: 2022, Trim: "SE", TireSize: "235/45R18 95W",
		RearTireSize: ptr("255/40R18"), RearLoadIndex: ptr(99), RearSpeedRating: ptr("W"),
		AlternateSizes: []string{"235/40R19", "225/50R18"}, RearAlternateSizes: []string{"255/35R19"},
		WheelSpecs: catalog.WheelSpecs{BoltPattern: ptr("5x114.3"), CenterBoreMM: ptr(60.1), OffsetMinMM: ptr(-5), OffsetMaxMM: ptr(45),
			RimWidthMinIn: ptr(7.5), RimWidthMaxIn: ptr(8.5), LugThread: ptr("M12x1.5"), LugTorqueNM: ptr(103), TPMS: ptr(false)}}
	mustValid(t, tf.Normalize())
	c.Motorcycles = []catalog.Motorcycle{m}
	c.Boats = []catalog.Boat{b}
	c.TireSizes = []catalog.TireFitment{tf}
	return c
}

func mustValid(t *testing.T, errs catalog.FieldErrors) {
	t.Helper()
	if err := errs.Err(); err != nil {
		t.Fatalf("sample record invalid: %v", err)
	}
}

func testMigrateTwice(t *testing.T, s store.Store) {
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatalf("second Migrate: %v", err)
	}
	v, err := s.CatalogVersion(context.Background())
	must(t, err, "CatalogVersion")
	if v.Number != 0 {
		t.Fatalf("version after migrate = %d, want 0", v.Number)
	}
}

func testEmptyCatalog(t *testing.T, s store.Store) {
	c, v, err := s.LoadCatalog(context.Background())
	must(t, err, "LoadCatalog")
	if n := c.Counts(); n != (catalog.Counts{}) || v.Number != 0 {
		t.Fatalf("empty store: counts %+v version %d", n, v.Number)
	}
}

func testReplaceCatalog(t *testing.T, s store.Store) {
	ctx := context.Background()
	in := sampleCatalog(t, 5)
	var calls, last int
	ch, v, err := s.ReplaceCatalog(ctx, in, catalog.Kinds, store.ReplaceOptions{Source: "test", Progress: func(done, total int) { calls++; last = done }})
	must(t, err, "first ReplaceCatalog")
	if v.Number != 1 || v.Counts != in.Counts() || v.Source != "test" {
		t.Fatalf("first version = %+v, want number 1, counts %+v", v, in.Counts())
	}
	if got := ch.Summaries()[0]; got.Added != 5 || got.Changed != 0 || got.Removed != 0 {
		t.Fatalf("car summary = %+v, want 5 added", got)
	}
	if calls == 0 || last != 8 {
		t.Fatalf("progress: %d calls, last done %d, want last 8", calls, last)
	}
	out, v2, err := s.LoadCatalog(ctx)
	must(t, err, "LoadCatalog")
	if v2.Number != 1 {
		t.Fatalf("loaded version %d, want 1", v2.Number)
	}
	assertSameCatalog(t, in, out)

	// The same input again changes nothing and publishes nothing.
	ch, v, err = s.ReplaceCatalog(ctx, in, catalog.Kinds, store.ReplaceOptions{Source: "test"})
	must(t, err, "second ReplaceCatalog")
	if !ch.Empty() || v.Number != 1 || ch.Cars.Unchanged != 5 {
		t.Fatalf("re-ingest: empty=%v version=%d unchanged=%d, want no change at version 1", ch.Empty(), v.Number, ch.Cars.Unchanged)
	}

	// Change one car, drop one, add one.
	next := sampleCatalog(t, 6)
	next.Cars = next.Cars[1:]
	next.Cars[0].Body = "Coupe"
	ch, v, err = s.ReplaceCatalog(ctx, next, catalog.Kinds, store.ReplaceOptions{Source: "test"})
	must(t, err, "third ReplaceCatalog")
	want := catalog.Summary{Kind: catalog.KindCar, Added: 1, Changed: 1, Unchanged: 3, Removed: 1}
	if got := ch.Summaries()[0]; got != want || v.Number != 2 || v.Counts.Cars != 5 {
		t.Fatalf("diff ingest: summary %+v version %+v, want %+v at version 2", got, v, want)
	}
	out, _, err = s.LoadCatalog(ctx)
	must(t, err, "LoadCatalog")
	assertSameCatalog(t, next, out)
}

func testReplaceOnlyNamedKinds(t *testing.T, s store.Store) {
	ctx := context.Background()
	_, _, err := s.ReplaceCatalog(ctx, sampleCatalog(t, 3), catalog.Kinds, store.ReplaceOptions{Source: "all"})
	must(t, err, "seed")
	onlyCars := &catalog.Catalog{Cars: sampleCatalog(t, 1).Cars}
	ch, v, err := s.ReplaceCatalog(ctx, onlyCars, []catalog.Kind{catalog.KindCar}, store.ReplaceOptions{Source: "cars"})
	must(t, err, "replace cars")
	if len(ch.Summaries()) != 1 || ch.Cars.Unchanged != 1 || len(ch.Cars.Delete) != 2 {
		t.Fatalf("summaries %+v, want cars only with 1 unchanged and 2 removed", ch.Summaries())
	}
	if want := (catalog.Counts{Cars: 1, Motorcycles: 1, Boats: 1, TireSizes: 1}); v.Counts != want {
		t.Fatalf("counts %+v, want %+v (other kinds untouched)", v.Counts, want)
	}
}

func testConcurrentIngests(t *testing.T, s store.Store) {
	ctx := context.Background()
	var wg sync.WaitGroup
	versions := make([]int64, 4)
	errs := make([]error, 4)
	for i := range versions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, v, err := s.ReplaceCatalog(ctx, sampleCatalog(t, i+1), catalog.Kinds, store.ReplaceOptions{Source: "race"})
			versions[i], errs[i] = v.Number, err
		}()
	}
	wg.Wait()
	seen := map[int64]bool{}
	for i, err := range errs {
		must(t, err, "ingest %d", i)
		if seen[versions[i]] {
			t.Fatalf("two ingests published version %d: %v", versions[i], versions)
		}
		seen[versions[i]] = true
	}
	v, err := s.CatalogVersion(ctx)
	must(t, err, "CatalogVersion")
	if v.Number != 4 {
		t.Fatalf("latest version %d after 4 changing ingests, want 4", v.Number)
	}
}

// testReplaceCheckAndDryRun: a refusing Check and a dry run both return the
// changes they computed and leave the records and the version as they were.
func testReplaceCheckAndDryRun(t *testing.T, s store.Store) {
	ctx := context.Background()
	seed := sampleCatalog(t, 4)
	_, v1, err := s.ReplaceCatalog(ctx, seed, catalog.Kinds, store.ReplaceOptions{Source: "seed"})
	must(t, err, "seed")
	next := sampleCatalog(t, 5)
	next.Cars = next.Cars[2:] // 2 removed, 2 unchanged, 1 added
	wantCars := catalog.Summary{Kind: catalog.KindCar, Added: 1, Unchanged: 2, Removed: 2}
	unchanged := func(what string) {
		t.Helper()
		out, v, err := s.LoadCatalog(ctx)
		must(t, err, "LoadCatalog")
		if v.Number != v1.Number {
			t.Fatalf("%s published version %d, want %d", what, v.Number, v1.Number)
		}
		assertSameCatalog(t, seed, out)
	}

	refused := errors.New("refused")
	var seen catalog.Summary
	ch, v, err := s.ReplaceCatalog(ctx, next, catalog.Kinds, store.ReplaceOptions{Source: "checked",
		Check: func(ch *catalog.Changes) error { seen = ch.Summaries()[0]; return refused }})
	if !errors.Is(err, refused) || seen != wantCars || ch.Summaries()[0] != wantCars || v.Number != v1.Number {
		t.Fatalf("refused: err %v, check saw %+v, returned %+v at version %d; want %v, %+v at %d", err, seen, ch.Summaries()[0], v.Number, refused, wantCars, v1.Number)
	}
	unchanged("a refused ingest")

	ch, v, err = s.ReplaceCatalog(ctx, next, catalog.Kinds, store.ReplaceOptions{Source: "dry", DryRun: true})
	must(t, err, "dry run")
	if ch.Summaries()[0] != wantCars || v.Number != v1.Number {
		t.Fatalf("dry run: %+v at version %d, want %+v at %d", ch.Summaries()[0], v.Number, wantCars, v1.Number)
	}
	unchanged("a dry run")
}

func newAccount(t *testing.T, s store.Store, email string) account.Account {
	t.Helper()
	a := account.Account{ID: account.NewID("acc"), Email: email, Plan: "free", CreatedAt: time.Now().UTC().Truncate(time.Second)}
	must(t, s.CreateAccount(context.Background(), a), "CreateAccount %s", email)
	return a
}

func testAccounts(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "ann@example.com")
	b := newAccount(t, s, "bob@example.com")
	dup := account.Account{ID: account.NewID("acc"), Email: "ann@example.com", Plan: "pro", CreatedAt: time.Now()}
	if err := s.CreateAccount(ctx, dup); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate email: err = %v, want ErrConflict", err)
	}
	got, err := s.AccountByEmail(ctx, "ann@example.com")
	must(t, err, "AccountByEmail")
	if got != a {
		t.Fatalf("AccountByEmail = %+v, want %+v", got, a)
	}
	if _, err := s.AccountByEmail(ctx, "nobody@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown email: err = %v, want ErrNotFound", err)
	}
	must(t, s.SetPlan(ctx, b.ID, "enterprise"), "SetPlan")
	must(t, s.SetSuspended(ctx, b.ID, true), "SetSuspended")
	got, err = s.AccountByID(ctx, b.ID)
	must(t, err, "AccountByID")
	if got.Plan != "enterprise" || !got.Suspended {
		t.Fatalf("after updates: %+v", got)
	}
	if err := s.SetPlan(ctx, "acc_missing", "pro"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetPlan of unknown account: err = %v, want ErrNotFound", err)
	}
	all, err := s.ListAccounts(ctx)
	must(t, err, "ListAccounts")
	if len(all) != 2 || all[0].Email != "ann@example.com" || all[1].Email != "bob@example.com" {
		t.Fatalf("ListAccounts = %+v", all)
	}
	l, err := s.DefaultList(ctx, a.ID)
	must(t, err, "DefaultList")
	if l.Name != account.DefaultListName || !l.IsDefault {
		t.Fatalf("default list = %+v", l)
	}
}

func newToken(accountID, name string) (account.Token, string) {
	secret, hash, prefix := account.NewSecret()
	return account.Token{ID: account.NewID("tok"), AccountID: accountID, Name: name, Prefix: prefix, Hash: hash,
		Scopes: []string{account.ScopeRead}, CreatedAt: time.Now().UTC().Truncate(time.Second)}, secret
}

func testTokens(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "tok@example.com")
	tok, secret := newToken(a.ID, "ci")
	must(t, s.CreateToken(ctx, tok, 50), "CreateToken")
	got, err := s.TokenByHash(ctx, account.HashSecret(secret))
	must(t, err, "TokenByHash")
	if got.ID != tok.ID || got.AccountID != a.ID || !got.Active() || strings.Join(got.Scopes, ",") != account.ScopeRead {
		t.Fatalf("TokenByHash = %+v", got)
	}
	if _, err := s.TokenByHash(ctx, account.HashSecret(secret+"x")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("wrong secret: err = %v, want ErrNotFound", err)
	}

	next, nextSecret := newToken(a.ID, "ci")
	at := time.Now().UTC().Truncate(time.Second)
	must(t, s.RotateToken(ctx, tok.ID, next, at), "RotateToken")
	old, err := s.TokenByHash(ctx, account.HashSecret(secret))
	must(t, err, "old token by hash")
	if old.Active() || !old.RevokedAt.Equal(at) {
		t.Fatalf("old token after rotate: revoked_at %v, want %v", old.RevokedAt, at)
	}
	fresh, err := s.TokenByHash(ctx, account.HashSecret(nextSecret))
	must(t, err, "new token by hash")
	if !fresh.Active() {
		t.Fatal("rotated-in token is not active")
	}
	if err := s.RotateToken(ctx, tok.ID, next, at); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("rotating a revoked token: err = %v, want ErrNotFound", err)
	}
	must(t, s.RevokeToken(ctx, next.ID, at), "RevokeToken")
	if err := s.RevokeToken(ctx, next.ID, at); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("revoking twice: err = %v, want ErrNotFound", err)
	}
	list, err := s.Tokens(ctx, a.ID)
	must(t, err, "Tokens")
	if len(list) != 2 {
		t.Fatalf("Tokens = %d, want 2", len(list))
	}
	for _, tk := range list {
		if tk.Active() {
			t.Fatalf("token %s still active after revoke", tk.ID)
		}
	}
}

func testLists(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "list@example.com")
	l, err := s.DefaultList(ctx, a.ID)
	must(t, err, "DefaultList")
	item := account.ListItem{Kind: catalog.KindCar, UUID: uuid.New(), Note: "daily driver", AddedAt: time.Now().UTC().Truncate(time.Second)}
	must(t, s.AddListItem(ctx, l.ID, item), "AddListItem")
	if err := s.AddListItem(ctx, l.ID, item); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("adding twice: err = %v, want ErrConflict", err)
	}
	lists, err := s.Lists(ctx, a.ID)
	must(t, err, "Lists")
	if len(lists) != 1 || len(lists[0].Items) != 1 || lists[0].Items[0] != item {
		t.Fatalf("Lists = %+v, want the default list holding %+v", lists, item)
	}
	must(t, s.RemoveListItem(ctx, l.ID, item.Kind, item.UUID), "RemoveListItem")
	if err := s.RemoveListItem(ctx, l.ID, item.Kind, item.UUID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("removing twice: err = %v, want ErrNotFound", err)
	}
	lists, err = s.Lists(ctx, a.ID)
	must(t, err, "Lists")
	if len(lists[0].Items) != 0 {
		t.Fatalf("items after remove: %+v", lists[0].Items)
	}
}

func testListItemsSurviveRemoval(t *testing.T, s store.Store) {
	ctx := context.Background()
	in := sampleCatalog(t, 2)
	_, _, err := s.ReplaceCatalog(ctx, in, catalog.Kinds, store.ReplaceOptions{Source: "seed"})
	must(t, err, "seed")
	a := newAccount(t, s, "keep@example.com")
	l, err := s.DefaultList(ctx, a.ID)
	must(t, err, "DefaultList")
	saved := in.Cars[0].UUID
	for kind, want := range map[catalog.Kind]bool{catalog.KindCar: true, catalog.KindBoat: false} {
		got, err := s.HasRecord(ctx, kind, saved)
		must(t, err, "HasRecord")
		if got != want {
			t.Fatalf("HasRecord(%s, car uuid) = %v, want %v", kind, got, want)
		}
	}
	must(t, s.AddListItem(ctx, l.ID, account.ListItem{Kind: catalog.KindCar, UUID: saved, AddedAt: time.Now()}), "AddListItem")
	_, _, err = s.ReplaceCatalog(ctx, &catalog.Catalog{}, catalog.Kinds, store.ReplaceOptions{Source: "empty"})
	must(t, err, "empty the catalog")
	if ok, err := s.HasRecord(ctx, catalog.KindCar, saved); err != nil || ok {
		t.Fatalf("HasRecord after emptying = %v, %v; want false", ok, err)
	}
	lists, err := s.Lists(ctx, a.ID)
	must(t, err, "Lists")
	if len(lists[0].Items) != 1 || lists[0].Items[0].UUID != saved {
		t.Fatalf("saved item lost when its record left the catalog: %+v", lists[0].Items)
	}
}

// assertSameCatalog compares two catalogs record by record, ignoring order.
func assertSameCatalog(t *testing.T, want, got *catalog.Catalog) {
	t.Helper()
	if want.Counts() != got.Counts() {
		t.Fatalf("counts: got %+v, want %+v", got.Counts(), want.Counts())
	}
	ch := catalog.Diff(got, want, map[catalog.Kind]bool{catalog.KindCar: true, catalog.KindMotorcycle: true, catalog.KindBoat: true, catalog.KindTireSize: true})
	if !ch.Empty() {
		t.Fatalf("stored catalog differs from what was written: %+v", ch.Summaries())
	}
}

func testUsage(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "usage@example.com")
	used, err := s.Usage(ctx, a.ID, "2026-11")
	must(t, err, "Usage before any call")
	if used != 0 {
		t.Fatalf("usage before any call = %d", used)
	}
	// Replicas add concurrently; no increment may be lost.
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				ch := "rest"
				if w%2 == 1 {
					ch = "mcp"
				}
				d := store.UsageDelta{AccountID: a.ID, Period: "2026-11", Calls: 1,
					Days: map[store.DayChannel]int64{{Day: "2026-11-21", Channel: ch}: 1}}
				if _, err := s.AddUsage(ctx, d); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	used, err = s.AddUsage(ctx, store.UsageDelta{AccountID: a.ID, Period: "2026-11", Calls: 3,
		Days: map[store.DayChannel]int64{{Day: "2026-11-22", Channel: "rest"}: 3}})
	must(t, err, "AddUsage")
	if used != 103 {
		t.Fatalf("usage after 100 concurrent adds and 3 more = %d, want 103", used)
	}
	if other, err := s.Usage(ctx, a.ID, "2026-12"); err != nil || other != 0 {
		t.Fatalf("next month's usage = %d, %v; want 0", other, err)
	}
	days, err := s.DailyUsage(ctx, a.ID, "2026-11-01", "2026-11-30")
	must(t, err, "DailyUsage")
	want := []store.DailyUsage{{Day: "2026-11-21", Channel: "mcp", Calls: 50}, {Day: "2026-11-21", Channel: "rest", Calls: 50}, {Day: "2026-11-22", Channel: "rest", Calls: 3}}
	if fmt.Sprint(days) != fmt.Sprint(want) {
		t.Fatalf("DailyUsage = %v, want %v", days, want)
	}
}

func testTouchTokens(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "touch@example.com")
	tok, _ := newToken(a.ID, "x")
	must(t, s.CreateToken(ctx, tok, 50), "CreateToken")
	later := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	must(t, s.TouchTokens(ctx, map[string]time.Time{tok.ID: later}), "TouchTokens")
	must(t, s.TouchTokens(ctx, map[string]time.Time{tok.ID: later.Add(-time.Hour)}), "TouchTokens earlier")
	got, err := s.TokenByID(ctx, tok.ID)
	must(t, err, "TokenByID")
	if got.LastUsedAt == nil || !got.LastUsedAt.Equal(later) {
		t.Fatalf("last_used_at = %v, want %v (an earlier time must not win)", got.LastUsedAt, later)
	}
}

// testLeaseUsage: servers racing for leases are granted exactly the quota,
// never more, and returned units can be leased again.
func testLeaseUsage(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "lease@example.com")
	var mu sync.Mutex
	var granted int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				g, used, err := s.LeaseUsage(ctx, a.ID, "2026-11", 7, 100)
				if err != nil {
					t.Error(err)
					return
				}
				if used > 100 {
					t.Errorf("counter at %d, over the quota of 100", used)
				}
				if g == 0 {
					return
				}
				mu.Lock()
				granted += g
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if granted != 100 {
		t.Fatalf("racing leases granted %d units of a quota of 100", granted)
	}
	used, err := s.AddUsage(ctx, store.UsageDelta{AccountID: a.ID, Period: "2026-11", Calls: -5})
	must(t, err, "return 5 units")
	if used != 95 {
		t.Fatalf("after returning 5 units the counter is %d, want 95", used)
	}
	g, used, err := s.LeaseUsage(ctx, a.ID, "2026-11", 10, 100)
	must(t, err, "lease again")
	if g != 5 || used != 100 {
		t.Fatalf("lease after a return granted %d (counter %d), want 5 (100)", g, used)
	}
}

func testCache(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, _, ok, err := s.GetCache(ctx, "vpic:decode:X"); ok || err != nil {
		t.Fatalf("empty cache: ok %v, %v", ok, err)
	}
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	must(t, s.PutCache(ctx, "vpic:decode:X", []byte(`{"make":"FORD"}`), at), "PutCache")
	must(t, s.PutCache(ctx, "vpic:decode:X", []byte(`{"make":"Ford"}`), at.Add(time.Hour)), "PutCache again")
	v, got, ok, err := s.GetCache(ctx, "vpic:decode:X")
	if err != nil || !ok || string(v) != `{"make":"Ford"}` || !got.Equal(at.Add(time.Hour)) {
		t.Fatalf("GetCache = %s at %v (%v, %v); want the replacement", v, got, ok, err)
	}
}

func testEnrichCars(t *testing.T, s store.Store) {
	ctx := context.Background()
	in := sampleCatalog(t, 3)
	_, _, err := s.ReplaceCatalog(ctx, in, catalog.Kinds, store.ReplaceOptions{Source: "seed"})
	must(t, err, "seed")
	fe := catalog.FuelEconomy{EPAID: catalog.Some(40001), MPGCity: catalog.Some(28.0), MPGHighway: catalog.Some(39.0), MPGCombined: catalog.Some(32.0), AnnualFuelCost: catalog.Some(1450), CO2GPM: catalog.Some(277.5)}
	changed, v, err := s.EnrichCars(ctx, map[uuid.UUID]catalog.FuelEconomy{in.Cars[0].UUID: fe}, "epa")
	must(t, err, "EnrichCars")
	if changed != 1 || v.Number != 2 || v.Source != "epa" {
		t.Fatalf("EnrichCars changed %d, version %+v; want 1 car, version 2", changed, v)
	}
	changed, v, err = s.EnrichCars(ctx, map[uuid.UUID]catalog.FuelEconomy{in.Cars[0].UUID: fe}, "epa")
	must(t, err, "EnrichCars again")
	if changed != 0 || v.Number != 2 {
		t.Fatalf("the same enrichment again changed %d cars and published %d", changed, v.Number)
	}
	// A re-ingest of the same catalog keeps the enrichment.
	_, _, err = s.ReplaceCatalog(ctx, sampleCatalog(t, 3), catalog.Kinds, store.ReplaceOptions{Source: "seed"})
	must(t, err, "re-ingest")
	c, _, err := s.LoadCatalog(ctx)
	must(t, err, "LoadCatalog")
	for _, car := range c.Cars {
		enriched := car.MPGCity.Valid
		if enriched != (car.UUID == in.Cars[0].UUID) || (enriched && (car.CO2GPM.V != 277.5 || !car.EPAID.Valid || car.EPAID.V != 40001)) {
			t.Fatalf("car %s after enrich and re-ingest: %+v", car.UUID, car.FuelEconomy)
		}
	}
	// An ingest that pins another EPA row brings that row's figures.
	pinned := sampleCatalog(t, 3)
	pinned.Cars[0].FuelEconomy = catalog.FuelEconomy{EPAID: catalog.Some(40002), MPGCombined: catalog.Some(41.0)}
	ch, _, err := s.ReplaceCatalog(ctx, pinned, catalog.Kinds, store.ReplaceOptions{Source: "pinned"})
	must(t, err, "pinned ingest")
	c, _, err = s.LoadCatalog(ctx)
	must(t, err, "LoadCatalog")
	if len(ch.Cars.Update) != 1 || !reflect.DeepEqual(c.Cars[slices.IndexFunc(c.Cars, func(x catalog.Car) bool { return x.UUID == in.Cars[0].UUID })].FuelEconomy, pinned.Cars[0].FuelEconomy) {
		t.Fatalf("after a pinned ingest: %d updates, stored %+v", len(ch.Cars.Update), c.Cars)
	}
}

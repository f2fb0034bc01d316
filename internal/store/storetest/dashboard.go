package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
)

func testPasswords(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "pw@example.com")
	if _, _, err := s.PasswordHash(ctx, a.Email); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("PasswordHash without a password: err = %v, want ErrNotFound", err)
	}
	if _, _, err := s.PasswordHash(ctx, "nobody@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("PasswordHash of an unknown email: err = %v, want ErrNotFound", err)
	}
	must(t, s.SetPassword(ctx, a.ID, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA"), "SetPassword")
	got, hash, err := s.PasswordHash(ctx, a.Email)
	must(t, err, "PasswordHash")
	if got != a || hash != "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA" {
		t.Fatalf("PasswordHash = %+v %q", got, hash)
	}
	// The hash changes nothing else the account shows.
	byID, err := s.AccountByID(ctx, a.ID)
	must(t, err, "AccountByID")
	if byID != a {
		t.Fatalf("AccountByID after SetPassword = %+v, want %+v", byID, a)
	}
	if err := s.SetPassword(ctx, "acc_missing", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetPassword of an unknown account: err = %v, want ErrNotFound", err)
	}
}

func newSession(accountID string, created time.Time, ttl time.Duration) (account.Session, string) {
	secret, hash := account.NewSessionSecret()
	return account.Session{IDHash: hash, AccountID: accountID, CSRF: account.NewCSRFToken(),
		CreatedAt: created, ExpiresAt: created.Add(ttl)}, secret
}

func testSessions(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "sess@example.com")
	b := newAccount(t, s, "sess2@example.com")
	now := time.Now().UTC().Truncate(time.Second)
	live, secret := newSession(a.ID, now, time.Hour)
	old, _ := newSession(a.ID, now.Add(-2*time.Hour), time.Hour)
	other, _ := newSession(b.ID, now, time.Hour)
	for _, ss := range []account.Session{live, old, other} {
		must(t, s.CreateSession(ctx, ss), "CreateSession")
	}
	got, err := s.SessionByHash(ctx, account.HashSecret(secret))
	must(t, err, "SessionByHash")
	if got != live {
		t.Fatalf("SessionByHash = %+v, want %+v", got, live)
	}
	if _, err := s.SessionByHash(ctx, account.HashSecret(secret+"x")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown session: err = %v, want ErrNotFound", err)
	}
	// An expired session is still returned: the caller decides.
	if got, err := s.SessionByHash(ctx, old.IDHash); err != nil || !got.ExpiresAt.Equal(now.Add(-time.Hour)) {
		t.Fatalf("expired session = %+v, %v", got, err)
	}
	n, err := s.DeleteExpiredSessions(ctx, now)
	must(t, err, "DeleteExpiredSessions")
	if n != 1 {
		t.Fatalf("DeleteExpiredSessions removed %d, want 1", n)
	}
	if _, err := s.SessionByHash(ctx, old.IDHash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("expired session after sweep: err = %v, want ErrNotFound", err)
	}
	must(t, s.DeleteSession(ctx, live.IDHash), "DeleteSession")
	must(t, s.DeleteSession(ctx, live.IDHash), "DeleteSession twice")
	if _, err := s.SessionByHash(ctx, live.IDHash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted session: err = %v, want ErrNotFound", err)
	}
	more, _ := newSession(b.ID, now, time.Hour)
	must(t, s.CreateSession(ctx, more), "CreateSession")
	n, err = s.DeleteAccountSessions(ctx, b.ID)
	must(t, err, "DeleteAccountSessions")
	if n != 2 {
		t.Fatalf("DeleteAccountSessions removed %d, want 2", n)
	}
}

func testSignInThrottle(t *testing.T, s store.Store) {
	ctx := context.Background()
	const window = 15 * time.Minute
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	if n, _, err := s.FailedSignIns(ctx, "k", t0.Add(-window)); err != nil || n != 0 {
		t.Fatalf("FailedSignIns before any = %d, %v", n, err)
	}
	for i := 1; i <= 3; i++ {
		n, err := s.RecordFailedSignIn(ctx, "k", t0.Add(time.Duration(i)*time.Minute), window)
		must(t, err, "RecordFailedSignIn")
		if n != i {
			t.Fatalf("failure %d counted as %d", i, n)
		}
	}
	last := t0.Add(3 * time.Minute)
	n, at, err := s.FailedSignIns(ctx, "k", last.Add(-window))
	must(t, err, "FailedSignIns")
	if n != 3 || !at.Equal(last) {
		t.Fatalf("FailedSignIns = %d at %v, want 3 at %v", n, at, last)
	}
	if n, _, _ := s.FailedSignIns(ctx, "k", last.Add(time.Second)); n != 0 {
		t.Fatalf("a count older than since = %d, want 0", n)
	}
	if n, _, _ := s.FailedSignIns(ctx, "other", t0); n != 0 {
		t.Fatalf("another key's count = %d, want 0", n)
	}
	// A failure after a quiet window starts the count over.
	n, err = s.RecordFailedSignIn(ctx, "k", last.Add(window+time.Second), window)
	must(t, err, "RecordFailedSignIn after the window")
	if n != 1 {
		t.Fatalf("count after a quiet window = %d, want 1", n)
	}
	must(t, s.ClearFailedSignIns(ctx, "k"), "ClearFailedSignIns")
	if n, _, _ := s.FailedSignIns(ctx, "k", t0); n != 0 {
		t.Fatalf("count after clear = %d, want 0", n)
	}
	_, err = s.RecordFailedSignIn(ctx, "stale", t0, window)
	must(t, err, "RecordFailedSignIn")
	_, err = s.RecordFailedSignIn(ctx, "fresh", t0.Add(time.Hour), window)
	must(t, err, "RecordFailedSignIn")
	gone, err := s.DeleteStaleSignIns(ctx, t0.Add(time.Minute))
	must(t, err, "DeleteStaleSignIns")
	if gone != 1 {
		t.Fatalf("DeleteStaleSignIns removed %d, want 1", gone)
	}
	if n, _, _ := s.FailedSignIns(ctx, "fresh", t0); n != 1 {
		t.Fatal("DeleteStaleSignIns removed a fresh count")
	}
}

// testConcurrentFailedSignIns: replicas counting failures of one key at
// once lose none of them.
func testConcurrentFailedSignIns(t *testing.T, s store.Store) {
	ctx := context.Background()
	at := time.Now().UTC()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10 {
				if _, err := s.RecordFailedSignIn(ctx, "race", at, time.Hour); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if n, _, err := s.FailedSignIns(ctx, "race", at.Add(-time.Minute)); err != nil || n != 40 {
		t.Fatalf("concurrent failures counted %d, %v; want 40", n, err)
	}
}

func testNamedLists(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "lists@example.com")
	b := newAccount(t, s, "lists2@example.com")
	def, err := s.DefaultList(ctx, a.ID)
	must(t, err, "DefaultList")
	now := time.Now().UTC().Truncate(time.Second)
	trips := account.List{ID: account.NewID("lst"), AccountID: a.ID, Name: "Road trips", CreatedAt: now}
	must(t, s.CreateList(ctx, trips, 50), "CreateList")
	dup := trips
	dup.ID = account.NewID("lst")
	if err := s.CreateList(ctx, dup, 50); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second list with the same name: err = %v, want ErrConflict", err)
	}
	// Names are per account.
	theirs := account.List{ID: account.NewID("lst"), AccountID: b.ID, Name: "Road trips", CreatedAt: now}
	must(t, s.CreateList(ctx, theirs, 50), "CreateList for another account")

	got, err := s.ListByID(ctx, a.ID, trips.ID)
	must(t, err, "ListByID")
	if got.ID != trips.ID || got.Name != "Road trips" || got.IsDefault || got.AccountID != a.ID || !got.CreatedAt.Equal(now) {
		t.Fatalf("ListByID = %+v", got)
	}
	if _, err := s.ListByID(ctx, a.ID, theirs.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("ListByID of another account's list: err = %v, want ErrNotFound", err)
	}
	item := account.ListItem{Kind: catalog.KindBoat, UUID: uuid.New(), Note: "summer", AddedAt: now}
	must(t, s.AddListItem(ctx, trips.ID, item), "AddListItem")
	lists, err := s.Lists(ctx, a.ID)
	must(t, err, "Lists")
	if len(lists) != 2 || lists[0].ID != def.ID || lists[1].ID != trips.ID || len(lists[1].Items) != 1 || len(lists[0].Items) != 0 {
		t.Fatalf("Lists = %+v, want the default list first, then Road trips with one item", lists)
	}

	for name, id := range map[string]string{"the default list": def.ID, "another account's list": theirs.ID, "an unknown list": "lst_missing"} {
		if err := s.DeleteList(ctx, a.ID, id); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("deleting %s: err = %v, want ErrNotFound", name, err)
		}
	}
	must(t, s.DeleteList(ctx, a.ID, trips.ID), "DeleteList")
	lists, err = s.Lists(ctx, a.ID)
	must(t, err, "Lists")
	if len(lists) != 1 || !lists[0].IsDefault {
		t.Fatalf("Lists after delete = %+v", lists)
	}
	if _, err := s.ListByID(ctx, b.ID, theirs.ID); err != nil {
		t.Fatalf("the other account's list went too: %v", err)
	}
}

// createConcurrently runs create 80 times from 8 goroutines at once and
// counts the successes; any error but ErrLimit fails the test.
func createConcurrently(t *testing.T, create func(i int) error) int {
	var (
		wg sync.WaitGroup
		mu sync.Mutex
		ok int
	)
	for g := range 8 {
		wg.Go(func() {
			for i := range 10 {
				err := create(g*10 + i)
				if err != nil && !errors.Is(err, store.ErrLimit) {
					t.Error(err)
					return
				}
				if err == nil {
					mu.Lock()
					ok++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return ok
}

// testListCap: creators racing on one account stop at exactly the cap,
// the default list included.
func testListCap(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "cap@example.com")
	now := time.Now().UTC().Truncate(time.Second)
	created := createConcurrently(t, func(i int) error {
		return s.CreateList(ctx, account.List{ID: account.NewID("lst"), AccountID: a.ID, Name: fmt.Sprintf("list %d", i), CreatedAt: now}, 50)
	})
	lists, err := s.Lists(ctx, a.ID)
	must(t, err, "Lists")
	if created != 49 || len(lists) != 50 {
		t.Fatalf("concurrent creators made %d lists, the account has %d; want 49 and exactly 50", created, len(lists))
	}
	if err := s.CreateList(ctx, account.List{ID: account.NewID("lst"), AccountID: "acc_missing", Name: "x", CreatedAt: now}, 50); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a list for an unknown account: err = %v, want ErrNotFound", err)
	}
}

// testTokenCap: creators racing on one account stop at exactly the cap of
// active tokens; a revoked token frees its place.
func testTokenCap(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "tokcap@example.com")
	var first account.Token
	var once sync.Once
	created := createConcurrently(t, func(i int) error {
		tok, _ := newToken(a.ID, fmt.Sprintf("t%d", i))
		err := s.CreateToken(ctx, tok, 50)
		if err == nil {
			once.Do(func() { first = tok })
		}
		return err
	})
	if created != 50 {
		t.Fatalf("concurrent creators made %d tokens, want exactly 50", created)
	}
	extra, _ := newToken(a.ID, "extra")
	if err := s.CreateToken(ctx, extra, 50); !errors.Is(err, store.ErrLimit) {
		t.Fatalf("a 51st active token: err = %v, want ErrLimit", err)
	}
	must(t, s.RevokeToken(ctx, first.ID, time.Now()), "RevokeToken")
	must(t, s.CreateToken(ctx, extra, 50), "CreateToken after a revocation")
}

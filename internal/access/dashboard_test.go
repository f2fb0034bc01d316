package access_test

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/sqlite"
	"github.com/vds-dev/vds/internal/textcheck"
)

func newService(t *testing.T) (*access.Service, store.Store) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "vds.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Plans: maps.Clone(config.DefaultPlans)}
	return access.New(st, cfg.Plan, cfg.PlanNames()), st
}

func TestPasswordHash(t *testing.T) {
	h := access.HashPassword("correct horse battery")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not an argon2id PHC string with the default parameters", h)
	}
	if h2 := access.HashPassword("correct horse battery"); h2 == h {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for pw, want := range map[string]bool{"correct horse battery": true, "correct horse batterY": false, "": false} {
		ok, err := access.VerifyPassword(h, pw)
		if err != nil || ok != want {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	// Unreadable or tampered hashes are errors, never matches, and
	// absurd costs are refused before any work.
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
		"$argon2id$v=19$m=999999999,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=19456,t=2,p=1$!!$aGFzaA", "$argon2id$v=18$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"} {
		if ok, err := access.VerifyPassword(bad, "x"); ok || err == nil {
			t.Errorf("VerifyPassword(%q) = %v, %v; want an error", bad, ok, err)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	for pw, ok := range map[string]bool{
		"short": false, "ninechars": false, "tencharsok": true, "          ": false,
		"ääääääääää": true, strings.Repeat("x", access.MaxPasswordLen): true, strings.Repeat("x", access.MaxPasswordLen+1): false,
	} {
		if err := access.CheckPassword(pw); (err == nil) != ok {
			t.Errorf("CheckPassword(%q) = %v, want ok=%v", pw, err, ok)
		}
	}
}

func TestSignUpAndSignIn(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	a, err := svc.SignUp(ctx, "Ann@Example.com", "correct horse battery", "192.0.2.1")
	if err != nil || a.Plan != access.FreePlan || a.Email != "ann@example.com" {
		t.Fatalf("SignUp = %+v, %v", a, err)
	}
	if _, err := svc.SignUp(ctx, "ann@example.com", "correct horse battery", "192.0.2.1"); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second sign-up: %v, want ErrConflict", err)
	}
	if _, err := svc.SignUp(ctx, "bob@example.com", "short", "192.0.2.1"); !errors.Is(err, access.ErrWeakPassword) {
		t.Fatalf("weak password: %v, want ErrWeakPassword", err)
	}
	got, err := svc.SignIn(ctx, " ANN@example.com ", "correct horse battery")
	if err != nil || got.ID != a.ID {
		t.Fatalf("SignIn = %+v, %v", got, err)
	}
	// Wrong password, unknown email, malformed email, account without a
	// password: one error.
	if _, err := svc.CreateAccount(ctx, "op@example.com", "pro"); err != nil {
		t.Fatal(err)
	}
	for _, email := range []string{"ann@example.com", "nobody@example.com", "not an email", "op@example.com"} {
		if _, err := svc.SignIn(ctx, email, "wrong password"); !errors.Is(err, access.ErrInvalidCredentials) {
			t.Errorf("SignIn(%q, wrong) = %v, want ErrInvalidCredentials", email, err)
		}
	}
}

func TestSignInThrottle(t *testing.T) {
	ctx := context.Background()
	svc, st := newService(t)
	if _, err := svc.SignUp(ctx, "ann@example.com", "correct horse battery", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	// A success clears the count, so a user who mistypes now and then is
	// never locked out.
	for range access.MaxFailedSignIns - 1 {
		if _, err := svc.SignIn(ctx, "ann@example.com", "typo typo typo"); !errors.Is(err, access.ErrInvalidCredentials) {
			t.Fatal(err)
		}
	}
	if _, err := svc.SignIn(ctx, "ann@example.com", "correct horse battery"); err != nil {
		t.Fatalf("sign-in after %d failures: %v", access.MaxFailedSignIns-1, err)
	}
	for _, email := range []string{"ann@example.com", "ghost@example.com"} {
		for range access.MaxFailedSignIns {
			if _, err := svc.SignIn(ctx, email, "guess guess guess"); !errors.Is(err, access.ErrInvalidCredentials) {
				t.Fatal(err)
			}
		}
		var te *access.ThrottledError
		if _, err := svc.SignIn(ctx, email, "correct horse battery"); !errors.As(err, &te) || !errors.Is(err, access.ErrTooManyAttempts) ||
			te.RetryAfter <= 0 || te.RetryAfter > access.SignInWindow {
			t.Fatalf("%s after %d failures: %v, want a ThrottledError", email, access.MaxFailedSignIns, err)
		}
	}
	// The key is the email as typed, case and spaces aside; the table
	// holds no address.
	if _, err := svc.SignIn(ctx, "  GHOST@example.com", "x"); !errors.Is(err, access.ErrTooManyAttempts) {
		t.Fatalf("throttle dodged by case: %v", err)
	}
	if n, _, _ := st.FailedSignIns(ctx, "ghost@example.com", time.Time{}); n != 0 {
		t.Fatal("the throttle stores emails in clear")
	}
}

// TestSignInConcurrentGuesses: a burst of parallel guesses gets at most
// MaxFailedSignIns checked; the rest are refused without a check.
func TestSignInConcurrentGuesses(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	if _, err := svc.SignUp(ctx, "ann@example.com", "correct horse battery", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	checked := 0
	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() {
			_, err := svc.SignIn(ctx, "ann@example.com", "guess guess guess")
			if errors.Is(err, access.ErrInvalidCredentials) {
				mu.Lock()
				checked++
				mu.Unlock()
			} else if !errors.Is(err, access.ErrTooManyAttempts) {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if checked > access.MaxFailedSignIns {
		t.Fatalf("%d parallel guesses were checked, want at most %d", checked, access.MaxFailedSignIns)
	}
}

func TestSessionLifecycle(t *testing.T) {
	ctx := context.Background()
	svc, st := newService(t)
	a, err := svc.SignUp(ctx, "ann@example.com", "correct horse battery", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	secret, ss, err := svc.StartSession(ctx, a.ID, time.Hour)
	if err != nil || ss.CSRF == "" || ss.IDHash == secret || !ss.ExpiresAt.After(time.Now()) {
		t.Fatalf("StartSession = %+v, %v", ss, err)
	}
	got, acct, err := svc.Session(ctx, secret)
	if err != nil || acct.ID != a.ID || got.CSRF != ss.CSRF {
		t.Fatalf("Session = %+v %+v, %v", got, acct, err)
	}
	for _, bad := range []string{"", "nope", strings.Repeat("x", 500)} {
		if _, _, err := svc.Session(ctx, bad); !errors.Is(err, access.ErrNoSession) {
			t.Errorf("Session(%q) = %v, want ErrNoSession", bad, err)
		}
	}
	// A session that has expired is refused and deleted.
	old, _, err := svc.StartSession(ctx, a.ID, -time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Session(ctx, old); !errors.Is(err, access.ErrNoSession) {
		t.Fatalf("expired session: %v", err)
	}
	if _, err := st.SessionByHash(ctx, account.HashSecret(old)); !errors.Is(err, store.ErrNotFound) {
		t.Fatal("an expired session stayed in the store")
	}
	if err := svc.EndSession(ctx, secret); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Session(ctx, secret); !errors.Is(err, access.ErrNoSession) {
		t.Fatalf("ended session: %v", err)
	}
	if err := svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	// A new password ends every session.
	s1, _, _ := svc.StartSession(ctx, a.ID, time.Hour)
	if _, err := svc.SetPassword(ctx, "ann@example.com", "a brand new password"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Session(ctx, s1); !errors.Is(err, access.ErrNoSession) {
		t.Fatalf("session after a password change: %v", err)
	}
	if _, err := svc.SignIn(ctx, "ann@example.com", "a brand new password"); err != nil {
		t.Fatalf("sign-in with the new password: %v", err)
	}
	if _, err := svc.SetPassword(ctx, "nobody@example.com", "a brand new password"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetPassword of an unknown account: %v", err)
	}
}

// TestAccountScoping: an account reaches only its own tokens and lists.
func TestAccountScoping(t *testing.T) {
	ctx := context.Background()
	svc, st := newService(t)
	c := &catalog.Catalog{}
	displ, cyl := 2.5, 4
	car := catalog.Car{Make: "Toyota", Model: "Camry", Year: 2022, Trim: "LE", Body: "Sedan", FuelType: catalog.FuelGasoline,
		DriveType: "FWD", Transmission: "Automatic", DisplacementL: &displ, Cylinders: &cyl}
	if err := car.Normalize().Err(); err != nil {
		t.Fatal(err)
	}
	c.Cars = append(c.Cars, car)
	if _, _, err := st.ReplaceCatalog(ctx, c, catalog.Kinds, store.ReplaceOptions{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	mine, _ := svc.SignUp(ctx, "me@example.com", "correct horse battery", "192.0.2.1")
	theirs, _ := svc.SignUp(ctx, "them@example.com", "correct horse battery", "192.0.2.1")
	tok, _, err := svc.CreateAccountToken(ctx, theirs.ID, "theirs")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.RotateAccountToken(ctx, mine.ID, tok.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("rotating another account's token: %v", err)
	}
	if _, err := svc.RevokeAccountToken(ctx, mine.ID, tok.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("revoking another account's token: %v", err)
	}
	if toks, _ := svc.AccountTokens(ctx, theirs.ID); len(toks) != 1 || !toks[0].Active() {
		t.Fatal("another account's token changed")
	}

	theirLists, _ := svc.ListsOf(ctx, theirs.ID)
	if _, err := svc.AddToList(ctx, mine.ID, theirLists[0].ID, catalog.KindCar, car.UUID, ""); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("adding to another account's list: %v", err)
	}
	if err := svc.DeleteList(ctx, mine.ID, theirLists[0].ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleting another account's list: %v", err)
	}
	myLists, _ := svc.ListsOf(ctx, mine.ID)
	if err := svc.DeleteList(ctx, mine.ID, myLists[0].ID); !errors.Is(err, access.ErrDefaultList) {
		t.Fatalf("deleting the default list: %v", err)
	}
	trips, err := svc.CreateList(ctx, mine.ID, "  Road   trips ")
	if err != nil || trips.Name != "Road trips" {
		t.Fatalf("CreateList = %+v, %v", trips, err)
	}
	if _, err := svc.CreateList(ctx, mine.ID, " "); err == nil {
		t.Fatal("a list without a name was created")
	}
	if _, err := svc.AddToList(ctx, mine.ID, trips.ID, catalog.KindCar, car.UUID, "note"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddToList(ctx, mine.ID, trips.ID, catalog.KindCar, uuid.New(), ""); !errors.Is(err, access.ErrUnknownRecord) {
		t.Fatalf("adding a record not in the catalog: %v", err)
	}
	if err := svc.RemoveFromList(ctx, theirs.ID, trips.ID, catalog.KindCar, car.UUID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("removing from another account's list: %v", err)
	}
	if err := svc.RemoveFromList(ctx, mine.ID, trips.ID, catalog.KindCar, car.UUID); err != nil {
		t.Fatal(err)
	}
	if err := svc.DeleteList(ctx, mine.ID, trips.ID); err != nil {
		t.Fatal(err)
	}
}

func TestSignUpThrottle(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	access.SetSignUpLimits(svc, 2, 3)
	now := time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)
	access.SetClock(svc, func() time.Time { return now })
	signUp := func(email, client string) error {
		_, err := svc.SignUp(ctx, email, "correct horse battery", client)
		return err
	}
	throttled := func(err error, want time.Duration) bool {
		var te *access.ThrottledError
		return errors.As(err, &te) && errors.Is(err, access.ErrTooManySignUps) && te.RetryAfter == want
	}
	for _, email := range []string{"a1@example.com", "a2@example.com"} {
		if err := signUp(email, "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := signUp("a3@example.com", "192.0.2.1"); !throttled(err, 30*time.Minute) {
		t.Fatalf("a third sign-up from one address: %v, want a ThrottledError retrying in 30m", err)
	}
	if _, err := svc.Account(ctx, "a3@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the throttled sign-up made an account: %v", err)
	}
	// Another address has its own count, but all addresses share the total.
	if err := signUp("b1@example.com", "198.51.100.7"); err != nil {
		t.Fatal(err)
	}
	if err := signUp("b2@example.com", "198.51.100.7"); !throttled(err, 30*time.Minute) {
		t.Fatalf("a fourth sign-up in all: %v, want a ThrottledError", err)
	}
	// The next hour starts both counts over.
	now = now.Add(30 * time.Minute)
	if err := signUp("a3@example.com", "192.0.2.1"); err != nil {
		t.Fatalf("in the next hour: %v", err)
	}
}

// Every value from outside that reaches the store is checked here, once,
// for the dashboard and the command line alike.
func TestTextNoPersonTypesIsRefused(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	a, err := svc.CreateAccount(ctx, "text@example.com", "free")
	if err != nil {
		t.Fatal(err)
	}
	def, err := svc.ListsOf(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	const bad = "x\x00y"
	for name, call := range map[string]func() error{
		"email":      func() error { _, err := svc.CreateAccount(ctx, "a\u0085@example.com", "free"); return err },
		"token name": func() error { _, _, err := svc.CreateAccountToken(ctx, a.ID, bad); return err },
		"token id":   func() error { _, err := svc.RevokeToken(ctx, bad); return err },
		"rotate id":  func() error { _, _, err := svc.RotateAccountToken(ctx, a.ID, bad); return err },
		"list name":  func() error { _, err := svc.CreateList(ctx, a.ID, bad); return err },
		"list id":    func() error { return svc.DeleteList(ctx, a.ID, bad) },
		"note": func() error {
			_, err := svc.AddToList(ctx, a.ID, def[0].ID, catalog.KindCar, uuid.New(), bad)
			return err
		},
		"invalid utf": func() error { _, err := svc.CreateList(ctx, a.ID, "x\xffy"); return err },
	} {
		var te *textcheck.Error
		if err := call(); !errors.As(err, &te) {
			t.Errorf("%s: %v, want a textcheck error", name, err)
		}
	}
}

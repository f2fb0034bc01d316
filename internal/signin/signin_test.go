package signin_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/signin"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

var ann = netip.MustParseAddr("192.0.2.1")

func newService(st store.Store) (*signin.Service, *access.Service) {
	cfg := &config.Config{Plans: maps.Clone(config.DefaultPlans)}
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	return signin.New(st, acc), acc
}

func TestPasswordHash(t *testing.T) {
	t.Parallel()
	h := signin.HashPassword("correct horse battery")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not an argon2id PHC string with the default parameters", h)
	}
	if h2 := signin.HashPassword("correct horse battery"); h2 == h {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for pw, want := range map[string]bool{"correct horse battery": true, "correct horse batterY": false, "": false} {
		ok, err := signin.VerifyPassword(h, pw)
		if err != nil || ok != want {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	// Unreadable or tampered hashes are errors, never matches, and
	// absurd costs are refused before any work.
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
		"$argon2id$v=19$m=999999999,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=19456,t=2,p=1$!!$aGFzaA", "$argon2id$v=18$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"} {
		if ok, err := signin.VerifyPassword(bad, "x"); ok || err == nil {
			t.Errorf("VerifyPassword(%q) = %v, %v; want an error", bad, ok, err)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	t.Parallel()
	for pw, ok := range map[string]bool{
		"short": false, "ninechars": false, "tencharsok": true, "          ": false,
		"ääääääääää": true, strings.Repeat("x", signin.MaxPasswordLen): true, strings.Repeat("x", signin.MaxPasswordLen+1): false,
	} {
		if err := signin.CheckPassword(pw); (err == nil) != ok {
			t.Errorf("CheckPassword(%q) = %v, want ok=%v", pw, err, ok)
		}
	}
}

func TestSignUpAndSignIn(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, acc := newService(st)
		a, err := svc.SignUp(ctx, "Ann@Example.com", "correct horse battery", ann)
		if err != nil || a.Plan != signin.FreePlan || a.Email != "ann@example.com" {
			t.Fatalf("SignUp = %+v, %v", a, err)
		}
		if _, err := svc.SignUp(ctx, "ann@example.com", "correct horse battery", ann); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("second sign-up: %v, want ErrConflict", err)
		}
		if _, err := svc.SignUp(ctx, "bob@example.com", "short", ann); !errors.Is(err, signin.ErrWeakPassword) {
			t.Fatalf("weak password: %v, want ErrWeakPassword", err)
		}
		got, err := svc.SignIn(ctx, " ANN@example.com ", "correct horse battery")
		if err != nil || got.ID != a.ID {
			t.Fatalf("SignIn = %+v, %v", got, err)
		}
		// Wrong password, unknown email, malformed email, account without a
		// password: one error.
		if _, err := acc.CreateAccount(ctx, "op@example.com", "pro"); err != nil {
			t.Fatal(err)
		}
		for _, email := range []string{"ann@example.com", "nobody@example.com", "not an email", "op@example.com"} {
			if _, err := svc.SignIn(ctx, email, "wrong password"); !errors.Is(err, signin.ErrInvalidCredentials) {
				t.Errorf("SignIn(%q, wrong) = %v, want ErrInvalidCredentials", email, err)
			}
		}
	})
}

func TestSignInThrottle(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, _ := newService(st)
		if _, err := svc.SignUp(ctx, "ann@example.com", "correct horse battery", ann); err != nil {
			t.Fatal(err)
		}
		// A success clears the count, so a user who mistypes now and then is
		// never locked out.
		for range signin.MaxFailedSignIns - 1 {
			if _, err := svc.SignIn(ctx, "ann@example.com", "typo typo typo"); !errors.Is(err, signin.ErrInvalidCredentials) {
				t.Fatal(err)
			}
		}
		if _, err := svc.SignIn(ctx, "ann@example.com", "correct horse battery"); err != nil {
			t.Fatalf("sign-in after %d failures: %v", signin.MaxFailedSignIns-1, err)
		}
		for _, email := range []string{"ann@example.com", "ghost@example.com"} {
			for range signin.MaxFailedSignIns {
				if _, err := svc.SignIn(ctx, email, "guess guess guess"); !errors.Is(err, signin.ErrInvalidCredentials) {
					t.Fatal(err)
				}
			}
			var te *signin.ThrottledError
			if _, err := svc.SignIn(ctx, email, "correct horse battery"); !errors.As(err, &te) || !errors.Is(err, signin.ErrTooManyAttempts) ||
				te.RetryAfter <= 0 || te.RetryAfter > signin.SignInWindow {
				t.Fatalf("%s after %d failures: %v, want a ThrottledError", email, signin.MaxFailedSignIns, err)
			}
		}
		// The key is the email as typed, case and spaces aside; the table
		// holds no address.
		if _, err := svc.SignIn(ctx, "  GHOST@example.com", "x"); !errors.Is(err, signin.ErrTooManyAttempts) {
			t.Fatalf("throttle dodged by case: %v", err)
		}
		if n, _, _ := st.FailedSignIns(ctx, "ghost@example.com", time.Time{}); n != 0 {
			t.Fatal("the throttle stores emails in clear")
		}
	})
}

// TestSignInConcurrentGuesses: a burst of parallel guesses gets at most
// MaxFailedSignIns checked; the rest are refused without a check.
func TestSignInConcurrentGuesses(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, _ := newService(st)
		if _, err := svc.SignUp(ctx, "ann@example.com", "correct horse battery", ann); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		checked := 0
		var wg sync.WaitGroup
		for range 12 {
			wg.Go(func() {
				_, err := svc.SignIn(ctx, "ann@example.com", "guess guess guess")
				if errors.Is(err, signin.ErrInvalidCredentials) {
					mu.Lock()
					checked++
					mu.Unlock()
				} else if !errors.Is(err, signin.ErrTooManyAttempts) {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if checked > signin.MaxFailedSignIns {
			t.Fatalf("%d parallel guesses were checked, want at most %d", checked, signin.MaxFailedSignIns)
		}
	})
}

func TestSessionLifecycle(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, _ := newService(st)
		a, err := svc.SignUp(ctx, "ann@example.com", "correct horse battery", ann)
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
			if _, _, err := svc.Session(ctx, bad); !errors.Is(err, signin.ErrNoSession) {
				t.Errorf("Session(%q) = %v, want ErrNoSession", bad, err)
			}
		}
		// A session that has expired is refused and deleted.
		old, _, err := svc.StartSession(ctx, a.ID, -time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Session(ctx, old); !errors.Is(err, signin.ErrNoSession) {
			t.Fatalf("expired session: %v", err)
		}
		if _, err := st.SessionByHash(ctx, account.HashSecret(old)); !errors.Is(err, store.ErrNotFound) {
			t.Fatal("an expired session stayed in the store")
		}
		if err := svc.EndSession(ctx, secret); err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Session(ctx, secret); !errors.Is(err, signin.ErrNoSession) {
			t.Fatalf("ended session: %v", err)
		}
		if err := svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		// A new password ends every session.
		s1, _, _ := svc.StartSession(ctx, a.ID, time.Hour)
		if err := svc.SetPassword(ctx, a.ID, "a brand new password"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Session(ctx, s1); !errors.Is(err, signin.ErrNoSession) {
			t.Fatalf("session after a password change: %v", err)
		}
		if _, err := svc.SignIn(ctx, "ann@example.com", "a brand new password"); err != nil {
			t.Fatalf("sign-in with the new password: %v", err)
		}
		if err := svc.SetPassword(ctx, "acc_nobody", "a brand new password"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("SetPassword of an unknown account: %v", err)
		}
	})
}

// TestSignUpThrottle: an address, its network and everyone have their own
// count per clock hour, and an attempt refused by a narrower count takes
// nothing from the wider ones, so one network cannot close sign-up.
func TestSignUpThrottle(t *testing.T) {
	t.Parallel()
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		svc, acc := newService(st)
		signin.SetSignUpLimits(svc, 2, 3, 6)
		now := time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)
		signin.SetClock(svc, func() time.Time { return now })
		for i, step := range []struct {
			client string
			ok     bool
		}{
			{"192.0.2.1", true}, {"192.0.2.1", true},
			{"192.0.2.1", false},                                 // the address is full
			{"192.0.2.200", true}, {"::ffff:192.0.2.201", false}, // the /24 is full
			{"2001:db8:1:1::1", true}, {"2001:db8:1:1::2", true},
			{"2001:db8:1:1:ffff::9", false}, // the same /64 is one address
			{"2001:db8:1:2::1", true},
			{"2001:db8:1:3::1", false}, // the /48 is full
			{"198.51.100.7", false},    // 6 admitted in all
		} {
			email := fmt.Sprintf("u%d@example.com", i)
			_, err := svc.SignUp(ctx, email, "correct horse battery", netip.MustParseAddr(step.client))
			var te *signin.ThrottledError
			switch {
			case step.ok && err != nil:
				t.Fatalf("sign-up %d from %s: %v", i, step.client, err)
			case !step.ok && !(errors.As(err, &te) && errors.Is(err, signin.ErrTooManySignUps) && te.RetryAfter == 30*time.Minute):
				t.Fatalf("sign-up %d from %s: %v, want a ThrottledError retrying in 30m", i, step.client, err)
			case !step.ok:
				if _, err := acc.Account(ctx, email); !errors.Is(err, store.ErrNotFound) {
					t.Fatalf("the throttled sign-up %d made an account: %v", i, err)
				}
			}
		}
		// The next hour starts every count over; an unknown address has a count of its own.
		now = now.Add(30 * time.Minute)
		for i, client := range []netip.Addr{netip.MustParseAddr("192.0.2.1"), {}} {
			if _, err := svc.SignUp(ctx, fmt.Sprintf("next-%d@example.com", i), "correct horse battery", client); err != nil {
				t.Fatalf("in the next hour, from %v: %v", client, err)
			}
		}
	})
}

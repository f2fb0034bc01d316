package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
)

// testTokenGrace: a rotation with a grace period leaves the old token valid
// until its revoked_at; revoking it ends the grace early, once.
func testTokenGrace(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "grace@example.com")
	old, secret := newToken(a.ID, "ci")
	must(t, s.CreateToken(ctx, old, 50), "CreateToken")
	now := time.Now().UTC().Truncate(time.Second)
	until := now.Add(time.Hour)
	next, _ := newToken(a.ID, "ci")
	must(t, s.RotateToken(ctx, old.ID, next, until), "RotateToken with a grace")
	got, err := s.TokenByHash(ctx, account.HashSecret(secret))
	must(t, err, "TokenByHash")
	if got.Active() || !got.ValidAt(now) || got.ValidAt(until) || !got.RevokedAt.Equal(until) {
		t.Fatalf("old token in its grace: revoked_at %v, want %v (valid before, not at it)", got.RevokedAt, until)
	}
	// It was rotated already: a second rotation is refused.
	again, _ := newToken(a.ID, "ci")
	if err := s.RotateToken(ctx, old.ID, again, now); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("rotating a token in its grace: err = %v, want ErrNotFound", err)
	}
	// Revoking ends the grace now; a second revocation finds nothing to do.
	must(t, s.RevokeToken(ctx, old.ID, now), "RevokeToken in the grace")
	got, err = s.TokenByID(ctx, old.ID)
	must(t, err, "TokenByID")
	if got.ValidAt(now) || !got.RevokedAt.Equal(now) {
		t.Fatalf("after revoking in the grace: revoked_at %v, want %v", got.RevokedAt, now)
	}
	if err := s.RevokeToken(ctx, old.ID, now.Add(time.Minute)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("revoking a revoked token: err = %v, want ErrNotFound", err)
	}
	// A token in its grace does not count against the cap of active tokens.
	third, _ := newToken(a.ID, "cap")
	must(t, s.RotateToken(ctx, next.ID, third, until), "RotateToken")
	fourth, _ := newToken(a.ID, "within the cap")
	must(t, s.CreateToken(ctx, fourth, 2), "CreateToken with the cap at 2")
}

// testDeleteAccount: deleting an account takes everything that is its own,
// and nothing of another account.
func testDeleteAccount(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "gone@example.com")
	b := newAccount(t, s, "stays@example.com")
	for _, acc := range []account.Account{a, b} {
		tok, _ := newToken(acc.ID, "ci")
		must(t, s.CreateToken(ctx, tok, 50), "CreateToken")
		l, err := s.DefaultList(ctx, acc.ID)
		must(t, err, "DefaultList")
		must(t, s.AddListItem(ctx, l.ID, account.ListItem{Kind: catalog.KindCar, UUID: uuid.New(), AddedAt: time.Now().UTC()}), "AddListItem")
		ss, _ := newSession(acc.ID, time.Now().UTC(), time.Hour)
		must(t, s.CreateSession(ctx, ss), "CreateSession")
		must(t, s.PutFlash(ctx, ss.IDHash, []byte("sealed")), "PutFlash")
		_, err = s.AddUsage(ctx, store.UsageDelta{AccountID: acc.ID, Period: "2026-11", Calls: 2,
			Days: map[store.DayChannel]int64{{Day: "2026-11-22", Channel: "rest"}: 2}})
		must(t, err, "AddUsage")
	}
	must(t, s.DeleteAccount(ctx, a.ID), "DeleteAccount")
	if _, err := s.AccountByID(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted account: err = %v, want ErrNotFound", err)
	}
	for _, c := range []struct {
		acc  account.Account
		want int
	}{{a, 0}, {b, 1}} {
		toks, err := s.Tokens(ctx, c.acc.ID)
		must(t, err, "Tokens")
		lists, err := s.Lists(ctx, c.acc.ID)
		must(t, err, "Lists")
		n, err := s.DeleteAccountSessions(ctx, c.acc.ID)
		must(t, err, "DeleteAccountSessions")
		used, err := s.Usage(ctx, c.acc.ID, "2026-11")
		must(t, err, "Usage")
		days, err := s.DailyUsage(ctx, c.acc.ID, "2026-11-01", "2026-11-30")
		must(t, err, "DailyUsage")
		if len(toks) != c.want || len(lists) != c.want || int(n) != c.want || used != int64(2*c.want) || len(days) != c.want {
			t.Fatalf("%s after deleting %s: %d tokens, %d lists, %d sessions, usage %d, %d days; want %d of each (usage %d)",
				c.acc.Email, a.Email, len(toks), len(lists), n, used, len(days), c.want, 2*c.want)
		}
	}
	// Calls the account made before it went, flushed late, are dropped.
	used, err := s.AddUsage(ctx, store.UsageDelta{AccountID: a.ID, Period: "2026-11", Calls: 1,
		Days: map[store.DayChannel]int64{{Day: "2026-11-23", Channel: "mcp"}: 1}})
	if err != nil || used != 0 {
		t.Fatalf("AddUsage of a deleted account = %d, %v; want 0 and no error", used, err)
	}
	if err := s.DeleteAccount(ctx, a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleting twice: err = %v, want ErrNotFound", err)
	}
}

// testFlash: a session's one-time message is read once, replaced by a newer
// one, and goes with its session.
func testFlash(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "flash@example.com")
	ss, _ := newSession(a.ID, time.Now().UTC(), time.Hour)
	must(t, s.CreateSession(ctx, ss), "CreateSession")
	if _, err := s.TakeFlash(ctx, ss.IDHash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("TakeFlash before any: err = %v, want ErrNotFound", err)
	}
	must(t, s.PutFlash(ctx, ss.IDHash, []byte("first")), "PutFlash")
	must(t, s.PutFlash(ctx, ss.IDHash, []byte{0, 1, 0xff}), "PutFlash again")
	got, err := s.TakeFlash(ctx, ss.IDHash)
	must(t, err, "TakeFlash")
	if !bytes.Equal(got, []byte{0, 1, 0xff}) {
		t.Fatalf("TakeFlash = %v, want the newer body", got)
	}
	if _, err := s.TakeFlash(ctx, ss.IDHash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("TakeFlash twice: err = %v, want ErrNotFound", err)
	}
	must(t, s.PutFlash(ctx, ss.IDHash, []byte("left")), "PutFlash")
	must(t, s.DeleteSession(ctx, ss.IDHash), "DeleteSession")
	if _, err := s.TakeFlash(ctx, ss.IDHash); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("flash of a deleted session: err = %v, want ErrNotFound", err)
	}
}

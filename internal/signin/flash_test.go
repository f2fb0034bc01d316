package signin_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// A flash is read once, by its own session only, and the database holds it
// sealed: the secret it carries is not in the stored bytes.
func TestFlash(t *testing.T) {
	t.Parallel()
	st := storetest.Empty(t, "sqlite")
	svc, acc := newService(st)
	ctx := context.Background()
	a, err := acc.CreateAccount(ctx, "flash@example.com", "free")
	if err != nil {
		t.Fatal(err)
	}
	mine, _, err := svc.StartSession(ctx, a.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	theirs, _, err := svc.StartSession(ctx, a.ID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"secret":"vds_abcdefghijklmnopqrstuvwxyz234567"}`)
	if err := svc.PutFlash(ctx, mine, body); err != nil {
		t.Fatal(err)
	}
	if got, err := svc.TakeFlash(ctx, theirs); err != nil || got != nil {
		t.Fatalf("another session's flash = %q, %v; want none", got, err)
	}
	sealed, err := st.TakeFlash(ctx, account.HashSecret(mine))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("vds_abcdefghij")) || len(sealed) <= len(body) {
		t.Fatalf("the stored flash is not sealed: %q", sealed)
	}
	// Put it back as stored: the session reads it, once.
	if err := st.PutFlash(ctx, account.HashSecret(mine), sealed); err != nil {
		t.Fatal(err)
	}
	got, err := svc.TakeFlash(ctx, mine)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("TakeFlash = %q, %v; want %q", got, err, body)
	}
	if got, err := svc.TakeFlash(ctx, mine); err != nil || got != nil {
		t.Fatalf("second TakeFlash = %q, %v; want none", got, err)
	}
	// Sealed for one session, it does not open for another.
	if err := st.PutFlash(ctx, account.HashSecret(theirs), sealed); err != nil {
		t.Fatal(err)
	}
	if got, err := svc.TakeFlash(ctx, theirs); err == nil || got != nil {
		t.Fatalf("a flash moved to another session opened: %q, %v", got, err)
	}
}

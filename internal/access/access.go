// Package access manages who may use the API: accounts and their plans,
// API tokens, and the saved lists that belong to an account. Operator
// commands, and later the HTTP server and dashboard, go through it.
package access

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
)

// ErrUnknownPlan is returned for a plan name that is not configured.
var ErrUnknownPlan = errors.New("unknown plan")

// ErrUnknownRecord is returned when a list item names no catalog record.
var ErrUnknownRecord = errors.New("no such record in the catalog")

// Service implements account, token and list operations.
type Service struct {
	st    store.Store
	plans func(name string) (account.Plan, bool)
	names []string
	now   func() time.Time
}

// New returns a Service. plans resolves plan names; names lists them for messages.
func New(st store.Store, plans func(string) (account.Plan, bool), names []string) *Service {
	return &Service{st: st, plans: plans, names: names, now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }}
}

func (s *Service) checkPlan(plan string) error {
	if _, ok := s.plans(plan); !ok {
		return fmt.Errorf("%w %q: configured plans are %s", ErrUnknownPlan, plan, strings.Join(s.names, ", "))
	}
	return nil
}

// CreateAccount creates an account on plan, with its default list.
func (s *Service) CreateAccount(ctx context.Context, email, plan string) (account.Account, error) {
	email, err := account.NormalizeEmail(email)
	if err != nil {
		return account.Account{}, err
	}
	if err := s.checkPlan(plan); err != nil {
		return account.Account{}, err
	}
	a := account.Account{ID: account.NewID("acc"), Email: email, Plan: plan, CreatedAt: s.now()}
	if err := s.st.CreateAccount(ctx, a); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return account.Account{}, fmt.Errorf("an account with email %s already exists: %w", email, store.ErrConflict)
		}
		return account.Account{}, err
	}
	return a, nil
}

// Account finds an account by email.
func (s *Service) Account(ctx context.Context, email string) (account.Account, error) {
	norm, err := account.NormalizeEmail(email)
	if err != nil {
		return account.Account{}, err
	}
	a, err := s.st.AccountByEmail(ctx, norm)
	if errors.Is(err, store.ErrNotFound) {
		return a, fmt.Errorf("no account with email %s: %w", norm, store.ErrNotFound)
	}
	return a, err
}

// Accounts lists every account.
func (s *Service) Accounts(ctx context.Context) ([]account.Account, error) {
	return s.st.ListAccounts(ctx)
}

// SetPlan moves an account to another plan.
func (s *Service) SetPlan(ctx context.Context, email, plan string) (account.Account, error) {
	if err := s.checkPlan(plan); err != nil {
		return account.Account{}, err
	}
	a, err := s.Account(ctx, email)
	if err != nil {
		return a, err
	}
	if err := s.st.SetPlan(ctx, a.ID, plan); err != nil {
		return a, err
	}
	a.Plan = plan
	return a, nil
}

// SetSuspended suspends or reinstates an account. Its tokens stay valid but
// are refused while it is suspended.
func (s *Service) SetSuspended(ctx context.Context, email string, suspended bool) (account.Account, error) {
	a, err := s.Account(ctx, email)
	if err != nil {
		return a, err
	}
	if err := s.st.SetSuspended(ctx, a.ID, suspended); err != nil {
		return a, err
	}
	a.Suspended = suspended
	return a, nil
}

// MaxTokenName bounds a token's name.
const MaxTokenName = 100

func (s *Service) newToken(accountID, name string) (account.Token, string, error) {
	name = strings.TrimSpace(name)
	if len(name) > MaxTokenName {
		return account.Token{}, "", fmt.Errorf("token name is longer than %d characters", MaxTokenName)
	}
	secret, hash, prefix := account.NewSecret()
	return account.Token{ID: account.NewID("tok"), AccountID: accountID, Name: name, Prefix: prefix, Hash: hash,
		Scopes: []string{account.ScopeRead}, CreatedAt: s.now()}, secret, nil
}

// CreateToken issues a token for the account. The secret is returned once
// and never stored.
func (s *Service) CreateToken(ctx context.Context, email, name string) (account.Token, string, error) {
	a, err := s.Account(ctx, email)
	if err != nil {
		return account.Token{}, "", err
	}
	t, secret, err := s.newToken(a.ID, name)
	if err != nil {
		return t, "", err
	}
	return t, secret, s.st.CreateToken(ctx, t)
}

// Tokens lists the account's tokens, revoked ones included.
func (s *Service) Tokens(ctx context.Context, email string) ([]account.Token, error) {
	a, err := s.Account(ctx, email)
	if err != nil {
		return nil, err
	}
	return s.st.Tokens(ctx, a.ID)
}

// activeToken loads a token and checks it can be rotated or revoked.
func (s *Service) activeToken(ctx context.Context, id string) (account.Token, error) {
	t, err := s.st.TokenByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return t, fmt.Errorf("no token with id %s: %w", id, store.ErrNotFound)
	}
	if err != nil {
		return t, err
	}
	if !t.Active() {
		return t, fmt.Errorf("token %s was revoked at %s: %w", id, t.RevokedAt.Format(time.RFC3339), store.ErrNotFound)
	}
	return t, nil
}

// RotateToken issues a new token with the old one's name and revokes the
// old one in the same transaction.
func (s *Service) RotateToken(ctx context.Context, id string) (account.Token, string, error) {
	old, err := s.activeToken(ctx, id)
	if err != nil {
		return account.Token{}, "", err
	}
	t, secret, err := s.newToken(old.AccountID, old.Name)
	if err != nil {
		return t, "", err
	}
	if err := s.st.RotateToken(ctx, id, t, s.now()); err != nil {
		return t, "", err
	}
	return t, secret, nil
}

// RevokeToken revokes a token at once.
func (s *Service) RevokeToken(ctx context.Context, id string) (account.Token, error) {
	t, err := s.activeToken(ctx, id)
	if err != nil {
		return t, err
	}
	at := s.now()
	if err := s.st.RevokeToken(ctx, id, at); err != nil {
		return t, err
	}
	t.RevokedAt = &at
	return t, nil
}

// ListsOf returns an account's lists as stored, without checking whether
// their records are still in the catalog (the server checks its snapshot).
func (s *Service) ListsOf(ctx context.Context, accountID string) ([]account.List, error) {
	return s.st.Lists(ctx, accountID)
}

// Lists returns the account's lists, marking items whose record has left
// the catalog as missing.
func (s *Service) Lists(ctx context.Context, email string) ([]account.List, error) {
	a, err := s.Account(ctx, email)
	if err != nil {
		return nil, err
	}
	lists, err := s.st.Lists(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	for i := range lists {
		for j := range lists[i].Items {
			it := &lists[i].Items[j]
			ok, err := s.st.HasRecord(ctx, it.Kind, it.UUID)
			if err != nil {
				return nil, err
			}
			it.Missing = !ok
		}
	}
	return lists, nil
}

// AddToGarage adds a catalog record to the account's default list. The
// record must exist now; it may disappear later and the item stays.
func (s *Service) AddToGarage(ctx context.Context, email string, kind catalog.Kind, id uuid.UUID, note string) (account.ListItem, error) {
	note = strings.TrimSpace(note)
	if len(note) > account.MaxNoteLen {
		return account.ListItem{}, fmt.Errorf("note is longer than %d characters", account.MaxNoteLen)
	}
	ok, err := s.st.HasRecord(ctx, kind, id)
	if err != nil {
		return account.ListItem{}, err
	}
	if !ok {
		return account.ListItem{}, fmt.Errorf("%s %s: %w", kind, id, ErrUnknownRecord)
	}
	l, err := s.defaultList(ctx, email)
	if err != nil {
		return account.ListItem{}, err
	}
	item := account.ListItem{Kind: kind, UUID: id, Note: note, AddedAt: s.now()}
	return item, s.st.AddListItem(ctx, l.ID, item)
}

// RemoveFromGarage removes a record from the account's default list.
func (s *Service) RemoveFromGarage(ctx context.Context, email string, kind catalog.Kind, id uuid.UUID) error {
	l, err := s.defaultList(ctx, email)
	if err != nil {
		return err
	}
	return s.st.RemoveListItem(ctx, l.ID, kind, id)
}

func (s *Service) defaultList(ctx context.Context, email string) (account.List, error) {
	a, err := s.Account(ctx, email)
	if err != nil {
		return account.List{}, err
	}
	return s.st.DefaultList(ctx, a.ID)
}

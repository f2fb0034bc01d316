// Package access manages who may use the API: accounts and their plans,
// API tokens, the saved lists that belong to an account, and the
// dashboard's passwords, sessions and sign-in throttle. Operator commands,
// the HTTP server and the dashboard go through it.
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
	"github.com/vds-dev/vds/internal/textcheck"
)

// checkText refuses a value with text no person types (textcheck), naming
// the field: PostgreSQL fails on NUL bytes and invalid UTF-8 while SQLite
// stores them, so the check comes before either sees the value.
func checkText(field, v string, check func(string) error) error {
	if err := check(v); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	return nil
}

// ErrNotFound and ErrConflict are the store's sentinels, which the service's
// errors wrap: callers test for them here and need not import the store.
var (
	ErrNotFound = store.ErrNotFound
	ErrConflict = store.ErrConflict
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
	auth  *Authenticator
	// signUpLimits are MaxSignUpsPerAddress and MaxSignUps; tests lower them.
	signUpLimits struct{ perAddress, total int }
}

// Option configures a Service.
type Option func(*Service)

// WithAuthenticator makes the Service evict a token from auth's cache when
// it revokes or rotates it, so the server that did it refuses the token on
// the very next call instead of after the cache's TTL.
func WithAuthenticator(auth *Authenticator) Option {
	return func(s *Service) { s.auth = auth }
}

// New returns a Service. plans resolves plan names; names lists them for messages.
func New(st store.Store, plans func(string) (account.Plan, bool), names []string, opts ...Option) *Service {
	s := &Service{st: st, plans: plans, names: names, now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }}
	s.signUpLimits.perAddress, s.signUpLimits.total = MaxSignUpsPerAddress, MaxSignUps
	for _, o := range opts {
		o(s)
	}
	return s
}

// forget evicts a revoked token from the authenticator's cache, if any.
func (s *Service) forget(t account.Token) {
	if s.auth != nil {
		s.auth.Forget(t.Hash)
	}
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

// Token limits. MaxTokens bounds an account's active tokens (revoked ones
// do not count): plenty for every program and machine a person runs, few
// enough that one account cannot fill the database with them.
const (
	MaxTokenName = 100
	MaxTokens    = 50
)

// ErrTooManyTokens is returned when an account has MaxTokens active tokens.
var ErrTooManyTokens = fmt.Errorf("an account has at most %d active tokens; revoke one first", MaxTokens)

func (s *Service) newToken(accountID, name string) (account.Token, string, error) {
	if err := checkText("token name", name, textcheck.Line); err != nil {
		return account.Token{}, "", err
	}
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
	return s.CreateAccountToken(ctx, a.ID, name)
}

// CreateAccountToken issues a token for the account with that id (the
// dashboard knows its account by id). The secret is returned once.
func (s *Service) CreateAccountToken(ctx context.Context, accountID, name string) (account.Token, string, error) {
	t, secret, err := s.newToken(accountID, name)
	if err != nil {
		return t, "", err
	}
	if err := s.st.CreateToken(ctx, t, MaxTokens); err != nil {
		if errors.Is(err, store.ErrLimit) {
			return account.Token{}, "", ErrTooManyTokens
		}
		return account.Token{}, "", err
	}
	return t, secret, nil
}

// AccountTokens lists the tokens of the account with that id, newest first.
func (s *Service) AccountTokens(ctx context.Context, accountID string) ([]account.Token, error) {
	return s.st.Tokens(ctx, accountID)
}

// ownToken checks that the token belongs to the account: another
// account's token is reported as not found, exactly like a missing one, so
// ids cannot be probed from the dashboard.
func (s *Service) ownToken(ctx context.Context, accountID, id string) error {
	t, err := s.tokenByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && t.AccountID != accountID {
		return fmt.Errorf("no token with id %s: %w", id, store.ErrNotFound)
	}
	return err
}

// RotateAccountToken rotates one of the account's own tokens.
func (s *Service) RotateAccountToken(ctx context.Context, accountID, id string) (account.Token, string, error) {
	if err := s.ownToken(ctx, accountID, id); err != nil {
		return account.Token{}, "", err
	}
	return s.RotateToken(ctx, id)
}

// RevokeAccountToken revokes one of the account's own tokens.
func (s *Service) RevokeAccountToken(ctx context.Context, accountID, id string) (account.Token, error) {
	if err := s.ownToken(ctx, accountID, id); err != nil {
		return account.Token{}, err
	}
	return s.RevokeToken(ctx, id)
}

// Tokens lists the account's tokens, revoked ones included.
func (s *Service) Tokens(ctx context.Context, email string) ([]account.Token, error) {
	a, err := s.Account(ctx, email)
	if err != nil {
		return nil, err
	}
	return s.st.Tokens(ctx, a.ID)
}

// tokenByID reads a token by an id from outside (a form, a path, an
// argument).
func (s *Service) tokenByID(ctx context.Context, id string) (account.Token, error) {
	if err := checkText("token id", id, textcheck.Line); err != nil {
		return account.Token{}, err
	}
	return s.st.TokenByID(ctx, id)
}

// activeToken loads a token and checks it can be rotated or revoked.
func (s *Service) activeToken(ctx context.Context, id string) (account.Token, error) {
	t, err := s.tokenByID(ctx, id)
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
	s.forget(old)
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
	s.forget(t)
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
	l, err := s.defaultList(ctx, email)
	if err != nil {
		return account.ListItem{}, err
	}
	return s.AddToList(ctx, l.AccountID, l.ID, kind, id, note)
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
	l, err := s.st.DefaultList(ctx, a.ID)
	l.AccountID = a.ID
	return l, err
}

// List limits: enough for any person's garage, few enough that one
// account cannot grow the database without bound. MaxLists counts the
// default list.
const (
	MaxListName = 100
	MaxLists    = 50
)

// Errors of list operations, worded for the person who caused them.
var (
	// ErrDefaultList is returned when asked to delete the default list.
	ErrDefaultList = errors.New("the default list cannot be deleted")
	// ErrListName is returned for an empty or overlong list name.
	ErrListName = fmt.Errorf("a list name has 1 to %d characters", MaxListName)
	// ErrTooManyLists is returned when an account has MaxLists already.
	ErrTooManyLists = fmt.Errorf("an account has at most %d lists; delete one first", MaxLists)
	// ErrNoteTooLong is returned for a note over account.MaxNoteLen bytes.
	ErrNoteTooLong = fmt.Errorf("note is longer than %d characters", account.MaxNoteLen)
)

// List returns one of the account's lists without items. Another
// account's list is ErrNotFound, like a missing one.
func (s *Service) List(ctx context.Context, accountID, listID string) (account.List, error) {
	if err := checkText("list id", listID, textcheck.Line); err != nil {
		return account.List{}, err
	}
	l, err := s.st.ListByID(ctx, accountID, listID)
	if errors.Is(err, store.ErrNotFound) {
		return l, fmt.Errorf("no list with id %s: %w", listID, store.ErrNotFound)
	}
	return l, err
}

// CreateList adds a named list to the account; names are unique per account.
func (s *Service) CreateList(ctx context.Context, accountID, name string) (account.List, error) {
	if err := checkText("list name", name, textcheck.Line); err != nil {
		return account.List{}, err
	}
	name = strings.Join(strings.Fields(name), " ")
	if name == "" || len(name) > MaxListName {
		return account.List{}, ErrListName
	}
	l := account.List{ID: account.NewID("lst"), AccountID: accountID, Name: name, CreatedAt: s.now(), Items: []account.ListItem{}}
	if err := s.st.CreateList(ctx, l, MaxLists); err != nil {
		if errors.Is(err, store.ErrLimit) {
			return account.List{}, ErrTooManyLists
		}
		return account.List{}, err
	}
	return l, nil
}

// DeleteList deletes one of the account's lists with its items; the
// default list stays (ErrDefaultList).
func (s *Service) DeleteList(ctx context.Context, accountID, listID string) error {
	l, err := s.List(ctx, accountID, listID)
	if err != nil {
		return err
	}
	if l.IsDefault {
		return ErrDefaultList
	}
	return s.st.DeleteList(ctx, accountID, listID)
}

// AddToList adds a catalog record to one of the account's lists. The
// record must exist now; it may disappear later and the item stays.
func (s *Service) AddToList(ctx context.Context, accountID, listID string, kind catalog.Kind, id uuid.UUID, note string) (account.ListItem, error) {
	if err := checkText("note", note, textcheck.Multiline); err != nil {
		return account.ListItem{}, err
	}
	note = strings.TrimSpace(note)
	if len(note) > account.MaxNoteLen {
		return account.ListItem{}, ErrNoteTooLong
	}
	if _, err := s.List(ctx, accountID, listID); err != nil {
		return account.ListItem{}, err
	}
	ok, err := s.st.HasRecord(ctx, kind, id)
	if err != nil {
		return account.ListItem{}, err
	}
	if !ok {
		return account.ListItem{}, fmt.Errorf("%s %s: %w", kind, id, ErrUnknownRecord)
	}
	item := account.ListItem{Kind: kind, UUID: id, Note: note, AddedAt: s.now()}
	return item, s.st.AddListItem(ctx, listID, item)
}

// RemoveFromList removes a record from one of the account's lists.
func (s *Service) RemoveFromList(ctx context.Context, accountID, listID string, kind catalog.Kind, id uuid.UUID) error {
	if _, err := s.List(ctx, accountID, listID); err != nil {
		return err
	}
	return s.st.RemoveListItem(ctx, listID, kind, id)
}

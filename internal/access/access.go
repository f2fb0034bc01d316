// Package access manages accounts, plans, API tokens and the Authenticator.
// Operations take an account's ID; Account finds it by email.
package access

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/textcheck"
)

// ErrNotFound and ErrConflict are the store's, so callers need not import it.
var (
	ErrNotFound = store.ErrNotFound
	ErrConflict = store.ErrConflict
)

// ErrUnknownPlan is returned for a plan name that is not configured.
var ErrUnknownPlan = errors.New("unknown plan")

// Service implements account and token operations.
type Service struct {
	st    store.Store
	plans func(name string) (account.Plan, bool)
	names []string
	now   func() time.Time
	auth  *Authenticator
}

// Option configures a Service.
type Option func(*Service)

// WithAuthenticator evicts revoked and rotated tokens from auth's cache at once.
func WithAuthenticator(auth *Authenticator) Option {
	return func(s *Service) { s.auth = auth }
}

// New returns a Service. plans resolves plan names; names lists them for messages.
func New(st store.Store, plans func(string) (account.Plan, bool), names []string, opts ...Option) *Service {
	s := &Service{st: st, plans: plans, names: names, now: account.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *Service) forget(t account.Token) {
	if s.auth != nil {
		s.auth.Forget(t.Hash)
	}
}

// CheckPlan refuses a plan name that is not configured (ErrUnknownPlan).
func (s *Service) CheckPlan(plan string) error {
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
	if err := s.CheckPlan(plan); err != nil {
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
func (s *Service) SetPlan(ctx context.Context, accountID, plan string) error {
	if err := s.CheckPlan(plan); err != nil {
		return err
	}
	return s.st.SetPlan(ctx, accountID, plan)
}

// SetSuspended suspends or reinstates an account; suspended, its tokens are refused.
func (s *Service) SetSuspended(ctx context.Context, accountID string, suspended bool) error {
	return s.st.SetSuspended(ctx, accountID, suspended)
}

// DeleteAccount deletes an account with its tokens, lists, sessions and
// usage; other replicas refuse its tokens within the auth cache TTL.
func (s *Service) DeleteAccount(ctx context.Context, accountID string) error {
	tokens, err := s.st.Tokens(ctx, accountID)
	if err != nil {
		return err
	}
	if err := s.st.DeleteAccount(ctx, accountID); err != nil {
		return err
	}
	for _, t := range tokens {
		s.forget(t)
	}
	return nil
}

// MaxTokens bounds an account's active tokens, so none fills the database.
const (
	MaxTokenName = 100
	MaxTokens    = 50
)

// ErrTooManyTokens is returned when an account has MaxTokens active tokens.
var ErrTooManyTokens = fmt.Errorf("an account has at most %d active tokens; revoke one first", MaxTokens)

func (s *Service) newToken(accountID, name string) (account.Token, string, error) {
	if err := textcheck.Field("token name", name, textcheck.Line); err != nil {
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

// CreateToken issues a token; its secret is returned once, never stored.
func (s *Service) CreateToken(ctx context.Context, accountID, name string) (account.Token, string, error) {
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

// Tokens lists the account's tokens, revoked ones included, newest first.
func (s *Service) Tokens(ctx context.Context, accountID string) ([]account.Token, error) {
	return s.st.Tokens(ctx, accountID)
}

// Token finds a token of any account by id, revoked or not.
func (s *Service) Token(ctx context.Context, id string) (account.Token, error) {
	if err := textcheck.Field("token id", id, textcheck.Line); err != nil {
		return account.Token{}, err
	}
	t, err := s.st.TokenByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return t, fmt.Errorf("no token with id %s: %w", id, store.ErrNotFound)
	}
	return t, err
}

// ownToken loads a token of the account; another's is not found, so ids cannot be probed.
func (s *Service) ownToken(ctx context.Context, accountID, id string) (account.Token, error) {
	t, err := s.Token(ctx, id)
	if err == nil && t.AccountID != accountID {
		return account.Token{}, fmt.Errorf("no token with id %s: %w", id, store.ErrNotFound)
	}
	return t, err
}

// RotationGraces are the grace periods a rotation offers: none, an hour, a day.
var RotationGraces = []time.Duration{0, time.Hour, 24 * time.Hour}

// ErrBadGrace refuses a grace period that is not one of RotationGraces.
var ErrBadGrace = errors.New("the grace period is none, 1h or 24h")

// ParseGrace reads a grace period as people write it: none (or 0), 1h, 24h.
func ParseGrace(s string) (time.Duration, error) {
	if s == "none" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || !slices.Contains(RotationGraces, d) {
		return 0, fmt.Errorf("%w, not %q", ErrBadGrace, s)
	}
	return d, nil
}

// Rotation is the outcome of RotateToken.
type Rotation struct {
	// Old is the rotated token; its RevokedAt is when it stops working.
	Old account.Token
	// New replaces it, with the same name; Secret is shown once.
	New    account.Token
	Secret string
}

// RotateToken replaces an active token with a new one of the same name;
// the old one keeps working for grace (one of RotationGraces).
func (s *Service) RotateToken(ctx context.Context, accountID, id string, grace time.Duration) (Rotation, error) {
	if !slices.Contains(RotationGraces, grace) {
		return Rotation{}, ErrBadGrace
	}
	old, err := s.ownToken(ctx, accountID, id)
	if err != nil {
		return Rotation{}, err
	}
	if !old.Active() {
		return Rotation{}, fmt.Errorf("token %s was revoked or rotated already: %w", id, store.ErrNotFound)
	}
	t, secret, err := s.newToken(old.AccountID, old.Name)
	if err != nil {
		return Rotation{}, err
	}
	until := s.now().Add(grace)
	if err := s.st.RotateToken(ctx, id, t, until); err != nil {
		return Rotation{}, err
	}
	s.forget(old)
	old.RevokedAt = &until
	return Rotation{Old: old, New: t, Secret: secret}, nil
}

// RevokeToken revokes one of the account's tokens at once, grace or not.
func (s *Service) RevokeToken(ctx context.Context, accountID, id string) (account.Token, error) {
	t, err := s.ownToken(ctx, accountID, id)
	if err != nil {
		return t, err
	}
	at := s.now()
	if !t.ValidAt(at) {
		return t, fmt.Errorf("token %s was revoked at %s: %w", id, t.RevokedAt.Format(time.RFC3339), store.ErrNotFound)
	}
	if err := s.st.RevokeToken(ctx, id, at); err != nil {
		return t, err
	}
	s.forget(t)
	t.RevokedAt = &at
	return t, nil
}

// Package signin is the dashboard's way in: sign-up and sign-in with an
// argon2id password, their throttles, and sessions.
package signin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
)

// Service signs people up and in, and keeps their sessions.
type Service struct {
	st           store.Store
	acc          *access.Service
	now          func() time.Time
	signUpLimits struct{ perAddress, perNetwork, total int }
}

// New returns a Service on st that creates accounts through acc.
func New(st store.Store, acc *access.Service) *Service {
	s := &Service{st: st, acc: acc, now: account.Now}
	s.signUpLimits.perAddress, s.signUpLimits.perNetwork, s.signUpLimits.total = MaxSignUpsPerAddress, MaxSignUpsPerNetwork, MaxSignUps
	return s
}

// Sign-in throttle (docs/dashboard.md), per email whether or not it exists; not per
// client address, which behind a proxy is everybody's, so one could lock all out.
const (
	MaxFailedSignIns = 5
	SignInWindow     = 15 * time.Minute
)

// Sign-up throttle per clock hour; taken emails count. An address is an
// IPv4 address or an IPv6 /64, a network an IPv4 /24 or an IPv6 /48. The
// total is a last resort, high enough that no one network can reach it.
const (
	MaxSignUpsPerAddress = 5
	MaxSignUpsPerNetwork = 20
	MaxSignUps           = 1000
	SignUpWindow         = time.Hour
)

// FreePlan is the plan sign-up puts new accounts on.
const FreePlan = "free"

// ErrInvalidCredentials answers a wrong email and a wrong password alike.
// A ThrottledError wraps ErrTooManyAttempts or ErrTooManySignUps.
var (
	ErrInvalidCredentials = errors.New("the email address or password is incorrect")
	ErrTooManyAttempts    = errors.New("too many failed sign-ins")
	ErrTooManySignUps     = errors.New("too many sign-ups")
	ErrNoSession          = errors.New("no such session, or it has expired")
)

// ThrottledError refuses an attempt until RetryAfter has passed.
type ThrottledError struct {
	RetryAfter time.Duration
	Err        error
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("%v: try again in %s", e.Err, e.RetryAfter.Round(time.Second))
}

func (e *ThrottledError) Unwrap() error { return e.Err }

// throttleKey is hashed: the table holds no addresses and no attacker's text.
func throttleKey(email string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(email))))
	return "email:" + hex.EncodeToString(sum[:])
}

// SignUp creates a free account with a password, or a *ThrottledError past
// the limits; client is the client's address (the zero Addr if unknown).
func (s *Service) SignUp(ctx context.Context, email, password string, client netip.Addr) (account.Account, error) {
	if _, err := account.NormalizeEmail(email); err != nil {
		return account.Account{}, err
	}
	if err := CheckPassword(password); err != nil {
		return account.Account{}, err
	}
	if err := s.throttleSignUp(ctx, client); err != nil {
		return account.Account{}, err
	}
	hash := HashPassword(password) // before any write: no transaction waits on it
	a, err := s.acc.CreateAccount(ctx, email, FreePlan)
	if err != nil {
		return a, err
	}
	if err := s.st.SetPassword(ctx, a.ID, hash); err != nil {
		// An operator can still set one (vds accounts set-password).
		return account.Account{}, fmt.Errorf("set password of new account %s: %w", a.Email, err)
	}
	return a, nil
}

// throttleSignUp counts the attempt against its address, then its network,
// then the total, stopping at the first that is full: a refused attempt
// takes nothing from the wider counts.
func (s *Service) throttleSignUp(ctx context.Context, client netip.Addr) error {
	now := s.now()
	start := now.Truncate(SignUpWindow)
	window := strconv.FormatInt(start.Unix(), 10)
	addr, network := signUpKeys(client)
	for _, c := range []struct {
		key   string
		limit int
	}{
		{"signup:addr:" + addr + ":" + window, s.signUpLimits.perAddress},
		{"signup:net:" + network + ":" + window, s.signUpLimits.perNetwork},
		{"signup:all:" + window, s.signUpLimits.total},
	} {
		n, err := s.st.RecordFailedSignIn(ctx, c.key, now, SignUpWindow)
		if err != nil {
			return err
		}
		if n > c.limit {
			return &ThrottledError{RetryAfter: start.Add(SignUpWindow).Sub(now), Err: ErrTooManySignUps}
		}
	}
	return nil
}

// signUpKeys are the hashed address and network of client: the table holds no addresses.
func signUpKeys(client netip.Addr) (addr, network string) {
	a, n := 32, 24
	if client = client.Unmap(); client.Is6() {
		a, n = 64, 48
	}
	hash := func(bits int) string {
		p, err := client.Prefix(bits)
		if err != nil {
			return "unknown"
		}
		sum := sha256.Sum256([]byte(p.String()))
		return hex.EncodeToString(sum[:16])
	}
	return hash(a), hash(n)
}

// SetPassword sets an account's dashboard password and ends all its sessions.
func (s *Service) SetPassword(ctx context.Context, accountID, password string) error {
	if err := CheckPassword(password); err != nil {
		return err
	}
	if err := s.st.SetPassword(ctx, accountID, HashPassword(password)); err != nil {
		return err
	}
	if _, err := s.st.DeleteAccountSessions(ctx, accountID); err != nil {
		return fmt.Errorf("end the sessions of %s: %w", accountID, err)
	}
	return nil
}

// ChangePassword sets a new password once the current one is verified
// (throttled), and ends all the account's sessions.
func (s *Service) ChangePassword(ctx context.Context, a account.Account, current, next string) error {
	if err := CheckPassword(next); err != nil {
		return err
	}
	if _, err := s.SignIn(ctx, a.Email, current); err != nil {
		return err
	}
	return s.SetPassword(ctx, a.ID, next)
}

// SignIn answers ErrInvalidCredentials after the same work whatever was wrong.
func (s *Service) SignIn(ctx context.Context, email, password string) (account.Account, error) {
	key := throttleKey(email)
	now := s.now()
	n, last, err := s.st.FailedSignIns(ctx, key, now.Add(-SignInWindow))
	if err != nil {
		return account.Account{}, err
	}
	if n >= MaxFailedSignIns {
		return account.Account{}, &ThrottledError{RetryAfter: last.Add(SignInWindow).Sub(now), Err: ErrTooManyAttempts}
	}
	// Counted before checking, so concurrent guesses get MaxFailedSignIns checks.
	n, err = s.st.RecordFailedSignIn(ctx, key, now, SignInWindow)
	if err != nil {
		return account.Account{}, err
	}
	if n > MaxFailedSignIns {
		return account.Account{}, &ThrottledError{RetryAfter: SignInWindow, Err: ErrTooManyAttempts}
	}
	a, hash, err := s.lookupPassword(ctx, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return account.Account{}, err
	}
	ok, verr := VerifyPassword(hash, password)
	if err != nil || verr != nil || !ok {
		return account.Account{}, ErrInvalidCredentials
	}
	if err := s.st.ClearFailedSignIns(ctx, key); err != nil {
		return account.Account{}, err
	}
	return a, nil
}

// lookupPassword returns the dummy hash with ErrNotFound, for the same work.
func (s *Service) lookupPassword(ctx context.Context, email string) (account.Account, string, error) {
	norm, err := account.NormalizeEmail(email)
	if err != nil || len(norm) == 0 {
		return account.Account{}, dummyHash(), store.ErrNotFound
	}
	a, hash, err := s.st.PasswordHash(ctx, norm)
	if err != nil {
		return account.Account{}, dummyHash(), err
	}
	return a, hash, nil
}

// StartSession creates a session for ttl and returns the cookie's secret (never stored).
func (s *Service) StartSession(ctx context.Context, accountID string, ttl time.Duration) (string, account.Session, error) {
	secret, hash := account.NewSessionSecret()
	now := s.now()
	ss := account.Session{IDHash: hash, AccountID: accountID, CSRF: account.NewCSRFToken(), CreatedAt: now, ExpiresAt: now.Add(ttl)}
	if err := s.st.CreateSession(ctx, ss); err != nil {
		return "", account.Session{}, err
	}
	return secret, ss, nil
}

const maxSessionSecret = 100

// Session resolves a cookie's secret to its live session and account, or ErrNoSession.
func (s *Service) Session(ctx context.Context, secret string) (account.Session, account.Account, error) {
	if secret == "" || len(secret) > maxSessionSecret {
		return account.Session{}, account.Account{}, ErrNoSession
	}
	hash := account.HashSecret(secret)
	ss, err := s.st.SessionByHash(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return ss, account.Account{}, ErrNoSession
	}
	if err != nil {
		return ss, account.Account{}, err
	}
	if !s.now().Before(ss.ExpiresAt) {
		if err := s.st.DeleteSession(ctx, hash); err != nil {
			return account.Session{}, account.Account{}, err
		}
		return account.Session{}, account.Account{}, ErrNoSession
	}
	a, err := s.st.AccountByID(ctx, ss.AccountID)
	if errors.Is(err, store.ErrNotFound) {
		return account.Session{}, a, ErrNoSession
	}
	return ss, a, err
}

// EndSession deletes the session of a cookie's secret, if any.
func (s *Service) EndSession(ctx context.Context, secret string) error {
	if secret == "" || len(secret) > maxSessionSecret {
		return nil
	}
	return s.st.DeleteSession(ctx, account.HashSecret(secret))
}

// Sweep deletes expired sessions and stale throttle counts; replicas may run it at once.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.now()
	if _, err := s.st.DeleteExpiredSessions(ctx, now); err != nil {
		return fmt.Errorf("delete expired sessions: %w", err)
	}
	if _, err := s.st.DeleteStaleSignIns(ctx, now.Add(-max(SignInWindow, SignUpWindow))); err != nil {
		return fmt.Errorf("delete stale sign-in counts: %w", err)
	}
	return nil
}

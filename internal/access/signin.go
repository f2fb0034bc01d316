package access

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
)

// Sign-in throttling: after MaxFailedSignIns failures for one email within
// SignInWindow, further attempts for that email are refused until the
// window has passed since the last failure. The count is kept per email
// string, whether or not an account has it, so the refusal says nothing
// about which addresses exist. Counting per client address is left out on
// purpose: behind a reverse proxy every client has the proxy's address, and
// a shared count would let one attacker lock everybody out.
const (
	MaxFailedSignIns = 5
	SignInWindow     = 15 * time.Minute
)

// Sign-up throttling: at most MaxSignUpsPerAddress sign-ups per client
// address and MaxSignUps in all within each SignUpWindow (clock hours, UTC).
// The counts live in the database with the sign-in counts, so replicas
// share them. The per-address count stops one client; the total bounds
// what many addresses together can create. Attempts count whether or not
// the account is created (a taken email counts too), so the throttle also
// slows probing which addresses have accounts.
const (
	MaxSignUpsPerAddress = 5
	MaxSignUps           = 100
	SignUpWindow         = time.Hour
)

// FreePlan is the plan sign-up puts new accounts on.
const FreePlan = "free"

// Errors of the dashboard's account operations.
var (
	// ErrInvalidCredentials is the one answer to a wrong email or password:
	// the dashboard must not tell which.
	ErrInvalidCredentials = errors.New("the email address or password is incorrect")
	// ErrTooManyAttempts is wrapped by a sign-in's ThrottledError.
	ErrTooManyAttempts = errors.New("too many failed sign-ins")
	// ErrTooManySignUps is wrapped by a sign-up's ThrottledError.
	ErrTooManySignUps = errors.New("too many sign-ups")
	// ErrNoSession means a session cookie names no live session.
	ErrNoSession = errors.New("no such session, or it has expired")
)

// ThrottledError refuses a sign-in or sign-up attempt; RetryAfter is when
// the next attempt will be considered.
type ThrottledError struct {
	RetryAfter time.Duration
	// Err says what was throttled: ErrTooManyAttempts or ErrTooManySignUps.
	Err error
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("%v: try again in %s", e.Err, e.RetryAfter.Round(time.Second))
}

// Unwrap makes errors.Is(err, e.Err) hold.
func (e *ThrottledError) Unwrap() error { return e.Err }

// throttleKey is the counter of an email as typed (trimmed, lowercased),
// hashed so that the table holds no addresses and no attacker-chosen text
// of arbitrary length.
func throttleKey(email string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(email))))
	return "email:" + hex.EncodeToString(sum[:])
}

// SignUp creates an account on the free plan with its default list and
// sets its password. client is the address the request came from; past
// the sign-up limits the answer is a *ThrottledError. The password is
// hashed before anything is written, so a slow hash never holds a
// transaction open.
func (s *Service) SignUp(ctx context.Context, email, password, client string) (account.Account, error) {
	if _, err := account.NormalizeEmail(email); err != nil {
		return account.Account{}, err
	}
	if err := CheckPassword(password); err != nil {
		return account.Account{}, err
	}
	if err := s.throttleSignUp(ctx, client); err != nil {
		return account.Account{}, err
	}
	hash := HashPassword(password)
	a, err := s.CreateAccount(ctx, email, FreePlan)
	if err != nil {
		return a, err
	}
	if err := s.st.SetPassword(ctx, a.ID, hash); err != nil {
		// The account exists without a password; an operator can set one
		// (vds accounts set-password), and signing up again says it exists.
		return account.Account{}, fmt.Errorf("set password of new account %s: %w", a.Email, err)
	}
	return a, nil
}

// throttleSignUp counts a sign-up attempt from client in this window's
// counters, per address and in all, and refuses it past either limit.
// The counters are keyed by the window, so each starts over at the hour.
func (s *Service) throttleSignUp(ctx context.Context, client string) error {
	now := s.now()
	start := now.Truncate(SignUpWindow)
	window := strconv.FormatInt(start.Unix(), 10)
	sum := sha256.Sum256([]byte(client))
	for _, c := range []struct {
		key   string
		limit int
	}{
		{"signup:addr:" + hex.EncodeToString(sum[:]) + ":" + window, s.signUpLimits.perAddress},
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

// SetPassword sets an account's dashboard password and ends all its
// sessions, so a password reset also signs out whoever else was in.
func (s *Service) SetPassword(ctx context.Context, email, password string) (account.Account, error) {
	if err := CheckPassword(password); err != nil {
		return account.Account{}, err
	}
	a, err := s.Account(ctx, email)
	if err != nil {
		return a, err
	}
	if err := s.st.SetPassword(ctx, a.ID, HashPassword(password)); err != nil {
		return a, err
	}
	if _, err := s.st.DeleteAccountSessions(ctx, a.ID); err != nil {
		return a, fmt.Errorf("end the sessions of %s: %w", a.Email, err)
	}
	return a, nil
}

// SignIn checks an email and password. It answers ErrInvalidCredentials
// for an unknown email, an account without a password and a wrong password
// alike, after the same amount of work (a dummy hash is verified when there
// is no real one), and a *ThrottledError once the email has failed
// MaxFailedSignIns times within SignInWindow.
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
	// Count the attempt before checking it: concurrent guesses then each
	// get their own number, and only the first MaxFailedSignIns are checked.
	// A success clears the count.
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

// lookupPassword returns the account and hash of email, or ErrNotFound
// with the dummy hash so the caller does the same work either way.
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

// StartSession creates a session for the account, valid for ttl. The
// secret goes into the cookie and is never stored.
func (s *Service) StartSession(ctx context.Context, accountID string, ttl time.Duration) (string, account.Session, error) {
	secret, hash := account.NewSessionSecret()
	now := s.now()
	ss := account.Session{IDHash: hash, AccountID: accountID, CSRF: account.NewCSRFToken(), CreatedAt: now, ExpiresAt: now.Add(ttl)}
	if err := s.st.CreateSession(ctx, ss); err != nil {
		return "", account.Session{}, err
	}
	return secret, ss, nil
}

// maxSessionSecret bounds what is hashed and looked up from a cookie.
const maxSessionSecret = 100

// Session resolves a cookie's secret to its live session and account;
// ErrNoSession when there is none or it has expired (an expired one is
// deleted on the way).
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

// Sweep deletes expired sessions and sign-in and sign-up counts older than
// their windows.
// Any replica may run it; running it on several at once is harmless.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.now()
	if _, err := s.st.DeleteExpiredSessions(ctx, now); err != nil {
		return fmt.Errorf("delete expired sessions: %w", err)
	}
	// The longer window: a sign-up count must outlive its hour.
	if _, err := s.st.DeleteStaleSignIns(ctx, now.Add(-max(SignInWindow, SignUpWindow))); err != nil {
		return fmt.Errorf("delete stale sign-in counts: %w", err)
	}
	return nil
}

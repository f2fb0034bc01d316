package access

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
)

// Principal is who a request acts as.
type Principal struct {
	Account account.Account
	TokenID string
	Scopes  []string
	Plan    account.Plan
}

// Reasons a token is refused; the edge maps them to 401 and 403.
var (
	ErrUnauthorized      = errors.New("the bearer token is missing, malformed, unknown or revoked")
	ErrAccountSuspended  = errors.New("the account is suspended")
	ErrNoAPIAccess       = errors.New("the account's plan has no API access")
	ErrInsufficientScope = errors.New("the token lacks the api:read ability")
)

// Authenticator resolves bearer tokens to principals, caching answers for a TTL
// (a change on any replica holds everywhere within it; see WithAuthenticator).
type Authenticator struct {
	st    store.Store
	plans func(string) (account.Plan, bool)
	ttl   time.Duration
	now   func() time.Time

	// The cache is keyed by the secret's SHA-256, hex-encoded (the store's
	// form) only on a miss: a hit costs no allocation, and hits share a read lock.
	mu    sync.RWMutex
	cache map[[sha256.Size]byte]cached
	// forgets counts Forget calls: a lookup that saw one happen while it read
	// the database does not cache an answer that may predate the revocation.
	forgets uint64
}

type cached struct {
	// p is shared by every request of the token until it expires: no one
	// changes it.
	p       *Principal
	err     error
	expires time.Time
}

// maxCached bounds the cache: past it, expired entries go, then all of them.
const maxCached = 50000

// NewAuthenticator returns an Authenticator caching answers for ttl.
func NewAuthenticator(st store.Store, plans func(string) (account.Plan, bool), ttl time.Duration) *Authenticator {
	return &Authenticator{st: st, plans: plans, ttl: ttl, now: time.Now, cache: map[[sha256.Size]byte]cached{}}
}

// BearerSecret extracts the token from an Authorization header value.
func BearerSecret(header string) (string, bool) {
	scheme, secret, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	secret = strings.TrimSpace(secret)
	if !strings.HasPrefix(secret, account.TokenPrefix) || len(secret) > 100 {
		return "", false
	}
	return secret, true
}

// hashSecret is the cache key of a secret: its SHA-256, hashed from a
// stack copy so that no request allocates.
func hashSecret(secret string) [sha256.Size]byte {
	var buf [128]byte
	if len(secret) > len(buf) {
		return sha256.Sum256([]byte(secret))
	}
	return sha256.Sum256(buf[:copy(buf[:], secret)])
}

// Authenticate returns the principal of a token secret, or why it is
// refused (with the principal of a known token, else nil). The principal is
// shared: callers must not change it.
func (a *Authenticator) Authenticate(ctx context.Context, secret string) (*Principal, error) {
	return a.AuthenticateAt(ctx, secret, a.now())
}

// AuthenticateAt is Authenticate at now, the time a request arrived, which
// its server has read already.
func (a *Authenticator) AuthenticateAt(ctx context.Context, secret string, now time.Time) (*Principal, error) {
	key := hashSecret(secret)
	a.mu.RLock()
	c, ok := a.cache[key]
	forgets := a.forgets
	a.mu.RUnlock()
	if ok && now.Before(c.expires) {
		return c.p, c.err
	}
	found, until, err := a.lookup(ctx, hex.EncodeToString(key[:]), now)
	if err != nil && !isRefusal(err) {
		return nil, err // a database failure is not cached
	}
	p := &found
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.forgets != forgets {
		return p, err
	}
	if len(a.cache) >= maxCached {
		for k, v := range a.cache {
			if !now.Before(v.expires) {
				delete(a.cache, k)
			}
		}
		if len(a.cache) >= maxCached {
			a.cache = map[[sha256.Size]byte]cached{}
		}
	}
	expires := now.Add(a.ttl)
	if !until.IsZero() && until.Before(expires) {
		expires = until // a token in a rotation's grace is refused from its end
	}
	a.cache[key] = cached{p: p, err: err, expires: expires}
	return p, err
}

// Forget drops the cached answer for a secret hash, after the change commits.
func (a *Authenticator) Forget(hash string) {
	var key [sha256.Size]byte
	_, err := hex.Decode(key[:], []byte(hash))
	a.mu.Lock()
	if err == nil {
		delete(a.cache, key)
	}
	a.forgets++
	a.mu.Unlock()
}

func isRefusal(err error) bool {
	return errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrAccountSuspended) ||
		errors.Is(err, ErrNoAPIAccess) || errors.Is(err, ErrInsufficientScope)
}

// lookup resolves a secret's hash at now; until is when a token in a
// rotation's grace period stops working (zero for an active one).
func (a *Authenticator) lookup(ctx context.Context, hash string, now time.Time) (p Principal, until time.Time, err error) {
	t, err := a.st.TokenByHash(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, until, ErrUnauthorized
	}
	if err != nil {
		return Principal{}, until, err
	}
	if !t.ValidAt(now) {
		return Principal{}, until, ErrUnauthorized
	}
	if t.RevokedAt != nil {
		until = *t.RevokedAt
	}
	acct, err := a.st.AccountByID(ctx, t.AccountID)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return Principal{}, until, ErrUnauthorized
		}
		return Principal{}, until, err
	}
	p = Principal{Account: acct, TokenID: t.ID, Scopes: t.Scopes}
	plan, ok := a.plans(acct.Plan)
	switch {
	case acct.Suspended:
		return p, until, ErrAccountSuspended
	case !ok || !plan.APIAccess:
		return p, until, ErrNoAPIAccess
	case !slices.Contains(t.Scopes, account.ScopeRead):
		return p, until, ErrInsufficientScope
	}
	p.Plan = plan
	return p, until, nil
}

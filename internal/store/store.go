// Package store defines the persistence interfaces of vds. Two
// implementations sit behind them: SQLite (the embedded default) and
// PostgreSQL (production, and the one several replicas share).
package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
)

// Sentinel errors every implementation maps its driver errors to.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("already exists")
	// ErrFileChanged is Check's error when the SQLite file at the
	// configured path is no longer the file the store has open. Its
	// message names the file and holds nothing secret.
	ErrFileChanged = errors.New("database file changed under the server")
	// ErrLimit refuses a row that would take an account past a cap.
	ErrLimit = errors.New("limit reached")
)

// ReplaceOptions are the settings of one ReplaceCatalog.
type ReplaceOptions struct {
	// Source labels the version published.
	Source string
	// Progress, when not nil, is called with the number of records written
	// so far.
	Progress func(done, total int)
	// Check, when not nil, sees the changes before anything is written; an
	// error refuses them and is returned. It runs inside the write
	// transaction, with the catalog locked, so no concurrent ingest can
	// change what it checked.
	Check func(*catalog.Changes) error
	// DryRun computes and checks the changes but writes nothing.
	DryRun bool
}

// CatalogStore persists the vehicle catalog and its published versions.
type CatalogStore interface {
	// LoadCatalog returns every record and the version they belong to.
	LoadCatalog(ctx context.Context) (*catalog.Catalog, catalog.Version, error)
	// CatalogVersion returns the latest published version (Number 0 before
	// the first ingest). Replicas poll it to notice a new catalog.
	CatalogVersion(ctx context.Context) (catalog.Version, error)
	// ReplaceCatalog makes the stored records of each kind in kinds equal to
	// next, in one transaction, and publishes a new version when anything
	// changed. The changes are returned either way, also when opts.Check
	// refuses them or opts.DryRun writes nothing; the version is then the
	// current one.
	ReplaceCatalog(ctx context.Context, next *catalog.Catalog, kinds []catalog.Kind, opts ReplaceOptions) (catalog.Changes, catalog.Version, error)
	// EnrichCars sets the fuel-economy fields of every car in one
	// transaction: cars in economy get those values, all others null. It
	// publishes a new catalog version when any car changed and returns the
	// number of cars changed and the version.
	EnrichCars(ctx context.Context, economy map[uuid.UUID]catalog.FuelEconomy, source string) (changed int, v catalog.Version, err error)
	// HasRecord reports whether the catalog holds a record of that kind and uuid.
	HasRecord(ctx context.Context, kind catalog.Kind, id uuid.UUID) (bool, error)
}

// AccountStore persists accounts.
type AccountStore interface {
	// CreateAccount stores a new account together with its default list.
	// A taken email is ErrConflict.
	CreateAccount(ctx context.Context, a account.Account) error
	AccountByID(ctx context.Context, id string) (account.Account, error)
	AccountByEmail(ctx context.Context, email string) (account.Account, error)
	ListAccounts(ctx context.Context) ([]account.Account, error)
	SetPlan(ctx context.Context, accountID, plan string) error
	SetSuspended(ctx context.Context, accountID string, suspended bool) error
	// SetPassword stores the encoded hash of the account's dashboard
	// password (never the password); an unknown account is ErrNotFound.
	SetPassword(ctx context.Context, accountID, hash string) error
	// PasswordHash returns the account with that (normalised) email and its
	// password hash; ErrNotFound when there is no such account or it has
	// no password (accounts made by an operator until one is set).
	PasswordHash(ctx context.Context, email string) (account.Account, string, error)
}

// SessionStore persists dashboard sessions in the database, so that every
// replica recognises a session cookie whichever replica issued it.
type SessionStore interface {
	// CreateSession stores a session (its id's hash, never the id).
	CreateSession(ctx context.Context, s account.Session) error
	// SessionByHash returns a session, expired or not, by the hash of its
	// id; ErrNotFound when there is none. The caller checks ExpiresAt.
	SessionByHash(ctx context.Context, hash string) (account.Session, error)
	// DeleteSession ends a session; an unknown one is not an error, so
	// signing out twice is harmless.
	DeleteSession(ctx context.Context, hash string) error
	// DeleteAccountSessions ends every session of an account (after its
	// password changes) and returns how many there were.
	DeleteAccountSessions(ctx context.Context, accountID string) (int64, error)
	// DeleteExpiredSessions removes sessions that expired at or before
	// now and returns how many.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)
}

// SignInThrottle counts failed sign-ins per key (a hash of the email, or of
// the client address) in the database, so that replicas share the count
// and an attacker gains nothing by spreading guesses over them.
type SignInThrottle interface {
	// RecordFailedSignIn counts one failure for key at time at and returns
	// the failures counted in the window ending at at: a count whose last
	// failure is older than window starts over at 1. Atomic across replicas.
	RecordFailedSignIn(ctx context.Context, key string, at time.Time, window time.Duration) (int, error)
	// FailedSignIns returns the failures counted for key and the time of
	// the last one; a count whose last failure is before since is 0.
	FailedSignIns(ctx context.Context, key string, since time.Time) (int, time.Time, error)
	// ClearFailedSignIns forgets the failures of key (after a success).
	ClearFailedSignIns(ctx context.Context, key string) error
	// DeleteStaleSignIns forgets every count whose last failure is before
	// before, and returns how many.
	DeleteStaleSignIns(ctx context.Context, before time.Time) (int64, error)
}

// TokenStore persists API tokens (hashes only).
type TokenStore interface {
	// CreateToken stores a token unless its account has limit active tokens
	// already (ErrLimit), atomically across replicas.
	CreateToken(ctx context.Context, t account.Token, limit int) error
	TokenByID(ctx context.Context, id string) (account.Token, error)
	// TokenByHash finds a token, revoked or not, by the hash of its secret.
	TokenByHash(ctx context.Context, hash string) (account.Token, error)
	Tokens(ctx context.Context, accountID string) ([]account.Token, error)
	// RotateToken revokes the active token oldID and stores next, atomically.
	// A revoked or unknown oldID is ErrNotFound.
	RotateToken(ctx context.Context, oldID string, next account.Token, at time.Time) error
	// RevokeToken revokes an active token; an unknown or revoked one is ErrNotFound.
	RevokeToken(ctx context.Context, id string, at time.Time) error
}

// ListStore persists saved lists and their items.
type ListStore interface {
	// Lists returns the account's lists with their items, the default first.
	Lists(ctx context.Context, accountID string) ([]account.List, error)
	DefaultList(ctx context.Context, accountID string) (account.List, error)
	// ListByID returns one list of the account, without items; a list that
	// does not exist or belongs to another account is ErrNotFound.
	ListByID(ctx context.Context, accountID, listID string) (account.List, error)
	// CreateList stores a new, non-default list; a name the account
	// already uses is ErrConflict, and an account with limit lists already
	// (the default one included) is ErrLimit, atomically across replicas.
	CreateList(ctx context.Context, l account.List, limit int) error
	// DeleteList deletes one of the account's lists with its items. The
	// default list, an unknown list and another account's list are
	// ErrNotFound: nothing is deleted.
	DeleteList(ctx context.Context, accountID, listID string) error
	// AddListItem adds a record to a list; a record already there is ErrConflict.
	AddListItem(ctx context.Context, listID string, item account.ListItem) error
	// RemoveListItem removes a record from a list; a record not there is ErrNotFound.
	RemoveListItem(ctx context.Context, listID string, kind catalog.Kind, id uuid.UUID) error
}

// UsageDelta is a batch of charged calls to add to an account's counters.
type UsageDelta struct {
	AccountID string
	// Period is the calendar month, YYYY-MM (UTC).
	Period string
	// Days splits Calls by day (YYYY-MM-DD) and channel ("rest", "mcp").
	Days  map[DayChannel]int64
	Calls int64
}

// DayChannel keys the daily usage counters.
type DayChannel struct {
	Day     string
	Channel string
}

// DailyUsage is one row of the daily usage counters.
type DailyUsage struct {
	Day     string `json:"day"`
	Channel string `json:"channel"`
	Calls   int64  `json:"calls"`
}

// UsageStore persists quota usage. Servers count calls in memory and add
// them here in batches; several replicas add to the same counters.
type UsageStore interface {
	// AddUsage adds d to the counters in one transaction and returns the
	// account's total for the period afterwards. Calls may be negative: a
	// server returns quota units it leased and did not use.
	AddUsage(ctx context.Context, d UsageDelta) (int64, error)
	// LeaseUsage grants a server up to want units of a quota: it raises the
	// period's counter by min(want, quota-used), atomically across servers,
	// and returns the grant and the counter afterwards. A grant of 0 means
	// the quota is used up. The counter therefore never exceeds quota.
	LeaseUsage(ctx context.Context, accountID, period string, want, quota int64) (granted, used int64, err error)
	// Usage returns the account's total for the period (0 when none).
	Usage(ctx context.Context, accountID, period string) (int64, error)
	// DailyUsage returns the account's daily counters between two days, inclusive.
	DailyUsage(ctx context.Context, accountID, fromDay, toDay string) ([]DailyUsage, error)
	// TouchTokens records when tokens were last used; later times win.
	TouchTokens(ctx context.Context, used map[string]time.Time) error
}

// CacheStore keeps upstream answers for every replica to share.
type CacheStore interface {
	// GetCache returns a stored value and when it was stored; ok is false
	// when the key has never been stored.
	GetCache(ctx context.Context, key string) (value []byte, storedAt time.Time, ok bool, err error)
	// PutCache stores (or replaces) a value.
	PutCache(ctx context.Context, key string, value []byte, storedAt time.Time) error
}

// Store is everything vds persists.
type Store interface {
	CatalogStore
	AccountStore
	SessionStore
	SignInThrottle
	TokenStore
	ListStore
	UsageStore
	CacheStore
	// Migrate applies the embedded migrations that have not run yet.
	Migrate(ctx context.Context) error
	// Backend names the implementation: "sqlite" or "postgres".
	Backend() string
	// Check reports whether the store can serve: the database answers a
	// query, and a SQLite file is still the one opened (writes to a file
	// deleted or replaced under a running server are lost at the next
	// start; that is ErrFileChanged).
	Check(ctx context.Context) error
	Close() error
}

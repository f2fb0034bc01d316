// Package store defines the persistence interfaces of vds, implemented once in
// sqldb for SQLite and PostgreSQL; storetest pins every method's contract.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/hin"
	"github.com/vds-dev/vds/internal/requestlog"
)

// Sentinel errors every implementation maps its driver errors to.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("already exists")
	// ErrFileChanged: the SQLite file at the configured path is not the one open.
	ErrFileChanged = errors.New("database file changed under the server")
	ErrLimit       = errors.New("limit reached")
)

// ReplaceOptions are the settings of one ReplaceCatalog.
type ReplaceOptions struct {
	Source   string
	Progress func(done, total int)
	// Check runs inside the write transaction, the catalog locked; an error refuses the changes.
	Check func(*catalog.Changes) error
	// Prepare runs inside the write transaction before the diff, and may
	// add to next what it keeps of current.
	Prepare func(current, next *catalog.Catalog)
	DryRun  bool
}

// CatalogStore persists the vehicle catalog and its published versions.
type CatalogStore interface {
	// LoadCatalog returns the records in no particular order.
	LoadCatalog(ctx context.Context) (*catalog.Catalog, catalog.Version, error)
	CatalogVersion(ctx context.Context) (catalog.Version, error)
	// ReplaceCatalog makes the records of kinds equal to next and publishes a
	// version when anything changed; refused and dry runs return the changes too.
	ReplaceCatalog(ctx context.Context, next *catalog.Catalog, kinds []catalog.Kind, opts ReplaceOptions) (catalog.Changes, catalog.Version, error)
	EnrichCars(ctx context.Context, economy map[uuid.UUID]catalog.FuelEconomy, source string) (changed int, v catalog.Version, err error)
	HasRecord(ctx context.Context, kind catalog.Kind, id uuid.UUID) (bool, error)
}

// AccountStore persists accounts.
type AccountStore interface {
	CreateAccount(ctx context.Context, a account.Account) error
	AccountByID(ctx context.Context, id string) (account.Account, error)
	AccountByEmail(ctx context.Context, email string) (account.Account, error)
	ListAccounts(ctx context.Context) ([]account.Account, error)
	SetPlan(ctx context.Context, accountID, plan string) error
	SetSuspended(ctx context.Context, accountID string, suspended bool) error
	SetPassword(ctx context.Context, accountID, hash string) error
	// DeleteAccount deletes an account with its tokens, lists, sessions and usage.
	DeleteAccount(ctx context.Context, accountID string) error
	PasswordHash(ctx context.Context, email string) (account.Account, string, error)
}

// SessionStore keeps dashboard sessions in the database, so every replica knows them.
type SessionStore interface {
	CreateSession(ctx context.Context, s account.Session) error
	SessionByHash(ctx context.Context, hash string) (account.Session, error)
	DeleteSession(ctx context.Context, hash string) error
	DeleteAccountSessions(ctx context.Context, accountID string) (int64, error)
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)
	// PutFlash sets the session's one-time message, replacing any before it.
	PutFlash(ctx context.Context, sessionHash string, body []byte) error
	// TakeFlash returns and deletes the session's message; ErrNotFound when none.
	TakeFlash(ctx context.Context, sessionHash string) ([]byte, error)
}

// SignInThrottle counts failed sign-ins per key in the database, shared by replicas.
type SignInThrottle interface {
	RecordFailedSignIn(ctx context.Context, key string, at time.Time, window time.Duration) (int, error)
	FailedSignIns(ctx context.Context, key string, since time.Time) (int, time.Time, error)
	ClearFailedSignIns(ctx context.Context, key string) error
	DeleteStaleSignIns(ctx context.Context, before time.Time) (int64, error)
}

// TokenStore persists API tokens (hashes only).
type TokenStore interface {
	CreateToken(ctx context.Context, t account.Token, limit int) error
	TokenByID(ctx context.Context, id string) (account.Token, error)
	TokenByHash(ctx context.Context, hash string) (account.Token, error)
	Tokens(ctx context.Context, accountID string) ([]account.Token, error)
	// RotateToken stores next and schedules oldID's revocation at at (the
	// end of its grace, or now).
	RotateToken(ctx context.Context, oldID string, next account.Token, at time.Time) error
	// RevokeToken revokes a token still valid at at, cutting a grace short.
	RevokeToken(ctx context.Context, id string, at time.Time) error
}

// ListStore persists saved lists and their items.
type ListStore interface {
	Lists(ctx context.Context, accountID string) ([]account.List, error)
	DefaultList(ctx context.Context, accountID string) (account.List, error)
	ListByID(ctx context.Context, accountID, listID string) (account.List, error)
	CreateList(ctx context.Context, l account.List, limit int) error
	DeleteList(ctx context.Context, accountID, listID string) error
	AddListItem(ctx context.Context, listID string, item account.ListItem) error
	RemoveListItem(ctx context.Context, listID string, kind catalog.Kind, id uuid.UUID) error
}

// ItemRef names one list item.
type ItemRef struct {
	ListID string
	Kind   catalog.Kind
	UUID   uuid.UUID
}

// WatchedItem is a list item the recall watch checks, with its account.
type WatchedItem struct {
	AccountID string
	ListID    string
	Item      account.ListItem
}

// Ref names the item.
func (w WatchedItem) Ref() ItemRef {
	return ItemRef{ListID: w.ListID, Kind: w.Item.Kind, UUID: w.Item.UUID}
}

// ItemRecall is a recall campaign as first sighted on a list item.
type ItemRecall struct {
	AccountID string
	ItemRef
	Campaign string
	// Recall is the campaign as NHTSA gave it, JSON.
	Recall      []byte
	FirstSeenAt time.Time
	// Baseline: open at the item's first check; never new, never notified.
	Baseline      bool
	Notified      bool
	Seen          bool
	DealtWithAt   *time.Time
	DealtWithNote string
}

// RecallStore keeps the recall watch's state, shared by replicas.
type RecallStore interface {
	// WatchedItems returns every item of kinds car, motorcycle and vin.
	WatchedItems(ctx context.Context) ([]WatchedItem, error)
	// RecallChecks returns when each vehicle key was last checked.
	RecallChecks(ctx context.Context) (map[string]time.Time, error)
	// ClaimRecallCheck claims vehicle until leaseUntil unless it was checked
	// after dueBefore or another claim runs; false when not claimed.
	ClaimRecallCheck(ctx context.Context, vehicle string, dueBefore, now, leaseUntil time.Time) (bool, error)
	// FinishRecallCheck records a check: done at checkedAt, or failed and
	// claimed until retryAt (checkedAt nil).
	FinishRecallCheck(ctx context.Context, vehicle string, checkedAt *time.Time, retryAt time.Time) error
	// RecordItemRecalls stores the campaigns (number to JSON) open on an item
	// at now and returns the first sightings after its baseline; ErrNotFound
	// when the item is gone.
	RecordItemRecalls(ctx context.Context, ref ItemRef, campaigns map[string][]byte, now time.Time) ([]ItemRecall, error)
	// UnnotifiedRecalls returns the first sightings not yet notified, oldest first.
	UnnotifiedRecalls(ctx context.Context) ([]ItemRecall, error)
	MarkRecallNotified(ctx context.Context, ref ItemRef, campaign string) error
	// ItemRecalls returns the sightings on the account's items.
	ItemRecalls(ctx context.Context, accountID string) ([]ItemRecall, error)
	// SetRecallDealtWith marks (at set) or unmarks a campaign dealt with on one of the account's items.
	SetRecallDealtWith(ctx context.Context, accountID string, ref ItemRef, campaign string, at *time.Time, note string) error
	// MarkRecallsSeen makes the account's sightings no longer new.
	MarkRecallsSeen(ctx context.Context, accountID string) error
	// TryWatchLock takes the lock of the replica that runs the watch; held
	// false when another has it. release gives it back.
	TryWatchLock(ctx context.Context) (held bool, release func(), err error)
}

// UsageDelta is a batch of charged calls to add to an account's counters.
type UsageDelta struct {
	AccountID string
	Period    string
	Days      map[DayChannel]int64
	Calls     int64
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

// UsageStore persists quota usage, added in batches by every replica.
type UsageStore interface {
	AddUsage(ctx context.Context, d UsageDelta) (int64, error)
	// LeaseUsage raises the counter by min(want, quota-used) atomically.
	LeaseUsage(ctx context.Context, accountID, period string, want, quota int64) (granted, used int64, err error)
	Usage(ctx context.Context, accountID, period string) (int64, error)
	DailyUsage(ctx context.Context, accountID, fromDay, toDay string) ([]DailyUsage, error)
	TouchTokens(ctx context.Context, used map[string]time.Time) error
}

// CacheStore keeps upstream answers for every replica to share.
type CacheStore interface {
	GetCache(ctx context.Context, key string) (value []byte, storedAt time.Time, ok bool, err error)
	PutCache(ctx context.Context, key string, value []byte, storedAt time.Time) error
}

// VPICSnapshot describes an imported vPIC database.
type VPICSnapshot struct {
	ID int64 `json:"id"`
	// DataDate is the date of the newest NHTSA row in it, YYYY-MM-DD.
	DataDate   string           `json:"data_date"`
	SHA256     string           `json:"sha256"`
	Rows       map[string]int64 `json:"rows"`
	Community  int64            `json:"community_rows"`
	ImportedAt time.Time        `json:"imported_at"`
}

// VPICStore keeps the vPIC snapshot every replica decodes VINs from.
type VPICStore interface {
	// PutVPICSnapshot stores file (the gzipped snapshot) and drops older ones, at once.
	PutVPICSnapshot(ctx context.Context, meta VPICSnapshot, file []byte) (VPICSnapshot, error)
	// VPICSnapshot describes the newest snapshot; ErrNotFound when none is imported.
	VPICSnapshot(ctx context.Context) (VPICSnapshot, error)
	VPICFile(ctx context.Context, id int64) ([]byte, error)
}

// NHTSAFile describes one imported NHTSA flat file (FLAT_RCL_*).
type NHTSAFile struct {
	ID int64 `json:"id"`
	// Name is the file's name without directory and extension, upper case: it
	// identifies the file, so a newer FLAT_RCL_POST_2010 replaces the older.
	Name string `json:"name"`
	Kind string `json:"kind"`
	// FileDate is the file's own date (zip member or modification time), YYYY-MM-DD.
	FileDate string `json:"file_date"`
	// DataDate is the newest record date in it, YYYY-MM-DD.
	DataDate   string           `json:"data_date"`
	SHA256     string           `json:"sha256"`
	Rows       map[string]int64 `json:"rows"`
	ImportedAt time.Time        `json:"imported_at"`
}

// NHTSAComplaint is one line of an imported complaint file: a complaint
// about one vehicle, naming one component. Dates are YYYY-MM-DD, "" when none.
type NHTSAComplaint struct {
	// Vehicle is the make, model and year as the files' index folds them.
	Vehicle                    string
	ODI                        int64
	Component                  string
	Crash, Fire                bool
	Injuries, Deaths           int
	IncidentDate, ReceivedDate string
	Summary                    string
}

// NHTSAFilePut is one file to store: a recall file with Data, its parsed
// rows; a complaint file with Complaints, which yields its lines in batches
// to put (read within the transaction) and returns the file as described
// once read (its row counts and data date).
type NHTSAFilePut struct {
	File       NHTSAFile
	Data       []byte
	Complaints func(put func([]NHTSAComplaint) error) (NHTSAFile, error)
}

// NHTSAFileStore keeps the imported NHTSA flat files every replica answers recalls from.
type NHTSAFileStore interface {
	// PutNHTSAFiles stores files in one transaction, each replacing the
	// stored file of its name (and its complaints).
	PutNHTSAFiles(ctx context.Context, files []NHTSAFilePut) ([]NHTSAFile, error)
	// NHTSAFiles describes the stored files, by name.
	NHTSAFiles(ctx context.Context) ([]NHTSAFile, error)
	NHTSAFileData(ctx context.Context, id int64) ([]byte, error)
	// NHTSAComplaints lists a vehicle's complaint lines, of every file.
	NHTSAComplaints(ctx context.Context, vehicle string) ([]NHTSAComplaint, error)
}

// MICList describes an imported list of the Coast Guard's manufacturer
// identification codes.
type MICList struct {
	// Source names the list: a file name or the embedded copy.
	Source     string    `json:"source"`
	SHA256     string    `json:"sha256"`
	Codes      int       `json:"codes"`
	ImportedAt time.Time `json:"imported_at"`
}

// MICStore keeps the MIC list every replica decodes HINs with.
type MICStore interface {
	// PutMICList replaces the list and its provenance in one transaction.
	PutMICList(ctx context.Context, meta MICList, list []hin.Manufacturer) (MICList, error)
	// MICList describes the list; ErrNotFound when none is imported.
	MICList(ctx context.Context) (MICList, error)
	// Manufacturers reads the list, in MIC order.
	Manufacturers(ctx context.Context) ([]hin.Manufacturer, error)
}

// Store is everything vds persists.
type Store interface {
	CatalogStore
	AccountStore
	SessionStore
	SignInThrottle
	TokenStore
	ListStore
	RecallStore
	UsageStore
	requestlog.Store
	CacheStore
	VPICStore
	NHTSAFileStore
	MICStore
	WebhookStore
	Migrate(ctx context.Context) error
	Backend() string
	Check(ctx context.Context) error
	Close() error
}

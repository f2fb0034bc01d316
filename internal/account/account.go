// Package account holds the user data types of vds: accounts, plans, API
// tokens, sessions and saved lists.
package account

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/textcheck"
)

// Plan is a named set of limits. Plans come from configuration.
type Plan struct {
	Name string `json:"name" jsonschema:"The plan's name, e.g. free or developer."`
	// RatePerMinute is the per-minute request limit; 0 means unlimited.
	RatePerMinute int `json:"rate_per_minute" jsonschema:"Requests allowed per minute; 0 is unlimited." unit:"requests/min"`
	// MonthlyQuota is the charged calls per calendar month (UTC); 0 means unlimited.
	MonthlyQuota int  `json:"monthly_quota" jsonschema:"Charged calls allowed per calendar month (UTC); 0 is unlimited." unit:"calls"`
	APIAccess    bool `json:"api_access" jsonschema:"True when the plan may call the API and MCP tools."`
}

// Account is a customer of the API.
type Account struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	Plan      string    `json:"plan"`
	Suspended bool      `json:"suspended"`
	CreatedAt time.Time `json:"created_at"`
}

// ScopeRead is the one ability the API knows: read access.
const ScopeRead = "api:read"

// Token is an API token as stored: only its SHA-256 hash and a short
// prefix a person recognises, never the secret.
type Token struct {
	ID         string     `json:"id"`
	AccountID  string     `json:"account_id"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix"`
	Hash       string     `json:"-"`
	Scopes     []string   `json:"scopes"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

// Active reports whether the token has no revocation, not even a scheduled one.
func (t *Token) Active() bool { return t.RevokedAt == nil }

// ValidAt reports whether the token authenticates at now.
func (t *Token) ValidAt(now time.Time) bool { return t.RevokedAt == nil || now.Before(*t.RevokedAt) }

// TokenPrefix starts every secret, so leaked tokens are easy to grep for.
const TokenPrefix = "vds_"

// DefaultListName is the name of the list every account starts with.
const DefaultListName = "My garage"

// List is a named, user-curated set of catalog records.
type List struct {
	ID        string     `json:"id"`
	AccountID string     `json:"-"`
	Name      string     `json:"name"`
	IsDefault bool       `json:"is_default"`
	CreatedAt time.Time  `json:"created_at"`
	Items     []ListItem `json:"items"`
}

// ListItem points at a catalog record. It stays when the record leaves the
// catalog, so a re-ingest never drops what a user saved.
type ListItem struct {
	Kind    catalog.Kind `json:"type" jsonschema:"The record's kind: car, motorcycle, boat or tire_size; vin for a saved VIN."`
	UUID    uuid.UUID    `json:"uuid" jsonschema:"The record's uuid."`
	Note    string       `json:"note" jsonschema:"The user's note; may be empty."`
	AddedAt time.Time    `json:"added_at" jsonschema:"When the record was saved (UTC)."`
	// Missing is computed when the list is read, never stored.
	Missing bool `json:"missing" jsonschema:"True when the record has left the catalog; record is then null."`
	// VIN is set on items of KindVIN, whose UUID is VINItemID(VIN).
	VIN *string `json:"vin" jsonschema:"The saved VIN, for an item of type vin (its uuid is derived from the VIN); null for a catalog record."`
	// Decode is a VIN item's offline decode, stored with it.
	Decode *VINDecode `json:"-"`
	// RecallsCheckedAt is the watch's last recall check of the item; nil before the first.
	RecallsCheckedAt *time.Time `json:"-"`
}

// KindVIN is the kind of a list item that is a VIN rather than a catalog record.
const KindVIN catalog.Kind = "vin"

var vinSpace = uuid.MustParse("6f2b8c1e-3d7a-5b90-9c4e-1a2b3c4d5e6f")

// VINItemID is the uuid a VIN's list item is stored and removed by.
func VINItemID(vin string) uuid.UUID { return uuid.NewSHA1(vinSpace, []byte(vin)) }

// VINDecode is what a VIN item keeps of its decode: the vehicle and its catalog cars.
type VINDecode struct {
	Make  *string     `json:"make"`
	Model *string     `json:"model"`
	Year  *int        `json:"year"`
	Cars  []uuid.UUID `json:"cars"`
	// Motorcycles links a powersports VIN (decodes saved before it hold none).
	Motorcycles []uuid.UUID `json:"motorcycles,omitempty"`
}

// MaxNoteLen bounds a list item's note.
const MaxNoteLen = 500

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// randomString returns n random bytes in lowercase base32.
func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return idEncoding.EncodeToString(b)
}

// NewID returns a random identifier with a type prefix, e.g. "acc_5x3...".
func NewID(prefix string) string { return prefix + "_" + randomString(10) }

// Now is the time stamped on what is stored: UTC, to the microsecond.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// NewSecret returns a fresh token secret ("vds_" and 32 base32 characters,
// 160 bits of entropy), its hash for storage and its display prefix.
func NewSecret() (secret, hash, prefix string) {
	secret = TokenPrefix + randomString(20)
	return secret, HashSecret(secret), secret[:len(TokenPrefix)+6]
}

// HashSecret returns the hex SHA-256 of a token secret (160 bits of entropy).
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// SameHash compares two hashes in constant time.
func SameHash(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// ErrInvalidEmail is returned for an address that is not a plain email.
var ErrInvalidEmail = errors.New("invalid email address")

// NormalizeEmail lowercases and checks an address ("Name <a@b>" forms are
// refused). Every email comes through here, so it also refuses the C1
// controls net/mail lets through.
func NormalizeEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	if err := textcheck.Line(s); err != nil {
		return "", fmt.Errorf("%w %q: %w", ErrInvalidEmail, s, err)
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" || len(s) > 254 {
		return "", fmt.Errorf("%w: %q", ErrInvalidEmail, s)
	}
	return strings.ToLower(s), nil
}

// Session is a signed-in dashboard session as stored: only the SHA-256 of
// its id, so the database cannot be replayed as a cookie.
type Session struct {
	IDHash    string    `json:"-"`
	AccountID string    `json:"account_id"`
	CSRF      string    `json:"-"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

// NewSessionSecret returns a fresh session id and its hash for storage.
func NewSessionSecret() (secret, hash string) {
	secret = randomToken(32)
	return secret, HashSecret(secret)
}

// NewCSRFToken returns a random synchronizer token for forms.
func NewCSRFToken() string { return randomToken(32) }

func randomToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

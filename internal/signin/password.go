package signin

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Password policy: length, not composition (NIST SP 800-63B); the upper
// bound keeps a sign-in from making the server hash megabytes.
const (
	MinPasswordLen = 10
	MaxPasswordLen = 256
)

// ErrWeakPassword is returned for a password outside the policy.
var ErrWeakPassword = errors.New("password does not meet the policy")

// CheckPassword applies the policy, counting characters, not bytes.
func CheckPassword(pw string) error {
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinPasswordLen:
		return fmt.Errorf("%w: use at least %d characters", ErrWeakPassword, MinPasswordLen)
	case n > MaxPasswordLen:
		return fmt.Errorf("%w: use at most %d characters", ErrWeakPassword, MaxPasswordLen)
	case strings.TrimSpace(pw) == "":
		return fmt.Errorf("%w: it is only spaces", ErrWeakPassword)
	}
	return nil
}

// argonParams are argon2id's costs; the defaults are OWASP's (about 80 ms on
// one core). Hashes carry their own, so raising these keeps old ones valid.
type argonParams struct {
	memory  uint32 // KiB
	time    uint32
	threads uint8
	keyLen  uint32
}

var defaultArgon = argonParams{memory: 19 * 1024, time: 2, threads: 1, keyLen: 32}

// hashSlots bounds concurrent hashing, 19 MiB each: a burst of sign-ins queues.
var hashSlots = make(chan struct{}, 4)

func argonKey(pw, salt []byte, p argonParams) []byte {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	return argon2.IDKey(pw, salt, p.time, p.memory, p.threads, p.keyLen)
}

var b64 = base64.RawStdEncoding

// HashPassword returns the argon2id hash of pw as a PHC string with a random salt.
func HashPassword(pw string) string {
	return hashWith(pw, defaultArgon)
}

func hashWith(pw string, p argonParams) string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	key := argonKey([]byte(pw), salt, p)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.memory, p.time, p.threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// VerifyPassword reports whether pw matches a hash; an unreadable one is an error.
func VerifyPassword(encoded, pw string) (bool, error) {
	p, salt, want, err := decodeHash(encoded)
	if err != nil {
		return false, err
	}
	got := argonKey([]byte(pw), salt, p)
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

var errBadHash = errors.New("unreadable password hash")

func decodeHash(encoded string) (argonParams, []byte, []byte, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return argonParams{}, nil, nil, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return argonParams{}, nil, nil, errBadHash
	}
	var p argonParams
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &p.threads); err != nil {
		return argonParams{}, nil, nil, errBadHash
	}
	// Bounds no hash of ours passes: a tampered row must not cost gigabytes.
	if p.memory < 8 || p.memory > 1<<20 || p.time < 1 || p.time > 16 || p.threads < 1 || p.threads > 16 {
		return argonParams{}, nil, nil, errBadHash
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return argonParams{}, nil, nil, errBadHash
	}
	key, err := b64.DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 64 {
		return argonParams{}, nil, nil, errBadHash
	}
	p.keyLen = uint32(len(key))
	return p, salt, key, nil
}

// PrepareSignIn computes the dummy hash ahead, so the first sign-in costs as much.
func PrepareSignIn() { dummyHash() }

var dummyHash = sync.OnceValue(func() string { return HashPassword("no account has this password") })

package access

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

// Password policy. Length is what makes a password hard to guess (NIST SP
// 800-63B); composition rules are not required. The upper bound keeps a
// sign-in from being a way to make the server hash megabytes.
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

// argonParams are the argon2id cost parameters. The defaults are OWASP's
// recommendation (19 MiB, 2 passes, 1 lane): about 80 ms on one core.
// Stored hashes carry their own parameters, so raising these later still
// verifies old hashes.
type argonParams struct {
	memory  uint32 // KiB
	time    uint32
	threads uint8
	keyLen  uint32
}

var defaultArgon = argonParams{memory: 19 * 1024, time: 2, threads: 1, keyLen: 32}

// hashSlots bounds concurrent hashing: each one holds its memory cost (19
// MiB), so a burst of sign-ins queues instead of exhausting memory.
var hashSlots = make(chan struct{}, 4)

func argonKey(pw, salt []byte, p argonParams) []byte {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	return argon2.IDKey(pw, salt, p.time, p.memory, p.threads, p.keyLen)
}

var b64 = base64.RawStdEncoding

// HashPassword returns the argon2id hash of pw in the PHC string format,
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>, with a random 16-byte salt.
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

// VerifyPassword reports whether pw matches an encoded hash. A hash it
// cannot read is an error, never a match.
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
	// Refuse parameters no hash of ours has, so a tampered row cannot make
	// a sign-in allocate gigabytes or spin for minutes.
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

// PrepareSignIn computes the dummy hash ahead of the first sign-in, so that
// even the first attempt for an unknown email costs what later ones do. A
// server calls it once at start-up (in the background); it is optional.
func PrepareSignIn() { dummyHash() }

// dummyHash is verified against when an email has no password, so that a
// sign-in takes as long whether or not the account exists.
var dummyHash = sync.OnceValue(func() string { return HashPassword("no account has this password") })

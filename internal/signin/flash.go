package signin

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
)

// A flash is a one-time message a session carries to its next page (a new
// token's secret). It is stored sealed with AES-GCM under a key derived
// from the cookie's secret, which the database never holds.
func flashAEAD(secret string) (cipher.AEAD, error) {
	key := sha256.Sum256([]byte("vds session flash\x00" + secret))
	block, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// PutFlash keeps body for the session of a cookie's secret until TakeFlash,
// replacing any flash before it.
func (s *Service) PutFlash(ctx context.Context, secret string, body []byte) error {
	aead, err := flashAEAD(secret)
	if err != nil {
		return err
	}
	hash := account.HashSecret(secret)
	nonce := make([]byte, aead.NonceSize())
	_, _ = rand.Read(nonce)
	return s.st.PutFlash(ctx, hash, aead.Seal(nonce, nonce, body, []byte(hash)))
}

// TakeFlash returns and deletes the session's flash; nil when there is none.
func (s *Service) TakeFlash(ctx context.Context, secret string) ([]byte, error) {
	hash := account.HashSecret(secret)
	sealed, err := s.st.TakeFlash(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	aead, err := flashAEAD(secret)
	if err != nil {
		return nil, err
	}
	n := aead.NonceSize()
	if len(sealed) < n {
		return nil, fmt.Errorf("session flash: %d bytes, too short", len(sealed))
	}
	body, err := aead.Open(nil, sealed[:n], sealed[n:], []byte(hash))
	if err != nil {
		return nil, fmt.Errorf("session flash: %w", err)
	}
	return body, nil
}

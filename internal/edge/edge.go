// Package edge is the HTTP edge every transport shares: request context,
// access log, gzip, problem documents with the one table of codes, and the
// door (bearer token, rate window, quota). See docs/architecture.md.
package edge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"

	"github.com/vds-dev/vds/internal/access"
)

type (
	loggerKey    struct{}
	requestIDKey struct{}
	principalKey struct{}
	accessLogKey struct{}
)

// RequestID returns the request's id ("" outside a request).
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// NewRequestID returns a fresh request id.
func NewRequestID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// validRequestID keeps callers from injecting text into logs through X-Request-Id.
func validRequestID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// PrincipalFrom returns the authenticated principal of a request.
func PrincipalFrom(ctx context.Context) (access.Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(access.Principal)
	return p, ok
}

// WithPrincipal returns ctx carrying p, and names p's account in the access log.
func WithPrincipal(ctx context.Context, p access.Principal) context.Context {
	if al, ok := ctx.Value(accessLogKey{}).(*accessLog); ok {
		al.accountID = p.Account.ID
	}
	return context.WithValue(ctx, principalKey{}, p)
}

// Logger returns the request's logger, which adds its request id.
func Logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// Package edge is the HTTP edge every transport shares: request context,
// access log, gzip, problem documents and the door. See docs/architecture.md.
package edge

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"time"

	"github.com/vds-dev/vds/internal/access"
)

type (
	requestKey   struct{}
	principalKey struct{}
)

// request is what Observe keeps of a request, in one allocation: it is the
// request's context too, the one it was given plus itself under requestKey.
type request struct {
	context.Context
	id  string
	log *slog.Logger
	// accountID, code, detail and unmatched are filled in while it is served.
	accountID string
	code      string
	detail    string
	unmatched bool
	// operation and opStatus are what an MCP request did (SetOperation);
	// unlisted keeps it out of the request log.
	operation string
	opStatus  int
	unlisted  bool
	// principal is the authenticated one, nil before.
	principal *access.Principal
	// proxies are the peers whose X-Forwarded-* headers are believed.
	proxies []netip.Prefix
	// start is when Observe took the request; the door reads it rather
	// than the clock, which costs 80 ns a read on the VMs measured.
	start time.Time
	// rec, idValue and cw share this one allocation; cw is Compress's.
	rec     recorder
	idValue [1]string
	cw      compressWriter
}

func (st *request) Value(key any) any {
	if key == (requestKey{}) {
		return st
	}
	return st.Context.Value(key)
}

func requestFrom(ctx context.Context) *request {
	if st, ok := ctx.(*request); ok {
		return st
	}
	st, _ := ctx.Value(requestKey{}).(*request)
	return st
}

// arrival is when Observe took the request, or now outside Observe.
func arrival(ctx context.Context) time.Time {
	if st := requestFrom(ctx); st != nil {
		return st.start
	}
	return time.Now()
}

// RequestID returns the request's id ("" outside a request).
func RequestID(ctx context.Context) string {
	if st := requestFrom(ctx); st != nil {
		return st.id
	}
	return ""
}

// MarkUnmatched labels r as matched by no route, for a catch-all handler.
func MarkUnmatched(r *http.Request) {
	if st := requestFrom(r.Context()); st != nil {
		st.unmatched = true
	}
}

// SetOperation names what an MCP request did (its JSON-RPC method or tool)
// for the request log and, unless status is 0, the status it would have
// had over REST; an empty op keeps the one set before.
func SetOperation(ctx context.Context, op string, status int) {
	if st := requestFrom(ctx); st != nil {
		if op != "" {
			st.operation = op
		}
		if status != 0 {
			st.opStatus = status
		}
	}
}

// Unlisted keeps r out of the request log (reading the log would log its
// readers); it still counts as a call of its token.
func Unlisted(r *http.Request) {
	if st := requestFrom(r.Context()); st != nil {
		st.unlisted = true
	}
}

// NewRequestID returns 96 random bits in hex. The ids need no secrecy, so
// they come from the runtime's per-thread generator: no system call.
func NewRequestID() string {
	var raw [12]byte
	binary.LittleEndian.PutUint64(raw[:8], rand.Uint64())
	binary.LittleEndian.PutUint32(raw[8:], rand.Uint32())
	var id [24]byte
	hex.Encode(id[:], raw[:])
	return string(id[:])
}

// headerValue is h.Get(key) for a canonical key: net/http canonicalizes
// the request's keys, so the key need not be, which Get would do per call.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
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
	if st := requestFrom(ctx); st != nil && st.principal != nil {
		return *st.principal, true
	}
	p, ok := ctx.Value(principalKey{}).(*access.Principal)
	if !ok {
		return access.Principal{}, false
	}
	return *p, true
}

// WithPrincipal returns a context carrying p, which no one may change
// after (the authenticator shares it among a token's requests). Inside
// Observe that is ctx itself, its request now holding p, so admission
// allocates nothing.
func WithPrincipal(ctx context.Context, p *access.Principal) context.Context {
	if st := requestFrom(ctx); st != nil {
		st.accountID = p.Account.ID
		st.principal = p
		return ctx
	}
	return context.WithValue(ctx, principalKey{}, p)
}

// Logger returns the request's logger, with its request id, built on demand.
func Logger(ctx context.Context) *slog.Logger {
	if st := requestFrom(ctx); st != nil && st.log != nil {
		return st.log.With("request_id", st.id)
	}
	return slog.Default()
}

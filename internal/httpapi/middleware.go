package httpapi

import (
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/views"
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

// PrincipalFrom returns the authenticated principal of a request.
func PrincipalFrom(ctx context.Context) (access.Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(access.Principal)
	return p, ok
}

// WithPrincipal returns ctx carrying p (auth middleware, and tests).
func WithPrincipal(ctx context.Context, p access.Principal) context.Context {
	if al, ok := ctx.Value(accessLogKey{}).(*accessLog); ok {
		al.accountID = p.Account.ID
	}
	return context.WithValue(ctx, principalKey{}, p)
}

// accessLog carries what the access log line needs from inner layers.
type accessLog struct{ accountID string }

// validRequestID accepts a caller's X-Request-Id when it is short and plain,
// so ids can be correlated across systems without letting callers inject
// arbitrary text into logs.
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

// NewRequestID returns a fresh request id, for the errors the server
// answers before a request exists (see Observe for the rest).
func NewRequestID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// recorder captures the status and size for the access log and runs a
// hook just before the status is written (the limiter's commit or refund,
// which sets the quota headers).
type recorder struct {
	http.ResponseWriter
	status   int
	bytes    int64
	beforeWH func(status int)
}

func (rw *recorder) WriteHeader(status int) {
	if rw.status != 0 {
		return
	}
	rw.status = status
	if rw.beforeWH != nil {
		rw.beforeWH(status)
	}
	rw.ResponseWriter.WriteHeader(status)
}

func (rw *recorder) Write(b []byte) (int, error) {
	if rw.status == 0 {
		rw.WriteHeader(http.StatusOK)
	}
	n, err := rw.ResponseWriter.Write(b)
	rw.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rw *recorder) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

// Observe assigns a request id, recovers panics into a 500 problem, and
// logs one line per request: id, method, path, status, duration, bytes,
// account. Never the Authorization header or query secrets.
func Observe(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !validRequestID(id) {
			id = NewRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		al := &accessLog{}
		l := log.With("request_id", id)
		ctx := context.WithValue(r.Context(), requestIDKey{}, id)
		ctx = context.WithValue(ctx, loggerKey{}, l)
		ctx = context.WithValue(ctx, accessLogKey{}, al)
		r = r.WithContext(ctx)
		rec := &recorder{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				l.Error("panic", "panic", fmt.Sprint(v))
				if rec.status == 0 {
					writeProblem(rec, r, problem(r, "internal_error", "The server failed to answer; the request id identifies it in the logs."))
				}
			}
			l.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", rec.status), slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
				slog.Int64("bytes", rec.bytes), slog.String("account_id", al.accountID))
		}()
		next.ServeHTTP(rec, r)
	})
}

var gzipPool = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

// gzipWriter compresses the body; Content-Length no longer applies.
type gzipWriter struct {
	http.ResponseWriter
	gz *gzip.Writer
}

func (g *gzipWriter) WriteHeader(status int) {
	g.Header().Del("Content-Length")
	g.ResponseWriter.WriteHeader(status)
}

func (g *gzipWriter) Write(b []byte) (int, error) { return g.gz.Write(b) }

// Gzip compresses responses for clients that accept it.
func Gzip(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if !acceptsGzip(r.Header.Get("Accept-Encoding")) || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		gz := gzipPool.Get().(*gzip.Writer)
		gz.Reset(w)
		defer func() {
			_ = gz.Close()
			gzipPool.Put(gz)
		}()
		next.ServeHTTP(&gzipWriter{ResponseWriter: w, gz: gz}, r)
	})
}

// acceptsGzip reads an Accept-Encoding value; "gzip;q=0" refuses gzip.
func acceptsGzip(h string) bool {
	for part := range strings.SplitSeq(h, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		for p := range strings.SplitSeq(params, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				q, err := strconv.ParseFloat(v, 64)
				return err == nil && q > 0
			}
		}
		return true
	}
	return false
}

// authenticate checks the bearer token; on failure it writes the 401 or 403.
func (h *Handler) authenticate(w http.ResponseWriter, r *http.Request) (access.Principal, bool) {
	secret, ok := access.BearerSecret(r.Header.Get("Authorization"))
	if !ok {
		h.unauthorized(w, r, "Send the header Authorization: Bearer <token> with a vds_ token.")
		return access.Principal{}, false
	}
	p, err := h.auth.Authenticate(r.Context(), secret)
	switch {
	case err == nil:
		return p, true
	case errors.Is(err, access.ErrUnauthorized):
		h.unauthorized(w, r, "The bearer token is unknown or revoked.")
	case errors.Is(err, access.ErrAccountSuspended):
		writeProblem(w, r, problem(r, "account_suspended", "The account is suspended; contact the operator."))
	case errors.Is(err, access.ErrNoAPIAccess):
		writeProblem(w, r, problem(r, "no_api_access", fmt.Sprintf("The %s plan has no API access; upgrade the plan.", p.Account.Plan)))
	case errors.Is(err, access.ErrInsufficientScope):
		writeProblem(w, r, problem(r, "insufficient_scope", "The token lacks the api:read ability."))
	default:
		unavailable(w, r, "account", err)
	}
	return p, false
}

func (h *Handler) unauthorized(w http.ResponseWriter, r *http.Request, detail string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="vds", error="invalid_token"`)
	writeProblem(w, r, problem(r, "unauthorized", detail))
}

// setLimitHeaders writes the rate-limit and quota headers (docs/api.md);
// package views holds them so that POST /mcp sends the same.
func setLimitHeaders(hd http.Header, s limits.State, now time.Time) {
	views.SetLimitHeaders(hd, s, now)
}

// guard wraps an API handler: authenticate, admit through the limiter
// (charging the monthly quota when charged is true), and commit or refund
// the charge when the status is known, setting the limit headers then.
func (h *Handler) guard(charged bool, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, ok := h.authenticate(w, r)
		if !ok {
			return
		}
		r = r.WithContext(WithPrincipal(r.Context(), p))
		h.limiter.Touch(p.TokenID, time.Now())
		ticket, st, err := h.limiter.Admit(r.Context(), p.Account.ID, p.Plan, charged)
		if err != nil {
			var refusal *limits.Refusal
			if !errors.As(err, &refusal) {
				unavailable(w, r, "usage", err)
				return
			}
			setLimitHeaders(w.Header(), refusal.State, time.Now())
			retry := limits.RetryAfterSeconds(refusal.RetryAfter)
			w.Header().Set("Retry-After", strconv.Itoa(retry))
			pr := problem(r, refusal.Reason, refusal.Error())
			pr.RetryAfter = retry
			if refusal.Reason == limits.CodeQuotaExceeded {
				pr.Limit, pr.Reset = "monthly_quota", refusal.State.QuotaReset.Format(time.RFC3339)
			} else {
				pr.Limit, pr.Reset = "rate_per_minute", refusal.State.RateReset.Format(time.RFC3339)
			}
			writeProblem(w, r, pr)
			return
		}
		done := false
		rec := &recorder{ResponseWriter: w, beforeWH: func(status int) {
			done = true
			final := st
			if charged {
				if status >= 200 && status < 300 {
					final = ticket.Commit(limits.ChannelREST)
				} else {
					final = ticket.Refund()
				}
			}
			setLimitHeaders(w.Header(), final, time.Now())
		}}
		defer func() {
			if !done {
				ticket.Refund() // the handler panicked or wrote nothing
			}
		}()
		next(rec, r)
	}
}

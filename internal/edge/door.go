package edge

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/limits"
)

// Door admits a transport's requests: bearer token, rate window, and quota when charged.
type Door struct {
	Auth    *access.Authenticator
	Limiter *limits.Limiter
	// NoToken is the detail of the 401 to a request without a bearer token.
	NoToken string
}

// Admit authenticates and admits r into ticket, or answers 401/403/429/503
// and returns false; an admitted ticket must be settled, and holds the
// state at admission (Ticket.Admitted).
func (d Door) Admit(w http.ResponseWriter, r *http.Request, charge bool, ticket *limits.Ticket) (*http.Request, bool) {
	now := arrival(r.Context())
	p, ok := d.authenticate(w, r, now)
	if !ok {
		return r, false
	}
	if ctx := WithPrincipal(r.Context(), p); ctx != r.Context() {
		r = r.WithContext(ctx)
	}
	d.Limiter.Touch(p.TokenID, now)
	if _, err := d.Limiter.AdmitInto(r.Context(), ticket, p.Account.ID, p.Plan, charge, now); err != nil {
		Refuse(w, r, err)
		return r, false
	}
	return r, true
}

func (d Door) authenticate(w http.ResponseWriter, r *http.Request, now time.Time) (*access.Principal, bool) {
	secret, ok := access.BearerSecret(headerValue(r.Header, "Authorization"))
	if !ok {
		unauthorized(w, r, d.NoToken)
		return nil, false
	}
	p, err := d.Auth.AuthenticateAt(r.Context(), secret, now)
	switch {
	case err == nil:
		return p, true
	case errors.Is(err, access.ErrUnauthorized):
		unauthorized(w, r, "The bearer token is unknown or revoked.")
	case errors.Is(err, access.ErrAccountSuspended):
		WriteCode(w, r, CodeAccountSuspended, "", "The account is suspended; contact the operator.")
	case errors.Is(err, access.ErrNoAPIAccess):
		WriteCode(w, r, CodeNoAPIAccess, "", fmt.Sprintf("The %s plan has no API access; upgrade the plan.", p.Account.Plan))
	case errors.Is(err, access.ErrInsufficientScope):
		WriteCode(w, r, CodeInsufficientScope, "", "The token lacks the api:read ability.")
	default:
		Unavailable(w, r, "account", err)
	}
	return p, false
}

func unauthorized(w http.ResponseWriter, r *http.Request, detail string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="vds", error="invalid_token"`)
	WriteCode(w, r, CodeUnauthorized, "", detail)
}

// Refuse answers a failed admission: 429 for a *limits.Refusal, else 503.
func Refuse(w http.ResponseWriter, r *http.Request, err error) {
	var refusal *limits.Refusal
	if !errors.As(err, &refusal) {
		Unavailable(w, r, "usage", err)
		return
	}
	SetLimitHeaders(w.Header(), refusal.State, time.Now())
	retry := limits.RetryAfterSeconds(refusal.RetryAfter)
	w.Header().Set("Retry-After", strconv.Itoa(retry))
	p := NewProblem(r, refusal.Reason, refusal.Error())
	p.RetryAfter = retry
	if refusal.Reason == limits.CodeQuotaExceeded {
		p.Limit, p.Reset = LimitQuota, refusal.State.QuotaReset.Format(time.RFC3339)
	} else {
		p.Limit, p.Reset = LimitRate, refusal.State.RateReset.Format(time.RFC3339)
	}
	WriteProblem(w, r, p)
}

// SetLimitHeaders writes the limit headers of s, leaving out unlimited
// windows. It runs on every answer, so it builds all values in one buffer:
// two allocations for up to nine headers.
func SetLimitHeaders(hd http.Header, s limits.State, now time.Time) {
	if !s.Limited() {
		return
	}
	rate, quota := s.RateLimit > 0, s.QuotaLimit > 0
	var (
		b    = make([]byte, 0, 256)
		keys [9]string
		ends [9]int
		n    int
	)
	end := func(key string) { keys[n], ends[n] = key, len(b); n++ }
	num := func(key string, v int64) { b = strconv.AppendInt(b, v, 10); end(key) }
	// item appends one list member: "name";k1=v1;k2=v2.
	item := func(sep bool, name, k1 string, v1 int64, k2 string, v2 int64) {
		if sep {
			b = append(b, ", "...)
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `";`...)
		b = append(b, k1...)
		b = strconv.AppendInt(b, v1, 10)
		b = append(b, ';')
		b = append(b, k2...)
		b = strconv.AppendInt(b, v2, 10)
	}
	if rate {
		num("X-Ratelimit-Limit", int64(s.RateLimit))
		num("X-Ratelimit-Remaining", int64(s.RateRemaining))
		num("X-Ratelimit-Reset", now.Unix()+secondsUntil(s.RateReset, now))
	}
	if quota {
		num("X-Quota-Limit", int64(s.QuotaLimit))
		num("X-Quota-Used", s.QuotaUsed)
		num("X-Quota-Remaining", s.QuotaRemaining())
		num("X-Quota-Reset", s.QuotaReset.Unix())
	}
	if rate {
		item(false, "minute", "q=", int64(s.RateLimit), "w=", 60)
	}
	if quota {
		item(rate, "month", "q=", int64(s.QuotaLimit), "w=", monthSeconds(s.QuotaReset))
	}
	end("Ratelimit-Policy")
	if rate {
		item(false, "minute", "r=", int64(s.RateRemaining), "t=", secondsUntil(s.RateReset, now))
	}
	if quota {
		item(rate, "month", "r=", s.QuotaRemaining(), "t=", secondsUntil(s.QuotaReset, now))
	}
	end("Ratelimit")
	str := string(b)
	vals := make([]string, n)
	from := 0
	for i := range n {
		vals[i] = str[from:ends[i]]
		hd[keys[i]] = vals[i : i+1 : i+1]
		from = ends[i]
	}
}

// secondsUntil rounds up so that a client waiting that long is never early.
func secondsUntil(t, now time.Time) int64 {
	return int64(max(0, limits.RetryAfterSeconds(t.Sub(now))))
}

func monthSeconds(reset time.Time) int64 {
	return int64(reset.Sub(reset.AddDate(0, -1, 0)).Seconds())
}

package edge

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
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

// Admit authenticates and admits r; the request returned carries the
// principal and the ticket must be settled. False: it answered 401/403/429/503.
func (d Door) Admit(w http.ResponseWriter, r *http.Request, charge bool) (*http.Request, *limits.Ticket, limits.State, bool) {
	p, ok := d.authenticate(w, r)
	if !ok {
		return r, nil, limits.State{}, false
	}
	r = r.WithContext(WithPrincipal(r.Context(), p))
	d.Limiter.Touch(p.TokenID, time.Now())
	ticket, st, err := d.Limiter.Admit(r.Context(), p.Account.ID, p.Plan, charge)
	if err != nil {
		Refuse(w, r, err)
		return r, nil, st, false
	}
	return r, ticket, st, true
}

func (d Door) authenticate(w http.ResponseWriter, r *http.Request) (access.Principal, bool) {
	secret, ok := access.BearerSecret(r.Header.Get("Authorization"))
	if !ok {
		unauthorized(w, r, d.NoToken)
		return access.Principal{}, false
	}
	p, err := d.Auth.Authenticate(r.Context(), secret)
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

// Refuse answers a failed admission: 429 with limit headers for a
// *limits.Refusal, else 503.
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
		p.Limit, p.Reset = "monthly_quota", refusal.State.QuotaReset.Format(time.RFC3339)
	} else {
		p.Limit, p.Reset = "rate_per_minute", refusal.State.RateReset.Format(time.RFC3339)
	}
	WriteProblem(w, r, p)
}

// SetLimitHeaders writes the limit headers of s (docs/api.md), leaving out unlimited windows.
func SetLimitHeaders(hd http.Header, s limits.State, now time.Time) {
	var policy, state []string
	if s.RateLimit > 0 {
		hd.Set("X-RateLimit-Limit", strconv.Itoa(s.RateLimit))
		hd.Set("X-RateLimit-Remaining", strconv.Itoa(s.RateRemaining))
		hd.Set("X-RateLimit-Reset", strconv.FormatInt(now.Unix()+secondsUntil(s.RateReset, now), 10))
		policy = append(policy, fmt.Sprintf(`"minute";q=%d;w=60`, s.RateLimit))
		state = append(state, fmt.Sprintf(`"minute";r=%d;t=%d`, s.RateRemaining, secondsUntil(s.RateReset, now)))
	}
	if s.QuotaLimit > 0 {
		hd.Set("X-Quota-Limit", strconv.Itoa(s.QuotaLimit))
		hd.Set("X-Quota-Used", strconv.FormatInt(s.QuotaUsed, 10))
		hd.Set("X-Quota-Remaining", strconv.FormatInt(s.QuotaRemaining(), 10))
		hd.Set("X-Quota-Reset", strconv.FormatInt(s.QuotaReset.Unix(), 10))
		policy = append(policy, fmt.Sprintf(`"month";q=%d;w=%d`, s.QuotaLimit, monthSeconds(s.QuotaReset)))
		state = append(state, fmt.Sprintf(`"month";r=%d;t=%d`, s.QuotaRemaining(), secondsUntil(s.QuotaReset, now)))
	}
	if len(policy) > 0 {
		hd.Set("RateLimit-Policy", strings.Join(policy, ", "))
		hd.Set("RateLimit", strings.Join(state, ", "))
	}
}

// secondsUntil rounds up so that a client waiting that long is never early.
func secondsUntil(t, now time.Time) int64 {
	return int64(max(0, limits.RetryAfterSeconds(t.Sub(now))))
}

func monthSeconds(reset time.Time) int64 {
	return int64(reset.Sub(reset.AddDate(0, -1, 0)).Seconds())
}

package edge_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/store/sqlite"
)

var plans = map[string]account.Plan{
	"pro":  {Name: "pro", RatePerMinute: 1, MonthlyQuota: 100, APIAccess: true},
	"free": {Name: "free", RatePerMinute: 10},
}

type fixture struct {
	door  edge.Door
	close func() error
	// secrets of tokens: ok, suspended, free (no API access), noscope.
	secrets map[string]string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "vds.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	f := fixture{close: st.Close, secrets: map[string]string{}}
	for _, c := range []struct {
		name, plan string
		suspended  bool
		scopes     []string
	}{
		{"ok", "pro", false, []string{account.ScopeRead}},
		{"suspended", "pro", true, []string{account.ScopeRead}},
		{"free", "free", false, []string{account.ScopeRead}},
		{"noscope", "pro", false, []string{}},
	} {
		a := account.Account{ID: account.NewID("acc"), Email: c.name + "@example.com", Plan: c.plan, Suspended: c.suspended,
			CreatedAt: time.Now().UTC().Truncate(time.Second)}
		if err := st.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
		secret, hash, prefix := account.NewSecret()
		tok := account.Token{ID: account.NewID("tok"), AccountID: a.ID, Name: c.name, Prefix: prefix, Hash: hash,
			Scopes: c.scopes, CreatedAt: a.CreatedAt}
		if err := st.CreateToken(ctx, tok, 10); err != nil {
			t.Fatal(err)
		}
		f.secrets[c.name] = secret
	}
	lookup := func(name string) (account.Plan, bool) { p, ok := plans[name]; return p, ok }
	f.door = edge.Door{Auth: access.NewAuthenticator(st, lookup, 0), Limiter: limits.New(st, slog.New(slog.DiscardHandler)),
		NoToken: "Send a token."}
	return f
}

// admit runs one request with authorization through the door and returns
// what the door answered (nil when it admitted) and the principal.
func (f fixture) admit(t *testing.T, authorization string) (*httptest.ResponseRecorder, *edge.Problem, access.Principal) {
	t.Helper()
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/v1/cars", nil)
	if authorization != "" {
		r.Header.Set("Authorization", authorization)
	}
	var ticket limits.Ticket
	r2, ok := f.door.Admit(w, r, true, &ticket)
	if ok {
		ticket.Refund()
		p, _ := edge.PrincipalFrom(r2.Context())
		return w, nil, p
	}
	var p edge.Problem
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatalf("refusal is not a problem: %v: %s", err, w.Body)
	}
	if w.Code != p.Status || w.Header().Get("Content-Type") != "application/problem+json" {
		t.Errorf("status %d, problem status %d, Content-Type %q", w.Code, p.Status, w.Header().Get("Content-Type"))
	}
	return w, &p, access.Principal{}
}

func TestDoorAuthentication(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, c := range []struct {
		name, authorization, code, detail string
	}{
		{"no header", "", "unauthorized", "Send a token."},
		{"not bearer", "Basic " + f.secrets["ok"], "unauthorized", "Send a token."},
		{"unknown token", "Bearer vds_unknown", "unauthorized", "The bearer token is unknown or revoked."},
		{"suspended", "Bearer " + f.secrets["suspended"], "account_suspended", "The account is suspended; contact the operator."},
		{"plan without API", "Bearer " + f.secrets["free"], "no_api_access", "The free plan has no API access; upgrade the plan."},
		{"no api:read", "Bearer " + f.secrets["noscope"], "insufficient_scope", "The token lacks the api:read ability."},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, p, _ := f.admit(t, c.authorization)
			if p == nil {
				t.Fatal("admitted")
			}
			if p.Code != c.code || p.Detail != c.detail || p.Status != edge.Status(c.code) || p.Instance != "/v1/cars" {
				t.Errorf("problem %+v, want code %s detail %q", p, c.code, c.detail)
			}
			wantAuth := ""
			if c.code == "unauthorized" {
				wantAuth = `Bearer realm="vds", error="invalid_token"`
			}
			if got := w.Header().Get("WWW-Authenticate"); got != wantAuth {
				t.Errorf("WWW-Authenticate %q, want %q", got, wantAuth)
			}
		})
	}
	_, p, principal := f.admit(t, "Bearer "+f.secrets["ok"])
	if p != nil || principal.Account.Email != "ok@example.com" || principal.Plan.Name != "pro" {
		t.Errorf("valid token: problem %+v, principal %+v", p, principal)
	}
	// The plan allows one request a minute: the next is a 429 with headers.
	w, p, _ := f.admit(t, "Bearer "+f.secrets["ok"])
	if p == nil || p.Code != "rate_limited" || p.Limit != "rate_per_minute" || p.RetryAfter < 1 || p.RetryAfter > 60 ||
		w.Header().Get("Retry-After") != strconv.Itoa(p.RetryAfter) || w.Header().Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("second request: %+v, headers %v", p, w.Header())
	}
	// A database that fails is a 503, never a 401.
	if err := f.close(); err != nil {
		t.Fatal(err)
	}
	_, p, _ = f.admit(t, "Bearer "+f.secrets["suspended"]+"x")
	if p == nil || p.Code != "service_unavailable" || p.Status != 503 || p.Detail != "The account database is unavailable; retry shortly." {
		t.Errorf("closed database: %+v", p)
	}
}

func TestRefuse(t *testing.T) {
	t.Parallel()
	reset := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/v1/cars", nil)
	edge.Refuse(w, r, &limits.Refusal{Reason: limits.CodeQuotaExceeded, RetryAfter: 1500 * time.Millisecond,
		State: limits.State{QuotaLimit: 100, QuotaUsed: 100, QuotaReset: reset}})
	want := `{"type":"urn:vds:problem:quota_exceeded","title":"Too Many Requests","status":429,` +
		`"detail":"monthly quota of 100 calls is used up; it resets at 2026-12-01T00:00:00Z","instance":"/v1/cars",` +
		`"code":"quota_exceeded","request_id":"","limit":"monthly_quota","reset":"2026-12-01T00:00:00Z","retry_after":2}` + "\n"
	if w.Code != 429 || w.Body.String() != want {
		t.Errorf("got %d %s\nwant %s", w.Code, w.Body, want)
	}
	h := w.Header()
	if h.Get("Retry-After") != "2" || h.Get("X-Quota-Remaining") != "0" || h.Get("X-Quota-Reset") != strconv.FormatInt(reset.Unix(), 10) ||
		h.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Errorf("headers %v", h)
	}

	w = httptest.NewRecorder()
	edge.Refuse(w, r, errors.New("disk on fire"))
	if w.Code != 503 || !strings.Contains(w.Body.String(), `"code":"service_unavailable"`) || strings.Contains(w.Body.String(), "fire") {
		t.Errorf("store failure: %d %s", w.Code, w.Body)
	}
}

func TestSetLimitHeaders(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 30, 0, time.UTC)
	h := http.Header{}
	edge.SetLimitHeaders(h, limits.State{RateLimit: 10, RateRemaining: 9, RateReset: now.Add(30 * time.Second)}, now)
	if h.Get("X-RateLimit-Remaining") != "9" || h.Get("X-Quota-Used") != "" || h.Get("RateLimit") != `"minute";r=9;t=30` {
		t.Errorf("rate only: %v", h)
	}
	// A unit that frees up within a second is reported at the next second.
	h = http.Header{}
	edge.SetLimitHeaders(h, limits.State{RateLimit: 10, RateRemaining: 0, RateReset: now.Add(29500 * time.Millisecond)}, now)
	if want := strconv.FormatInt(now.Unix()+30, 10); h.Get("X-RateLimit-Reset") != want || h.Get("RateLimit") != `"minute";r=0;t=30` {
		t.Errorf("reset between seconds: X-RateLimit-Reset %s RateLimit %s, want %s and t=30", h.Get("X-RateLimit-Reset"), h.Get("RateLimit"), want)
	}
	h = http.Header{}
	reset := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	edge.SetLimitHeaders(h, limits.State{QuotaLimit: 100, QuotaUsed: 40, QuotaReset: reset}, now)
	if h.Get("X-Quota-Remaining") != "60" || h.Get("RateLimit-Policy") != `"month";q=100;w=2592000` ||
		h.Get("RateLimit") != `"month";r=60;t=827970` || h.Get("X-RateLimit-Limit") != "" {
		t.Errorf("quota only: %v", h)
	}
	h = http.Header{}
	edge.SetLimitHeaders(h, limits.State{}, now)
	if len(h) != 0 {
		t.Errorf("unlimited plan got headers %v", h)
	}
	// Both windows: every header, each with one value, replacing what was there.
	both := limits.State{RateLimit: 600, RateRemaining: 599, RateReset: now.Add(60 * time.Second),
		QuotaLimit: 100000, QuotaUsed: 1234, QuotaReset: reset}
	h = http.Header{"X-Quota-Used": {"stale"}}
	edge.SetLimitHeaders(h, both, now)
	want := map[string]string{
		"X-Ratelimit-Limit": "600", "X-Ratelimit-Remaining": "599", "X-Ratelimit-Reset": strconv.FormatInt(now.Unix()+60, 10),
		"X-Quota-Limit": "100000", "X-Quota-Used": "1234", "X-Quota-Remaining": "98766", "X-Quota-Reset": strconv.FormatInt(reset.Unix(), 10),
		"Ratelimit-Policy": `"minute";q=600;w=60, "month";q=100000;w=2592000`,
		"Ratelimit":        `"minute";r=599;t=60, "month";r=98766;t=827970`,
	}
	if len(h) != len(want) {
		t.Errorf("both windows: %d headers %v, want %d", len(h), h, len(want))
	}
	for k, v := range want {
		if got := h[k]; len(got) != 1 || got[0] != v {
			t.Errorf("both windows: %s = %q, want [%q]", k, got, v)
		}
	}
	if n := testing.AllocsPerRun(100, func() { edge.SetLimitHeaders(h, both, now) }); n > 2 {
		t.Errorf("SetLimitHeaders allocates %.0f times, want at most 2", n)
	}
}

package server_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fixture is an in-process server with a few accounts in known states.
type fixture struct {
	h      http.Handler
	st     store.Store
	logs   *lockedBuffer
	tokens map[string]string // by account email
	// access writes the access log to logs; Close it to read every line.
	access *edge.AccessLog
}

// openStore opens a migrated SQLite store that lives as long as the test.
func openStore(t *testing.T) store.Store { return storetest.Empty(t, "sqlite") }

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	st := openStore(t)
	cfg := &config.Config{Plans: map[string]config.PlanLimits{
		"free":    config.DefaultPlans["free"],
		"nothing": {RatePerMinute: 10, MonthlyQuota: 10, APIAccess: false},
	}}
	cfg.Server.AuthCacheTTL = time.Second
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	f := &fixture{st: st, logs: &lockedBuffer{}, tokens: map[string]string{}}
	ids := map[string]string{}
	for email, plan := range map[string]string{"ok@example.com": "free", "suspended@example.com": "free", "noapi@example.com": "nothing"} {
		a, err := acc.CreateAccount(ctx, email, plan)
		if err != nil {
			t.Fatal(err)
		}
		ids[email] = a.ID
		_, secret, err := acc.CreateToken(ctx, a.ID, "t")
		if err != nil {
			t.Fatal(err)
		}
		f.tokens[email] = secret
	}
	if err := acc.SetSuspended(ctx, ids["suspended@example.com"], true); err != nil {
		t.Fatal(err)
	}
	f.access = edge.NewAccessLog(slog.NewJSONHandler(f.logs, nil), nil)
	t.Cleanup(f.access.Close)
	srv, err := server.New(ctx, cfg, st, slog.New(slog.NewJSONHandler(f.logs, nil)), server.WithAccessLog(f.access))
	if err != nil {
		t.Fatal(err)
	}
	f.h = srv.Handler()
	return f
}

func (f *fixture) do(t *testing.T, token, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, req)
	return w
}

func problemCode(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	var p struct {
		Code      string `json:"code"`
		RequestID string `json:"request_id"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatalf("not a problem document: %s", w.Body)
	}
	if w.Header().Get("Content-Type") != "application/problem+json" || p.RequestID != w.Header().Get("X-Request-Id") {
		t.Fatalf("problem %s: content type %q, request id %q vs header %q", p.Code, w.Header().Get("Content-Type"), p.RequestID, w.Header().Get("X-Request-Id"))
	}
	return p.Code
}

func TestAuthFailures(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct {
		name, token, header string
		status              int
		code                string
	}{
		{"no header", "", "", 401, "unauthorized"},
		{"not bearer", "", "Basic dXNlcjpwYXNz", 401, "unauthorized"},
		{"no vds prefix", "abc", "", 401, "unauthorized"},
		{"unknown token", "vds_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "", 401, "unauthorized"},
		{"suspended account", f.tokens["suspended@example.com"], "", 403, "account_suspended"},
		{"plan without api access", f.tokens["noapi@example.com"], "", 403, "no_api_access"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var w *httptest.ResponseRecorder
			if tc.header != "" {
				w = f.do(t, "", "/v1/me", "Authorization", tc.header)
			} else {
				w = f.do(t, tc.token, "/v1/me")
			}
			if w.Code != tc.status || problemCode(t, w) != tc.code {
				t.Fatalf("status %d body %s, want %d %s", w.Code, w.Body, tc.status, tc.code)
			}
			if tc.status == 401 && w.Header().Get("WWW-Authenticate") != `Bearer realm="vds", error="invalid_token"` {
				t.Fatalf("WWW-Authenticate = %q", w.Header().Get("WWW-Authenticate"))
			}
		})
	}
}

func TestRevokedTokenRefusedAfterCacheTTL(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tok := f.tokens["ok@example.com"]
	if w := f.do(t, tok, "/v1/me"); w.Code != 200 {
		t.Fatalf("before revocation: %d", w.Code)
	}
	tk, err := f.st.TokenByHash(context.Background(), hash(tok))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.st.RevokeToken(context.Background(), tk.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	// Polls: it ends as soon as the 1 s TTL has passed, and the deadline
	// leaves a loaded machine room to run the requests late.
	deadline := time.Now().Add(10 * time.Second)
	for f.do(t, tok, "/v1/me").Code != 401 {
		if time.Now().After(deadline) {
			t.Fatal("revoked token still accepted after 10 s (cache TTL is 1 s)")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestRequestIDsAndLogs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tok := f.tokens["ok@example.com"]
	w := f.do(t, tok, "/v1/boats/hull-types", "X-Request-Id", "caller-id-42")
	if w.Code != 200 || w.Header().Get("X-Request-Id") != "caller-id-42" {
		t.Fatalf("a plain caller id is kept: %d %q", w.Code, w.Header().Get("X-Request-Id"))
	}
	w = f.do(t, tok, "/v1/boats/hull-types", "X-Request-Id", "bad id\nwith newline")
	if id := w.Header().Get("X-Request-Id"); id == "" || strings.Contains(id, " ") {
		t.Fatalf("an unsafe caller id must be replaced, got %q", id)
	}
	f.access.Close()
	logs := f.logs.String()
	if strings.Contains(logs, tok) || strings.Contains(logs, tok[4:]) {
		t.Fatal("a token appears in the logs")
	}
	var line struct {
		RequestID  string  `json:"request_id"`
		Method     string  `json:"method"`
		Path       string  `json:"path"`
		Status     int     `json:"status"`
		DurationMS float64 `json:"duration_ms"`
		AccountID  string  `json:"account_id"`
	}
	first, _, _ := strings.Cut(logs, "\n")
	if err := json.Unmarshal([]byte(first), &line); err != nil {
		t.Fatalf("log line is not JSON: %s", first)
	}
	if line.RequestID != "caller-id-42" || line.Method != "GET" || line.Path != "/v1/boats/hull-types" || line.Status != 200 ||
		line.DurationMS <= 0 || !strings.HasPrefix(line.AccountID, "acc_") {
		t.Fatalf("access log line %+v", line)
	}
}

func TestHealthAndGzip(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		if w := f.do(t, "", path); w.Code != 200 || !strings.Contains(w.Body.String(), `"status"`) {
			t.Fatalf("%s: %d %s", path, w.Code, w.Body)
		}
	}
	tok := f.tokens["ok@example.com"]
	w := f.do(t, tok, "/v1/motorcycles/types", "Accept-Encoding", "gzip")
	if w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("no gzip: %v", w.Header())
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil || !strings.Contains(string(body), `"Snowmobile"`) {
		t.Fatalf("gunzipped body %q, %v", body, err)
	}
	if w := f.do(t, tok, "/v1/motorcycles/types", "Accept-Encoding", "gzip;q=0, identity"); w.Header().Get("Content-Encoding") != "" {
		t.Fatal("gzip;q=0 refuses gzip")
	}
	st := f.st
	st.Close()
	if w := f.do(t, "", "/readyz"); w.Code != 503 {
		t.Fatalf("readyz with a closed database: %d", w.Code)
	}
}

func hash(secret string) string { return account.HashSecret(secret) }

// TestPublicReference: the API's description answers without a token, on
// the server as wired, and to a token the door would refuse (a plan
// without API access); the rest of /v1 still refuses an anonymous request.
func TestPublicReference(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for path, contentType := range map[string]string{
		"/v1/openapi.json": "application/json",
		"/docs":            "text/html; charset=utf-8",
		"/llms.txt":        "text/plain; charset=utf-8",
	} {
		w := f.do(t, "", path)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != contentType {
			t.Errorf("%s without a token: status %d, Content-Type %q; want 200 %s", path, w.Code, w.Header().Get("Content-Type"), contentType)
		}
		if !strings.Contains(w.Body.String(), "http://example.com") {
			t.Errorf("%s does not name the request's origin http://example.com", path)
		}
		if w.Header().Get("X-RateLimit-Limit") != "" || w.Header().Get("WWW-Authenticate") != "" {
			t.Errorf("%s went through the door: %v", path, w.Header())
		}
		if w := f.do(t, f.tokens["noapi@example.com"], path); w.Code != http.StatusOK {
			t.Errorf("%s with a token of a plan without API access: status %d, want 200", path, w.Code)
		}
	}
	for _, path := range []string{"/v1/me", "/v1/cars/makes", "/v1/changelog", "/v1/nowhere"} {
		if w := f.do(t, "", path); w.Code != http.StatusUnauthorized {
			t.Errorf("%s without a token: status %d, want 401", path, w.Code)
		}
	}
	if w := f.do(t, "", "/docs/extra"); w.Code != http.StatusNotFound {
		t.Errorf("/docs/extra: status %d, want 404", w.Code)
	}
}

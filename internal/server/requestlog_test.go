package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store"
)

// TestRequestLog: REST and MCP requests of an account are logged with
// their route or tool, status and request id, newest first; unauthenticated
// requests, other accounts' requests and reads of the log are not; every
// call counts toward its token's month.
func TestRequestLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, h, newAccount := logServer(t)
	_, me := newAccount("me@example.com", "pro")
	_, other := newAccount("other@example.com", "pro")
	const missing = "/v1/cars/00000000-0000-4000-8000-000000000000"
	steps := []struct {
		token, method, path, body string
		status                    int
	}{
		{me, "GET", "/v1/cars/makes", "", 200},
		{me, "GET", missing, "", 404},
		{"", "GET", "/v1/me", "", 401},
		{other, "GET", "/v1/me", "", 200},
		{me, "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_vehicle","arguments":{"type":"car","uuid":"00000000-0000-4000-8000-000000000000"}}}`, 200},
		{me, "POST", "/mcp", ping, 200},
	}
	var notFoundID string
	for _, s := range steps {
		w := serve(h, s.token, s.method, s.path, s.body)
		if w.Code != s.status {
			t.Fatalf("%s %s: %d %s", s.method, s.path, w.Code, w.Body)
		}
		if s.path == missing {
			notFoundID = w.Header().Get("X-Request-Id")
		}
	}
	read := func(token, query string) ([]httpapi.RequestLine, *httptest.ResponseRecorder) {
		t.Helper()
		w := serve(h, token, "GET", "/v1/me/requests"+query, "")
		var body struct {
			Data []httpapi.RequestLine `json:"data"`
			Meta struct{ Total int }   `json:"meta"`
		}
		if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &body) != nil || body.Meta.Total < len(body.Data) {
			t.Fatalf("GET /v1/me/requests%s: %d %s", query, w.Code, w.Body)
		}
		return body.Data, w
	}
	lines, _ := read(me, "")
	type seen struct {
		channel, op string
		status      int
	}
	want := []seen{{"mcp", "ping", 200}, {"mcp", "get_vehicle", 404}, {"rest", "GET /v1/cars/{uuid}", 404}, {"rest", "GET /v1/cars/makes", 200}}
	if len(lines) != len(want) {
		t.Fatalf("log = %+v, want %v", lines, want)
	}
	for i, l := range lines {
		if got := (seen{l.Channel, l.Operation, l.Status}); got != want[i] || l.RequestID == "" || !strings.HasPrefix(l.TokenPrefix, "vds_") || l.DurationMS < 0 {
			t.Errorf("line %d = %+v, want %v", i, l, want[i])
		}
	}
	// Reading the log is not logged, so a second read sees the same lines.
	if again, _ := read(me, ""); len(again) != len(want) {
		t.Errorf("second read: %d lines, want %d", len(again), len(want))
	}
	if errs, _ := read(me, "?status=4xx"); len(errs) != 2 || errs[0].Operation != "get_vehicle" {
		t.Errorf("status=4xx: %+v", errs)
	}
	if byID, _ := read(me, "?request_id="+notFoundID); len(byID) != 1 || byID[0].Operation != "GET /v1/cars/{uuid}" {
		t.Errorf("request_id=%s: %+v", notFoundID, byID)
	}
	if theirs, _ := read(other, "?request_id="+notFoundID); len(theirs) != 0 {
		t.Errorf("another account sees %+v", theirs)
	}
	page, w := read(me, "?per_page=1&page=2")
	if link := w.Header().Get("Link"); len(page) != 1 || page[0].Operation != "get_vehicle" ||
		!strings.Contains(link, `page=3>; rel="next"`) || !strings.Contains(link, `page=4>; rel="last"`) {
		t.Errorf("page 2 of 1: %+v, Link %s", page, link)
	}
	if w := serve(h, me, "GET", "/v1/me/requests?status=teapot", ""); w.Code != http.StatusBadRequest || problemCode(t, w) != "invalid_parameter" {
		t.Errorf("status=teapot: %d %s", w.Code, w.Body)
	}

	// Every call counts toward the token's month, the reads of the log too.
	tok, err := st.TokenByHash(ctx, hash(me))
	if err != nil {
		t.Fatal(err)
	}
	serve(h, me, "GET", "/v1/me", "")
	read(me, "") // writes what is queued
	calls, err := st.TokenCalls(ctx, tok.AccountID, requestlog.Period(time.Now()))
	// 4 logged, 5 reads and a refused one before the last, and /v1/me; the
	// last read counts once it has answered.
	if err != nil || calls[tok.ID] != 11 {
		t.Errorf("calls this month = %v %v, want 11", calls, err)
	}
}

// TestRequestLogHostileText: tool names a client makes up (1 MB, a NUL, an
// escape sequence, a bidi override, a plain unknown one) are logged as "unknown", so the log
// holds a few bytes a line and a full page stays small; the log's reader
// is rate limited like any route.
func TestRequestLogHostileText(t *testing.T) {
	ctx := context.Background()
	st, h, newAccount := logServer(t)
	a, secret := newAccount("hostile@example.com", "pro")
	names := []string{strings.Repeat("x", 1_000_000), "list_makes\x00", "\x1b[2J\x1b]52;c;cHduZWQ=\x07list_makes", "list\u202emakes", "no_such_tool", "list_makes"}
	for _, name := range names {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
			"params": map[string]any{"name": name, "arguments": map[string]any{"type": "car"}}})
		if w := serve(h, secret, "POST", "/mcp", string(body)); w.Code != http.StatusOK {
			t.Fatalf("tools/call %.20q: %d %s", name, w.Code, w.Body)
		}
	}
	w := serve(h, secret, "GET", "/v1/me/requests?per_page=100", "")
	var page struct{ Data []httpapi.RequestLine }
	if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil || w.Code != http.StatusOK {
		t.Fatalf("GET /v1/me/requests: %d %.200s", w.Code, w.Body)
	}
	var ops []string
	for _, l := range page.Data {
		ops = append(ops, l.Operation)
	}
	if want := []string{"list_makes", "unknown", "unknown", "unknown", "unknown", "unknown"}; !slices.Equal(ops, want) {
		t.Errorf("operations logged %q, want %q", ops, want)
	}
	if w.Body.Len() > 2000 {
		t.Errorf("the page of 6 lines is %d bytes", w.Body.Len())
	}

	// A page of 100 lines whose every field is as long as a line takes
	// stays under 64 KiB.
	long := strings.Repeat("{$}/", requestlog.MaxText/4)
	tok, err := st.TokenByHash(ctx, hash(secret))
	if err != nil {
		t.Fatal(err)
	}
	var full []requestlog.Entry
	for i := range 100 {
		full = append(full, requestlog.Entry{AccountID: a.ID, TokenID: tok.ID, At: time.Now(), Channel: requestlog.MCP,
			Operation: long, Status: 599, Duration: time.Hour, RequestID: fmt.Sprintf("%0*d", requestlog.MaxText, i)})
	}
	if err := st.AddRequests(ctx, full, nil, requestlog.Keep); err != nil {
		t.Fatal(err)
	}
	if w := serve(h, secret, "GET", "/v1/me/requests?per_page=100", ""); w.Code != http.StatusOK || w.Body.Len() > 64<<10 ||
		!strings.Contains(w.Body.String(), long) {
		t.Errorf("a full page: %d, %d bytes; want at most %d", w.Code, w.Body.Len(), 64<<10)
	}

	// A free account reads its log 10 times a minute, like any route.
	_, freeSecret := newAccount("free@example.com", "free")
	codes := map[int]int{}
	for range 12 {
		codes[serve(h, freeSecret, "GET", "/v1/me/requests", "").Code]++
	}
	if codes[http.StatusTooManyRequests] == 0 || codes[http.StatusOK] > 10 {
		t.Errorf("12 reads on the free plan: %v, want at most 10 answered and the rest 429", codes)
	}
}

// logServer is a server on an empty store with the free and pro plans, and
// a function that makes an account with a token.
func logServer(t *testing.T) (store.Store, http.Handler, func(email, plan string) (account.Account, string)) {
	ctx := context.Background()
	st := openStore(t)
	cfg := &config.Config{Plans: map[string]config.PlanLimits{"free": config.DefaultPlans["free"], "pro": config.DefaultPlans["pro"]}}
	cfg.Server.AuthCacheTTL = time.Second
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	srv, err := server.New(ctx, cfg, st, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return st, srv.Handler(), func(email, plan string) (account.Account, string) {
		t.Helper()
		a, err := acc.CreateAccount(ctx, email, plan)
		if err != nil {
			t.Fatal(err)
		}
		_, secret, err := acc.CreateToken(ctx, a.ID, "t")
		if err != nil {
			t.Fatal(err)
		}
		return a, secret
	}
}

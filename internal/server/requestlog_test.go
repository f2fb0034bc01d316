package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/server"
)

// TestRequestLog: REST and MCP requests of an account are logged with
// their route or tool, status and request id, newest first; unauthenticated
// requests, other accounts' requests and reads of the log are not; every
// call counts toward its token's month.
func TestRequestLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := openStore(t)
	cfg := &config.Config{Plans: map[string]config.PlanLimits{"free": config.DefaultPlans["free"], "pro": config.DefaultPlans["pro"]}}
	cfg.Server.AuthCacheTTL = time.Second
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	secrets := map[string]string{}
	for _, email := range []string{"me@example.com", "other@example.com"} {
		a, err := acc.CreateAccount(ctx, email, "pro")
		if err != nil {
			t.Fatal(err)
		}
		if _, secrets[email], err = acc.CreateToken(ctx, a.ID, "t"); err != nil {
			t.Fatal(err)
		}
	}
	me, other := secrets["me@example.com"], secrets["other@example.com"]
	srv, err := server.New(ctx, cfg, st, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
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

package storetest

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/store"
)

// testRequestLog: batches are kept newest first up to the bound per
// account, filtered by status range and request id, paged, and counted
// per token and month; another account's lines never show.
func testRequestLog(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := newAccount(t, s, "log@example.com")
	b := newAccount(t, s, "other@example.com")
	tok, _ := newToken(a.ID, "ci")
	must(t, s.CreateToken(ctx, tok, 50), "CreateToken")
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	entry := func(acc string, i, status int) requestlog.Entry {
		return requestlog.Entry{AccountID: acc, TokenID: tok.ID, At: start.Add(time.Duration(i) * time.Second),
			Channel: "rest", Operation: "GET /v1/cars/{uuid}", Status: status, Duration: 1500 * time.Microsecond,
			RequestID: fmt.Sprintf("req-%s-%d", acc[len(acc)-4:], i)}
	}
	var first []requestlog.Entry
	for i := range 4 {
		first = append(first, entry(a.ID, i, 200+200*(i%2))) // 200, 400, 200, 400
	}
	first = append(first, entry(b.ID, 0, 500), entry("acc_deleted", 0, 200))
	calls := map[requestlog.TokenPeriod]int64{{TokenID: tok.ID, Period: "2026-03"}: 4, {TokenID: "tok_deleted", Period: "2026-03"}: 1}
	must(t, s.AddRequests(ctx, first, calls, 5), "AddRequests")
	second := []requestlog.Entry{entry(a.ID, 4, 404), entry(a.ID, 5, 200)}
	second[1].Channel, second[1].Operation = "mcp", "search_vehicles"
	must(t, s.AddRequests(ctx, second, map[requestlog.TokenPeriod]int64{{TokenID: tok.ID, Period: "2026-03"}: 2}, 5), "AddRequests again")

	all, total, err := s.Requests(ctx, a.ID, requestlog.Filter{Limit: 10})
	must(t, err, "Requests")
	// Six written, five kept: the oldest went.
	if total != 5 || len(all) != 5 || all[0].RequestID != second[1].RequestID || all[4].RequestID != first[1].RequestID {
		t.Fatalf("Requests = %d %+v, want the newest 5, newest first", total, all)
	}
	got := all[0]
	if got.Channel != "mcp" || got.Operation != "search_vehicles" || got.Status != 200 || got.TokenPrefix != tok.Prefix ||
		got.Duration != 1500*time.Microsecond || !got.At.Equal(start.Add(5*time.Second)) || got.AccountID != a.ID {
		t.Fatalf("newest line = %+v", got)
	}
	clientErrors, total, err := s.Requests(ctx, a.ID, requestlog.Filter{StatusMin: 400, StatusMax: 499, Limit: 2, Offset: 1})
	must(t, err, "Requests 4xx")
	if total != 3 || len(clientErrors) != 2 || clientErrors[0].RequestID != first[3].RequestID || clientErrors[1].RequestID != first[1].RequestID {
		t.Fatalf("4xx page 2 = %d %+v", total, clientErrors)
	}
	byID, total, err := s.Requests(ctx, a.ID, requestlog.Filter{RequestID: second[0].RequestID, Limit: 10})
	must(t, err, "Requests by id")
	if total != 1 || len(byID) != 1 || byID[0].Status != 404 {
		t.Fatalf("by request id = %d %+v", total, byID)
	}
	if other, total, err := s.Requests(ctx, b.ID, requestlog.Filter{RequestID: second[0].RequestID, Limit: 10}); err != nil || total != 0 || len(other) != 0 {
		t.Fatalf("another account's line: %d %+v %v", total, other, err)
	}
	counts, err := s.TokenCalls(ctx, a.ID, "2026-03")
	must(t, err, "TokenCalls")
	if len(counts) != 1 || counts[tok.ID] != 6 {
		t.Fatalf("TokenCalls = %v, want %s: 6", counts, tok.ID)
	}
	if counts, err := s.TokenCalls(ctx, a.ID, "2026-04"); err != nil || len(counts) != 0 {
		t.Fatalf("TokenCalls of another month = %v %v", counts, err)
	}

	// The writer splits a large batch over calls: lines without counts,
	// counts without lines. Each call prunes what it wrote to.
	third := entry(a.ID, 6, 200)
	must(t, s.AddRequests(ctx, []requestlog.Entry{third}, nil, 5), "AddRequests of lines only")
	must(t, s.AddRequests(ctx, nil, map[requestlog.TokenPeriod]int64{{TokenID: tok.ID, Period: "2026-03"}: 3}, 5), "AddRequests of counts only")
	all, total, err = s.Requests(ctx, a.ID, requestlog.Filter{Limit: 10})
	must(t, err, "Requests after the split batch")
	if total != 5 || len(all) != 5 || all[0].RequestID != third.RequestID || all[4].RequestID != first[2].RequestID {
		t.Fatalf("Requests = %d %+v, want the newest 5, %s first", total, all, third.RequestID)
	}
	if counts, err := s.TokenCalls(ctx, a.ID, "2026-03"); err != nil || counts[tok.ID] != 9 {
		t.Fatalf("TokenCalls after the split batch = %v %v, want %s: 9", counts, err, tok.ID)
	}
}

// poisoning hands the store a NUL in the operation of the lines named
// "poison", as a request would have before the log checked its text.
type poisoning struct{ store.Store }

func (p poisoning) AddRequests(ctx context.Context, entries []requestlog.Entry, calls map[requestlog.TokenPeriod]int64, keep int) error {
	out := slices.Clone(entries)
	for i := range out {
		if out[i].Operation == "poison" {
			out[i].Operation = "list_makes\x00"
		}
	}
	return p.Store.AddRequests(ctx, out, calls, keep)
}

// testRequestLogRefusedLine: a batch holding a line that is not plain text
// fails whole, on both backends; the writer then loses only that line, not
// the other accounts' lines in the same write, nor a count.
func testRequestLogRefusedLine(t *testing.T, s store.Store) {
	ctx := context.Background()
	victim, attacker := newAccount(t, s, "victim@example.com"), newAccount(t, s, "attacker@example.com")
	toks := map[string]string{}
	for _, a := range []account.Account{victim, attacker} {
		tok, _ := newToken(a.ID, "t")
		must(t, s.CreateToken(ctx, tok, 50), "CreateToken")
		toks[a.ID] = tok.ID
	}
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	nul := requestlog.Entry{AccountID: attacker.ID, TokenID: toks[attacker.ID], At: at, Channel: "mcp", Operation: "a\x00b", Status: 404, RequestID: "nul"}
	ok := nul
	ok.AccountID, ok.TokenID, ok.Operation, ok.RequestID = victim.ID, toks[victim.ID], "list_makes", "ok"
	if err := s.AddRequests(ctx, []requestlog.Entry{ok, nul}, nil, requestlog.Keep); err == nil || !strings.Contains(err.Error(), "line 2 of 2: operation") {
		t.Fatalf("AddRequests of a NUL line: %v, want the batch refused naming the line", err)
	}

	l := requestlog.New(poisoning{s}, slog.New(slog.DiscardHandler))
	defer l.Close()
	const n = 300 // more than one transaction's lines
	for i := range n {
		for _, a := range []account.Account{victim, attacker} {
			op := "list_makes"
			if a.ID == attacker.ID && i%100 == 7 {
				op = "poison"
			}
			l.Add(requestlog.Record{At: at.Add(time.Duration(i) * time.Millisecond), AccountID: a.ID, TokenID: toks[a.ID],
				Channel: requestlog.MCP, Operation: op, Status: 200, RequestID: fmt.Sprintf("%s-%d", a.Email[:1], i)})
		}
	}
	l.Flush(ctx)
	for _, c := range []struct {
		a    account.Account
		want int
	}{{victim, n}, {attacker, n - 3}} {
		lines, total, err := s.Requests(ctx, c.a.ID, requestlog.Filter{Limit: requestlog.Keep})
		must(t, err, "Requests")
		if total != c.want || len(lines) != c.want || slices.ContainsFunc(lines, func(e requestlog.Entry) bool { return e.Check() != nil }) {
			t.Errorf("%s: %d lines kept, want %d", c.a.Email, total, c.want)
		}
		calls, err := s.TokenCalls(ctx, c.a.ID, "2026-05")
		if err != nil || calls[toks[c.a.ID]] != n {
			t.Errorf("%s: calls %v %v, want %d", c.a.Email, calls, err, n)
		}
	}
	if l.Failed() != 3 {
		t.Errorf("%d lines lost, want the 3 poisoned", l.Failed())
	}
}

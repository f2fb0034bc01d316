package requestlog_test

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/store"
)

// recording keeps what the writer hands the store; fail makes the next
// write fail.
type recording struct {
	store.RequestLogStore
	mu      sync.Mutex
	fail    bool
	entries []store.RequestEntry
	calls   map[store.TokenPeriod]int64
}

func (r *recording) AddRequests(_ context.Context, entries []store.RequestEntry, calls map[store.TokenPeriod]int64, keep int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if keep != requestlog.Keep {
		panic("keep")
	}
	if r.fail {
		r.fail = false
		return errors.New("database gone")
	}
	r.entries = append(r.entries, entries...)
	for k, n := range calls {
		r.calls[k] += n
	}
	return nil
}

// TestQueueDropsAndClose: a full queue drops lines and counts them, but
// every request counts toward its token; Close writes what is queued, of
// a busy account only its newest Keep lines, in order.
func TestQueueDropsAndClose(t *testing.T) {
	rec := &recording{calls: map[store.TokenPeriod]int64{}}
	l := requestlog.New(rec, slog.New(slog.DiscardHandler))
	at := time.Date(2026, 5, 31, 23, 59, 0, 0, time.UTC)
	add := func(acc string, i int, unlisted bool) {
		l.Add(requestlog.Record{At: at, AccountID: acc, TokenID: "tok_" + acc, Channel: requestlog.REST,
			Operation: "GET /v1/me", Status: 200, RequestID: strconv.Itoa(i), Unlisted: unlisted})
	}
	// The writer takes records every 250 ms: these all arrive before it does.
	for i := range 5 {
		add("b", i, false)
		add("b", i, true) // counted, not queued
	}
	for i := range requestlog.Queue - 5 + 3 {
		add("a", i, false)
	}
	l.Close()
	if l.Dropped() != 3 {
		t.Fatalf("dropped %d, want 3", l.Dropped())
	}
	var a, b []string
	for _, e := range rec.entries {
		if e.AccountID == "a" {
			a = append(a, e.RequestID)
		} else {
			b = append(b, e.RequestID)
		}
	}
	lastQueued := requestlog.Queue - 5 - 1
	if len(a) != requestlog.Keep || a[0] != strconv.Itoa(lastQueued-requestlog.Keep+1) || a[len(a)-1] != strconv.Itoa(lastQueued) {
		t.Fatalf("account a: %d lines from %s to %s; want the newest %d queued, %d to %d", len(a), a[0], a[len(a)-1], requestlog.Keep, lastQueued-requestlog.Keep+1, lastQueued)
	}
	if strings.Join(b, ",") != "0,1,2,3,4" {
		t.Fatalf("account b: lines %v, want 0 to 4 in order", b)
	}
	may := func(acc string) int64 { return rec.calls[store.TokenPeriod{TokenID: "tok_" + acc, Period: "2026-05"}] }
	if may("a") != requestlog.Queue-5+3 || may("b") != 10 {
		t.Fatalf("calls counted %v, want %d for a and 10 for b in 2026-05", rec.calls, requestlog.Queue-5+3)
	}
}

// TestFailedWriteKeepsTheCounts: the lines of a failed write are lost,
// its token counts are written by the next one.
func TestFailedWriteKeepsTheCounts(t *testing.T) {
	rec := &recording{calls: map[store.TokenPeriod]int64{}, fail: true}
	l := requestlog.New(rec, slog.New(slog.DiscardHandler))
	defer l.Close()
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	l.Add(requestlog.Record{At: at, AccountID: "a", TokenID: "t", RequestID: "r1"})
	l.Flush(context.Background())
	l.Add(requestlog.Record{At: at, AccountID: "a", TokenID: "t", RequestID: "r2"})
	l.Flush(context.Background())
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.entries) != 1 || rec.entries[0].RequestID != "r2" || l.Failed() != 1 {
		t.Fatalf("entries %+v, %d failed; want r2 written and r1 lost", rec.entries, l.Failed())
	}
	if got := rec.calls[store.TokenPeriod{TokenID: "t", Period: "2026-11"}]; got != 2 {
		t.Fatalf("calls %v, want both counted", rec.calls)
	}
}

// TestFlush: Flush writes what is queued at once, not at the next tick.
func TestFlush(t *testing.T) {
	rec := &recording{calls: map[store.TokenPeriod]int64{}}
	l := requestlog.New(rec, slog.New(slog.DiscardHandler))
	defer l.Close()
	l.Add(requestlog.Record{At: time.Now(), AccountID: "acc_1", TokenID: "tok_1", RequestID: "r1"})
	l.Flush(context.Background())
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.entries) != 1 || rec.entries[0].RequestID != "r1" {
		t.Fatalf("after Flush: %+v", rec.entries)
	}
}

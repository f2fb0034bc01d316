package requestlog_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/store"
)

// recording keeps what the writer hands the store.
type recording struct {
	store.RequestLogStore
	mu      sync.Mutex
	batches []int
	entries []store.RequestEntry
	calls   map[store.TokenPeriod]int64
}

func (r *recording) AddRequests(_ context.Context, entries []store.RequestEntry, calls map[store.TokenPeriod]int64, keep int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if keep != requestlog.Keep {
		panic("keep")
	}
	r.batches = append(r.batches, len(entries))
	r.entries = append(r.entries, entries...)
	for k, n := range calls {
		r.calls[k] += n
	}
	return nil
}

// TestQueueDropsAndClose: a full queue drops and counts; Close writes every
// queued record in batches of at most Batch, unlisted ones only counted.
func TestQueueDropsAndClose(t *testing.T) {
	rec := &recording{calls: map[store.TokenPeriod]int64{}}
	l := requestlog.New(rec, slog.New(slog.DiscardHandler))
	at := time.Date(2026, 5, 31, 23, 59, 0, 0, time.UTC)
	// The writer takes records every 250 ms: these all arrive before it does.
	for i := range requestlog.Queue + 3 {
		l.Add(requestlog.Record{At: at, AccountID: "acc_1", TokenID: "tok_1", Channel: requestlog.REST,
			Operation: "GET /v1/me", Status: 200, RequestID: "r", Unlisted: i%2 == 1})
	}
	l.Close()
	if l.Dropped() != 3 {
		t.Fatalf("dropped %d, want 3", l.Dropped())
	}
	total := 0
	for _, n := range rec.batches {
		if n > requestlog.Batch {
			t.Fatalf("a batch of %d entries, more than %d", n, requestlog.Batch)
		}
		total += n
	}
	if total != requestlog.Queue/2 || len(rec.entries) != total || rec.entries[0].Operation != "GET /v1/me" {
		t.Fatalf("%d entries written (%v), want %d listed", total, rec.batches, requestlog.Queue/2)
	}
	if got := rec.calls[store.TokenPeriod{TokenID: "tok_1", Period: "2026-05"}]; got != requestlog.Queue {
		t.Fatalf("calls counted %v, want %d for 2026-05", rec.calls, requestlog.Queue)
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

// Package requestlog writes the request log, each account's newest
// authenticated requests, and the per-token monthly call counters, off the
// request path: requests queue a record and never wait; one goroutine
// writes what is queued in batches. See docs/architecture.md.
package requestlog

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vds-dev/vds/internal/store"
)

const (
	// Keep is how many lines of an account's log are kept: the newest.
	Keep = 1000
	// Queue is how many records may wait for the writer; a request that
	// finds the queue full is not logged, and counted.
	Queue = 4096
	// Every is how often the writer takes what is queued: the requests
	// never wake it, which would cost each of them a goroutine switch.
	Every = 250 * time.Millisecond
	// Batch is how many records one transaction writes at most.
	Batch = 500
	// writeTimeout bounds one batch's transaction.
	writeTimeout = 10 * time.Second
)

// Channels of a request.
const (
	REST = "rest"
	MCP  = "mcp"
)

// Record is what a request hands the writer: fixed fields, no formatting,
// so adding one neither allocates nor waits.
type Record struct {
	At                 time.Time
	AccountID, TokenID string
	Channel, Operation string
	RequestID          string
	Status             int
	Duration           time.Duration
	// Unlisted requests count toward the token's calls but are not logged
	// (reading the log itself, which a follower polls).
	Unlisted bool
}

// Log queues records and writes them in batches from one goroutine, and
// reads the log back. Close writes what is queued and stops the writer.
type Log struct {
	st      store.RequestLogStore
	log     *slog.Logger
	queue   chan Record
	dropped atomic.Uint64
	failed  atomic.Uint64
	flush   chan chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// New starts a log writing to st; failed writes are logged to log.
func New(st store.RequestLogStore, log *slog.Logger) *Log {
	w := &Log{st: st, log: log, queue: make(chan Record, Queue), flush: make(chan chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

// Add queues r, or counts it as dropped when the queue is full.
func (w *Log) Add(r Record) {
	select {
	case w.queue <- r:
	default:
		w.dropped.Add(1)
	}
}

// Dropped is how many records were lost to a full queue.
func (w *Log) Dropped() uint64 { return w.dropped.Load() }

// Failed is how many records were lost to failed writes.
func (w *Log) Failed() uint64 { return w.failed.Load() }

// Flush writes what is queued before it returns (or ctx ends), so that a
// reader of the log sees the requests this server answered before.
func (w *Log) Flush(ctx context.Context) {
	written := make(chan struct{})
	select {
	case w.flush <- written:
	case <-w.done:
		return
	case <-ctx.Done():
		return
	}
	select {
	case <-written:
	case <-ctx.Done():
	}
}

// Requests returns a page of the account's log, newest first, after
// writing what this server queued: a caller sees its own last requests.
func (w *Log) Requests(ctx context.Context, accountID string, f store.RequestFilter) ([]store.RequestEntry, int, error) {
	w.Flush(ctx)
	return w.st.Requests(ctx, accountID, f)
}

// TokenCalls returns this month's calls of each of the account's tokens,
// after writing what this server queued.
func (w *Log) TokenCalls(ctx context.Context, accountID string, now time.Time) (map[string]int64, error) {
	w.Flush(ctx)
	return w.st.TokenCalls(ctx, accountID, Period(now))
}

// Period is the month of the token counters that t falls in (UTC).
func Period(t time.Time) string { return t.UTC().Format("2006-01") }

func monthOf(t time.Time) time.Time {
	y, m, _ := t.UTC().Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
}

// StatusRange reads a status filter: "" for any (0, 0), a status ("404")
// or a class ("4xx"); false for anything else.
func StatusRange(s string) (lo, hi int, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return 0, 0, true
	}
	if c, ok := strings.CutSuffix(s, "xx"); ok && len(c) == 1 && c[0] >= '1' && c[0] <= '5' {
		n := int(c[0]-'0') * 100
		return n, n + 99, true
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 100 && n <= 599 {
		return n, n, true
	}
	return 0, 0, false
}

// Close writes every queued record and stops the writer; records added
// later are lost.
func (w *Log) Close() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

func (w *Log) run() {
	defer close(w.done)
	tick := time.NewTicker(Every)
	defer tick.Stop()
	batch := make([]Record, 0, Batch)
	for {
		select {
		case <-tick.C:
			batch = w.drain(batch)
		case written := <-w.flush:
			batch = w.drain(batch)
			close(written)
		case <-w.stop:
			w.drain(batch)
			return
		}
	}
}

// drain writes what is queued now, Batch records at a time.
func (w *Log) drain(batch []Record) []Record {
	for n := len(w.queue); n > 0; {
		batch = batch[:0]
		for ; n > 0 && len(batch) < Batch; n-- {
			batch = append(batch, <-w.queue)
		}
		w.write(batch)
	}
	return batch
}

func (w *Log) write(batch []Record) {
	entries := make([]store.RequestEntry, 0, len(batch))
	calls := map[store.TokenPeriod]int64{}
	var month time.Time
	var period string
	for _, r := range batch {
		// One string per month a batch spans, not one per record.
		if m := monthOf(r.At); !m.Equal(month) {
			month, period = m, Period(m)
		}
		calls[store.TokenPeriod{TokenID: r.TokenID, Period: period}]++
		if r.Unlisted {
			continue
		}
		entries = append(entries, store.RequestEntry{AccountID: r.AccountID, TokenID: r.TokenID, At: r.At,
			Channel: r.Channel, Operation: r.Operation, Status: r.Status, Duration: r.Duration, RequestID: r.RequestID})
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	if err := w.st.AddRequests(ctx, entries, calls, Keep); err != nil {
		w.failed.Add(uint64(len(batch)))
		w.log.Warn("request log write failed; its records are lost", "records", len(batch), "err", err)
	}
}

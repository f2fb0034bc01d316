// Package requestlog writes the request log, each account's newest
// authenticated requests, and the per-token monthly call counters, off the
// request path: a request adds to its token's counter and queues a record,
// and never waits; one goroutine writes the counters and what is queued in
// batches, only the newest Keep lines of each account. See
// docs/architecture.md.
package requestlog

import (
	"context"
	"log/slog"
	"slices"
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
	// Queue is how many records may wait for the writer: a quarter of a
	// second at 64,000 requests a second. A request that finds the queue
	// full is not logged, and counted; its token's call still is.
	Queue = 16384
	// Every is how often the writer takes what is queued: the requests
	// never wake it, which would cost each of them a goroutine switch.
	Every = 250 * time.Millisecond
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
	st    store.RequestLogStore
	log   *slog.Logger
	queue chan Record
	// calls counts each token's requests per month (tokenMonth to
	// *atomic.Int64) until the writer takes them.
	calls   sync.Map
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

// tokenMonth keys a token's calls in a month (year*12 + month - 1).
type tokenMonth struct {
	token string
	month int
}

func monthIndex(t time.Time) int {
	y, m, _ := t.UTC().Date()
	return y*12 + int(m) - 1
}

// Add counts r against its token and queues it for the log, or counts it
// as dropped when the queue is full.
func (w *Log) Add(r Record) {
	k := tokenMonth{r.TokenID, monthIndex(r.At)}
	n, ok := w.calls.Load(k)
	if !ok {
		n, _ = w.calls.LoadOrStore(k, new(atomic.Int64))
	}
	n.(*atomic.Int64).Add(1)
	if r.Unlisted {
		return
	}
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
	var buf []Record
	for {
		select {
		case <-tick.C:
			buf = w.write(buf)
		case written := <-w.flush:
			buf = w.write(buf)
			close(written)
		case <-w.stop:
			w.write(buf)
			return
		}
	}
}

// write writes the counters and what is queued now, in one transaction.
// Of an account's queued records only the newest Keep are written: the
// older would be dropped by the same transaction. buf is reused.
func (w *Log) write(buf []Record) []Record {
	buf = buf[:0]
	for n := len(w.queue); n > 0; n-- {
		buf = append(buf, <-w.queue)
	}
	taken := w.takeCalls()
	if len(buf) == 0 && len(taken) == 0 {
		return buf
	}
	kept := map[string]int{}
	entries := make([]store.RequestEntry, 0, min(len(buf), Keep))
	for i := len(buf) - 1; i >= 0; i-- {
		r := buf[i]
		if kept[r.AccountID] == Keep {
			continue
		}
		kept[r.AccountID]++
		entries = append(entries, store.RequestEntry{AccountID: r.AccountID, TokenID: r.TokenID, At: r.At,
			Channel: r.Channel, Operation: r.Operation, Status: r.Status, Duration: r.Duration, RequestID: r.RequestID})
	}
	slices.Reverse(entries)
	calls := make(map[store.TokenPeriod]int64, len(taken))
	for k, n := range taken {
		calls[store.TokenPeriod{TokenID: k.token, Period: monthPeriod(k.month)}] = n
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	if err := w.st.AddRequests(ctx, entries, calls, Keep); err != nil {
		w.failed.Add(uint64(len(entries)))
		w.putBack(taken)
		w.log.Warn("request log write failed; its lines are lost, the token counts kept for the next write", "lines", len(entries), "err", err)
	}
	return buf
}

// takeCalls takes the token counters, and forgets the counters of months
// before the last one, which no request adds to any more.
func (w *Log) takeCalls() map[tokenMonth]int64 {
	out := map[tokenMonth]int64{}
	last := monthIndex(time.Now()) - 1
	w.calls.Range(func(key, v any) bool {
		k := key.(tokenMonth)
		if n := v.(*atomic.Int64).Swap(0); n != 0 {
			out[k] = n
		} else if k.month < last {
			w.calls.Delete(k)
		}
		return true
	})
	return out
}

// putBack returns the counts of a failed write to the counters.
func (w *Log) putBack(taken map[tokenMonth]int64) {
	for k, n := range taken {
		v, _ := w.calls.LoadOrStore(k, new(atomic.Int64))
		v.(*atomic.Int64).Add(n)
	}
}

func monthPeriod(month int) string {
	return time.Date(month/12, time.Month(month%12+1), 1, 0, 0, 0, 0, time.UTC).Format("2006-01")
}

// Package requestlog writes each account's newest requests and the
// per-token monthly call counters off the request path. See
// docs/architecture.md.
package requestlog

import (
	"context"
	"log/slog"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const (
	// Keep is how many lines of an account's log are kept: the newest.
	Keep = 1000
	// Queue bounds the records waiting for the writer (Every at 80,000
	// requests a second); a full queue drops the line, not the count. The
	// queue's two buffers are live for the server's life and marked in
	// every collection (4,096 records are 0.7 MB, 9 pointers each), so
	// they are taken often rather than made large.
	Queue = 4096
	// Every is how often the writer takes what is queued: requests never
	// wake it, which would cost each a goroutine switch.
	Every = 50 * time.Millisecond
	// WriteEvery is how often the writer writes what it took, unless Flush
	// asks first: a busy account's log costs one write a second, not one a
	// tick.
	WriteEvery = time.Second
	// After a write of n lines the next waits n/WriteRate, from WriteEvery
	// to MaxWriteEvery: a busy account's newest Keep lines are rewritten
	// every 4 s, not every second, so the writer's bursts, which requests
	// wait behind, come a quarter as often. Another replica's reader sees
	// a line up to MaxWriteEvery late.
	WriteRate     = 250
	MaxWriteEvery = 4 * time.Second
	// txRows bounds the lines and counters of one transaction; the writer
	// yields between them, so none holds a P for long (a 1,000-line
	// transaction took 10 ms of CPU on SQLite).
	txRows       = 200
	writeTimeout = 10 * time.Second
)

// Channels of a request.
const (
	REST = "rest"
	MCP  = "mcp"
)

// Record is what a request hands the writer: fixed fields, so adding one
// neither allocates nor waits.
type Record struct {
	At                 time.Time
	AccountID, TokenID string
	Channel, Operation string
	RequestID          string
	Status             int
	Duration           time.Duration
	// Query, Code and Detail are as in Entry, made to Fit by the caller.
	Query, Code, Detail string
	// Unlisted requests count toward the token's calls but are not logged
	// (reading the log itself, which a follower polls).
	Unlisted bool
}

// Log queues records, writes them from one goroutine, and reads them back.
type Log struct {
	st  Store
	log *slog.Logger
	// queued holds the records Add appends until the writer swaps it for
	// spare, which it has emptied: a request takes a lock for an append,
	// and the writer once a tick, not once a record as a channel would.
	mu     sync.Mutex
	queued []Record
	spare  []Record
	// counted counts each token's requests per month (tokenMonth) in the
	// records the writer took; calls (tokenMonth to *atomic.Int64) those
	// Add did not queue, until the writer takes them.
	counted map[tokenMonth]int64
	calls   sync.Map
	dropped atomic.Uint64
	failed  atomic.Uint64
	flush   chan chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	// held, ticks and pause belong to the writer's goroutine: pause is the
	// time from the last write to the next.
	held  map[string]*lines
	ticks int
	pause time.Duration
}

// New starts a log writing to st; failed writes are logged to log.
func New(st Store, log *slog.Logger) *Log {
	w := newLog(st, log)
	tick := time.NewTicker(Every)
	go func() {
		defer tick.Stop()
		w.run(tick.C)
	}()
	return w
}

func newLog(st Store, log *slog.Logger) *Log {
	return &Log{st: st, log: log, counted: map[tokenMonth]int64{}, flush: make(chan chan struct{}), stop: make(chan struct{}),
		done: make(chan struct{}), held: map[string]*lines{}, pause: WriteEvery}
}

// lines is an account's newest lines not yet written, at most Keep.
type lines struct {
	recs   []Record
	oldest int
}

func (l *lines) add(r Record) {
	if len(l.recs) < Keep {
		l.recs = append(l.recs, r)
		return
	}
	l.recs[l.oldest] = r
	l.oldest = (l.oldest + 1) % Keep
}

func (l *lines) appendEntries(out []Entry) []Entry {
	for _, part := range [][]Record{l.recs[l.oldest:], l.recs[:l.oldest]} {
		for _, r := range part {
			out = append(out, Entry{AccountID: r.AccountID, TokenID: r.TokenID, At: r.At,
				Channel: r.Channel, Operation: r.Operation, Status: r.Status, Duration: r.Duration, RequestID: r.RequestID,
				Query: r.Query, Code: r.Code, Detail: r.Detail})
		}
	}
	return out
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

// Add counts r against its token and queues it, unless the queue is full
// or an id or its channel is not Plain. An operation that is not becomes
// Unknown; the query, code and detail are Fit.
func (w *Log) Add(r Record) {
	if r.Unlisted {
		w.count(r)
		return
	}
	if Plain(r.Operation) != nil {
		r.Operation = Unknown
	}
	r.Query, r.Code, r.Detail = Fit(r.Query, QueryAllows), Fit(r.Code, ""), Fit(r.Detail, "")
	if checkFields(r.AccountID, r.TokenID, r.Channel, r.Operation, r.RequestID, r.Code, r.Detail) == nil {
		w.mu.Lock()
		if len(w.queued) < Queue {
			w.queued = append(w.queued, r)
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
	}
	w.dropped.Add(1)
	w.count(r)
}

// count counts a record Add did not queue toward its token.
func (w *Log) count(r Record) {
	k := tokenMonth{r.TokenID, monthIndex(r.At)}
	n, ok := w.calls.Load(k)
	if !ok {
		n, _ = w.calls.LoadOrStore(k, new(atomic.Int64))
	}
	n.(*atomic.Int64).Add(1)
}

// Dropped is how many records were lost to a full queue or refused.
func (w *Log) Dropped() uint64 { return w.dropped.Load() }

// Failed is how many records were lost to failed writes.
func (w *Log) Failed() uint64 { return w.failed.Load() }

// Flush writes what is queued and held before it returns (or ctx ends).
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
func (w *Log) Requests(ctx context.Context, accountID string, f Filter) ([]Entry, int, error) {
	w.Flush(ctx)
	return w.st.Requests(ctx, accountID, f)
}

// TokenCalls returns this month's calls of each of the account's tokens.
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

// Close writes every queued and held record and stops the writer.
func (w *Log) Close() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

// run takes what is queued at each tick and writes every WriteEvery, or at
// once for Flush and Close.
func (w *Log) run(tick <-chan time.Time) {
	defer close(w.done)
	for {
		select {
		case <-tick:
			w.tick()
		case written := <-w.flush:
			w.take()
			w.write()
			close(written)
		case <-w.stop:
			w.take()
			w.write()
			return
		}
	}
}

func (w *Log) tick() {
	w.take()
	if w.ticks++; time.Duration(w.ticks)*Every >= w.pause {
		w.write()
	}
}

func (w *Log) take() {
	w.mu.Lock()
	taken := w.queued
	w.queued = w.spare
	w.mu.Unlock()
	for i := range taken {
		r := &taken[i]
		w.counted[tokenMonth{r.TokenID, monthIndex(r.At)}]++
		l := w.held[r.AccountID]
		if l == nil {
			l = &lines{}
			w.held[r.AccountID] = l
		}
		l.add(*r)
	}
	clear(taken) // the held lines keep what they need
	w.spare = taken[:0]
}

// write writes the held lines and counters in transactions of at most
// txRows, yielding between them; a failed one puts back only its counts and
// is retried in halves, so a refused line loses only itself.
func (w *Log) write() {
	w.ticks = 0
	taken := w.takeCalls()
	n := 0
	for id, l := range w.held {
		if len(l.recs) == 0 {
			delete(w.held, id) // quiet since the last write: its ring goes
		}
		n += len(l.recs)
	}
	w.pause = writePause(n)
	if n == 0 && len(taken) == 0 {
		return
	}
	entries := make([]Entry, 0, n)
	for _, l := range w.held {
		entries = l.appendEntries(entries)
		l.recs, l.oldest = l.recs[:0], 0
	}
	counters := slices.Collect(maps.Keys(taken))
	p := put{st: w.st}
	for start := 0; start < max(len(entries), len(counters)); start += txRows {
		if start > 0 {
			runtime.Gosched()
		}
		batch := entries[min(start, len(entries)):min(start+txRows, len(entries))]
		keys := counters[min(start, len(counters)):min(start+txRows, len(counters))]
		calls := make(map[TokenPeriod]int64, len(keys))
		for _, k := range keys {
			calls[TokenPeriod{TokenID: k.token, Period: monthPeriod(k.month)}] = taken[k]
		}
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		callsLost := p.lines(ctx, batch, calls)
		cancel()
		if callsLost {
			for _, k := range keys {
				w.putBack(k, taken[k])
			}
		}
		if p.ended() {
			for _, k := range counters[min(start+txRows, len(counters)):] {
				w.putBack(k, taken[k])
			}
			p.lost += len(entries) - min(start+txRows, len(entries))
			break
		}
	}
	if p.lost > 0 {
		w.failed.Add(uint64(p.lost))
		w.log.Warn("request log write failed; its lines are lost, the token counts kept for the next write", "lines", p.lost, "err", p.err)
	}
}

// writePause is how long the writer waits after writing n lines.
func writePause(n int) time.Duration {
	return min(max(WriteEvery, time.Duration(n)*time.Second/WriteRate), MaxWriteEvery)
}

// maxFailures failed transactions in a row end a write: the store is down,
// or refuses more lines in a row than bisecting a batch should meet.
const maxFailures = 20

// put writes the batches of one write.
type put struct {
	st     Store
	lost   int
	streak int
	err    error
}

func (p *put) ended() bool { return p.streak >= maxFailures }

// lines writes entries and calls in one transaction; if that fails, each
// half apart, the calls with the first, down to single lines (the calls
// then alone). It reports whether the calls were not written.
func (p *put) lines(ctx context.Context, entries []Entry, calls map[TokenPeriod]int64) (callsLost bool) {
	if p.ended() {
		p.lost += len(entries)
		return len(calls) > 0
	}
	err := p.st.AddRequests(ctx, entries, calls, Keep)
	if err == nil {
		p.streak = 0
		return false
	}
	p.streak++
	p.err = err
	switch {
	case ctx.Err() != nil || len(entries) == 0:
		p.lost += len(entries)
		return len(calls) > 0
	case len(entries) == 1:
		p.lost++
		return len(calls) > 0 && p.lines(ctx, nil, calls)
	}
	h := len(entries) / 2
	callsLost = p.lines(ctx, entries[:h], calls)
	p.lines(ctx, entries[h:], nil)
	return callsLost
}

// takeCalls takes the token counters and forgets those of months before
// the last.
func (w *Log) takeCalls() map[tokenMonth]int64 {
	out := w.counted
	w.counted = map[tokenMonth]int64{}
	last := monthIndex(time.Now()) - 1
	w.calls.Range(func(key, v any) bool {
		k := key.(tokenMonth)
		if n := v.(*atomic.Int64).Swap(0); n != 0 {
			out[k] += n
		} else if k.month < last {
			w.calls.Delete(k)
		}
		return true
	})
	return out
}

// putBack keeps counts a failed write did not write for the next one.
func (w *Log) putBack(k tokenMonth, n int64) { w.counted[k] += n }

func monthPeriod(month int) string {
	return time.Date(month/12, time.Month(month%12+1), 1, 0, 0, 0, 0, time.UTC).Format("2006-01")
}

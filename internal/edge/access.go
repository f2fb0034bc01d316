package edge

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// AccessLogQueue is how many lines may wait for the access log's writer;
// a request that finds the queue full is not logged, and counted.
// Drained every AccessLogEvery, it holds 400,000 requests a second.
const AccessLogQueue = 4096

// AccessLogEvery is how often the writer drains the queue and flushes: the
// requests never wake it, which would cost them a system call.
const AccessLogEvery = 10 * time.Millisecond

// maxLoggedQuery bounds the query string of a line (a request line may be 16 KB).
const maxLoggedQuery = 1024

// accessRecord is what a request hands the writer: fixed fields, no
// formatting, so the request path neither allocates for it nor waits.
type accessRecord struct {
	end                                  time.Time
	id, method, path, query, route, code string
	accountID                            string
	status                               int
	bytes                                int64
	elapsed                              time.Duration
}

// AccessLog writes one line per request from a single goroutine: requests
// queue a record and never block; every AccessLogEvery the writer formats
// what is queued with a slog handler and flushes its buffer. Close drains
// the queue.
type AccessLog struct {
	h       slog.Handler
	flush   func() error
	enabled bool
	queue   chan accessRecord
	dropped atomic.Uint64
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// NewAccessLog starts an access log writing through h, which may write to
// a buffer that flush (nil for none) empties.
func NewAccessLog(h slog.Handler, flush func() error) *AccessLog {
	a := &AccessLog{
		h: h, flush: flush, enabled: h.Enabled(context.Background(), slog.LevelInfo),
		queue: make(chan accessRecord, AccessLogQueue), stop: make(chan struct{}), done: make(chan struct{}),
	}
	go a.run()
	return a
}

// BufferedAccessLog is an access log on w in the format newHandler makes,
// written in batches of whole lines: a line of another logger on the same
// file never lands inside one of its lines.
func BufferedAccessLog(w io.Writer, newHandler func(io.Writer) slog.Handler) *AccessLog {
	b := lineBuffer{bufio.NewWriterSize(w, 64<<10)}
	return NewAccessLog(newHandler(b), b.Flush)
}

// Dropped is how many lines were lost to a full queue.
func (a *AccessLog) Dropped() uint64 { return a.dropped.Load() }

// Close writes every queued line, flushes and stops the writer; lines
// queued later are lost.
func (a *AccessLog) Close() {
	a.once.Do(func() { close(a.stop) })
	<-a.done
}

func (a *AccessLog) add(rec accessRecord) {
	select {
	case a.queue <- rec:
	default:
		a.dropped.Add(1)
	}
}

func (a *AccessLog) run() {
	defer close(a.done)
	tick := time.NewTicker(AccessLogEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			a.drain()
		case <-a.stop:
			a.drain()
			return
		}
	}
}

// drain writes the queued lines and flushes them.
func (a *AccessLog) drain() {
	for n := len(a.queue); n > 0; n-- {
		a.write(<-a.queue)
	}
	if a.flush != nil {
		_ = a.flush() // nowhere to report a failing log
	}
}

func (a *AccessLog) write(rec accessRecord) {
	r := slog.NewRecord(rec.end, slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("request_id", rec.id), slog.String("method", rec.method), slog.String("path", rec.path))
	if rec.query != "" {
		r.AddAttrs(slog.String("query", redactQuery(rec.query)))
	}
	r.AddAttrs(slog.String("route", rec.route), slog.Int("status", rec.status),
		slog.Float64("duration_ms", float64(rec.elapsed.Microseconds())/1000),
		slog.Int64("bytes", rec.bytes), slog.String("account_id", rec.accountID))
	if rec.code != "" {
		r.AddAttrs(slog.String("code", rec.code))
	}
	_ = a.h.Handle(context.Background(), r)
}

// lineBuffer flushes before a line that does not fit, so that each write
// to the file holds whole lines (slog handlers write a record at once).
type lineBuffer struct{ *bufio.Writer }

func (b lineBuffer) Write(p []byte) (int, error) {
	if b.Available() < len(p) && b.Buffered() > 0 {
		if err := b.Flush(); err != nil {
			return 0, err
		}
	}
	return b.Writer.Write(p)
}

// secretWords mark a query parameter whose value is never logged.
var secretWords = []string{"token", "key", "secret", "passw", "pwd", "auth", "sig", "session", "credential", "cookie"}

// redactQuery replaces the values of parameters whose names suggest a
// secret, and of any that hold a vds token, with REDACTED.
func redactQuery(q string) string {
	var b strings.Builder
	for i, part := range strings.Split(q, "&") {
		if i > 0 {
			b.WriteByte('&')
		}
		name, _, _ := strings.Cut(part, "=")
		if secretParam(part, name) {
			b.WriteString(name)
			b.WriteString("=REDACTED")
			continue
		}
		b.WriteString(part)
	}
	s := b.String()
	if len(s) > maxLoggedQuery {
		s = s[:maxLoggedQuery] + "...(truncated)"
	}
	return s
}

func secretParam(part, name string) bool {
	if plain, err := url.QueryUnescape(part); err == nil {
		part = plain
	}
	if strings.Contains(strings.ToLower(part), "vds_") {
		return true
	}
	if plain, err := url.QueryUnescape(name); err == nil {
		name = plain
	}
	name = strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

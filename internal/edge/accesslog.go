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
	"unicode/utf8"
)

// AccessLogQueue bounds the lines waiting for the writer; a full queue
// drops the line, and counts it.
const AccessLogQueue = 4096

// AccessLogEvery is how often the writer drains the queue: requests never
// wake it, which would cost them a system call.
const AccessLogEvery = 10 * time.Millisecond

// maxLoggedQuery bounds the query string of a line (a request line may be 16 KB).
const maxLoggedQuery = 1024

// accessRecord is what a request hands the writer: fixed fields, so the
// request path neither allocates nor waits.
type accessRecord struct {
	end                                  time.Time
	id, method, path, query, route, code string
	accountID                            string
	status                               int
	bytes                                int64
	elapsed                              time.Duration
}

// AccessLog writes one line per request from a single goroutine.
type AccessLog struct {
	line    func(accessRecord) // formats and writes one line
	flush   func() error
	enabled bool
	queue   chan accessRecord
	dropped atomic.Uint64
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// NewAccessLog starts an access log writing through any slog.Handler h,
// which may write to a buffer that flush (nil for none) empties. vds serve
// uses BufferedAccessLog, whose encoder is several times faster.
func NewAccessLog(h slog.Handler, flush func() error) *AccessLog {
	return startAccessLog(func(rec accessRecord) { _ = h.Handle(context.Background(), rec.slogRecord()) },
		flush, h.Enabled(context.Background(), slog.LevelInfo))
}

// BufferedAccessLog writes as slog's handler for f would, in whole-line batches.
func BufferedAccessLog(w io.Writer, f LineFormat, level slog.Leveler) *AccessLog {
	b := lineBuffer{bufio.NewWriterSize(w, 64<<10)}
	e := &lineEncoder{format: f, w: b}
	return startAccessLog(e.write, b.Flush, level.Level() <= slog.LevelInfo)
}

func startAccessLog(line func(accessRecord), flush func() error, enabled bool) *AccessLog {
	a := &AccessLog{
		line: line, flush: flush, enabled: enabled,
		queue: make(chan accessRecord, AccessLogQueue), stop: make(chan struct{}), done: make(chan struct{}),
	}
	go a.run()
	return a
}

type lineEncoder struct {
	format LineFormat
	w      io.Writer
	buf    []byte
}

func (e *lineEncoder) write(rec accessRecord) {
	e.buf = appendAccessLine(e.buf[:0], e.format, &rec)
	_, _ = e.w.Write(e.buf) // nowhere to report a failing log
}

// Dropped is how many lines were lost to a full queue.
func (a *AccessLog) Dropped() uint64 { return a.dropped.Load() }

// Close writes every queued line, flushes and stops the writer.
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

func (a *AccessLog) drain() {
	for n := len(a.queue); n > 0; n-- {
		a.line(<-a.queue)
	}
	if a.flush != nil {
		_ = a.flush() // nowhere to report a failing log
	}
}

func (rec *accessRecord) slogRecord() slog.Record {
	r := slog.NewRecord(rec.end, slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("request_id", rec.id), slog.String("method", rec.method), slog.String("path", redactPath(rec.path)))
	if rec.query != "" {
		r.AddAttrs(slog.String("query", redactQuery(rec.query)))
	}
	r.AddAttrs(slog.String("route", rec.route), slog.Int("status", rec.status),
		slog.Float64("duration_ms", durationMillis(rec.elapsed)),
		slog.Int64("bytes", rec.bytes), slog.String("account_id", rec.accountID))
	if rec.code != "" {
		r.AddAttrs(slog.String("code", rec.code))
	}
	return r
}

// lineBuffer flushes before a line that does not fit, so each write to the
// file holds whole lines.
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
var secretWords = []string{"token", "key", "secret", "pass", "pw", "auth", "sig", "session", "credential", "cookie", "jwt", "bearer"}

// redactQuery replaces with REDACTED the values of parameters whose names
// suggest a secret or that hold a vds token; pairs split at '&' and ';'. A
// clean query is not copied.
func redactQuery(q string) string {
	var b strings.Builder // written from the first secret on
	redacted := false
	for rest := q; ; {
		start := len(q) - len(rest)
		part := rest
		i := strings.IndexAny(rest, "&;")
		if i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		}
		name, _, _ := strings.Cut(part, "=")
		secret := secretParam(part, name)
		if secret && !redacted {
			redacted = true
			b.Grow(len(q))
			b.WriteString(q[:start])
		}
		if redacted {
			if secret {
				b.WriteString(name)
				b.WriteString("=REDACTED")
			} else {
				b.WriteString(part)
			}
			if i >= 0 {
				b.WriteByte(q[start+i])
			}
		}
		if i < 0 {
			break
		}
	}
	s := q
	if redacted {
		s = b.String()
	}
	if len(s) > maxLoggedQuery {
		s = s[:maxLoggedQuery] + "...(truncated)"
	}
	return s
}

// redactPath replaces with REDACTED each path segment that holds a vds
// token; a clean path is not copied.
func redactPath(p string) string {
	if !containsFold(foldable(p), "vds_") {
		return p
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if containsFold(foldable(s), "vds_") {
			segs[i] = "REDACTED"
		}
	}
	return strings.Join(segs, "/")
}

func secretParam(part, name string) bool {
	// Only '%' and '+' unescape to something else, and name begins part.
	if strings.IndexByte(part, '%') >= 0 || strings.IndexByte(part, '+') >= 0 {
		part, name = unescapeQuery(part), unescapeQuery(name)
	}
	if containsFold(foldable(part), "vds_") {
		return true
	}
	name = foldable(name)
	for _, w := range secretWords {
		if containsFold(name, w) {
			return true
		}
	}
	return false
}

// unescapeQuery is url.QueryUnescape's result, or s when that fails.
func unescapeQuery(s string) string {
	if plain, err := url.QueryUnescape(s); err == nil {
		return plain
	}
	return s
}

// foldable is s for containsFold: s when ASCII, else strings.ToLower(s),
// since Unicode lower-cases a few letters to ASCII ones (Kelvin sign to 'k').
func foldable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ToLower(s)
		}
	}
	return s
}

// containsFold reports whether s holds sub (lower-case ASCII), ignoring
// ASCII case in s.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && lowerASCII(s[i+j]) == sub[j] {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

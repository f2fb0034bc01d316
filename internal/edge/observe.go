package edge

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/vds-dev/vds/internal/requestlog"
)

type recorder struct {
	http.ResponseWriter
	status   int
	bytes    int64
	beforeWH func(status int)
}

// BeforeStatus calls hook once, just before the status is written. It is
// no http.Flusher, so mcp-go never upgrades a response to a stream.
func BeforeStatus(w http.ResponseWriter, hook func(status int)) http.ResponseWriter {
	return &recorder{ResponseWriter: w, beforeWH: hook}
}

func (rw *recorder) WriteHeader(status int) {
	if rw.status != 0 {
		return
	}
	rw.status = status
	if rw.beforeWH != nil {
		rw.beforeWH(status)
	}
	rw.ResponseWriter.WriteHeader(status)
}

func (rw *recorder) Write(b []byte) (int, error) {
	if rw.status == 0 {
		rw.WriteHeader(http.StatusOK)
	}
	n, err := rw.ResponseWriter.Write(b)
	rw.bytes += int64(n)
	return n, err
}

func (rw *recorder) Unwrap() http.ResponseWriter { return rw.ResponseWriter }

// Unmatched labels requests that no route matched in metrics and logs.
const Unmatched = "unmatched"

// Observer is where Observe reports requests.
type Observer struct {
	// Log is the base of the request loggers (panics, failures).
	Log *slog.Logger
	// Access receives one line per request; nil writes none.
	Access *AccessLog
	// Metrics counts requests; nil counts none.
	Metrics RequestMetrics
	// Requests receives every authenticated request; nil keeps none.
	Requests *requestlog.Log
	// TrustedProxies are the peers whose X-Forwarded-For and
	// X-Forwarded-Proto count (ClientAddr, IsHTTPS); nil trusts none.
	TrustedProxies []netip.Prefix
}

// RequestMetrics counts served requests.
type RequestMetrics interface {
	Served(Served)
}

// Served describes a request when its handler returned.
type Served struct {
	Method string
	// Route is the ServeMux pattern that matched, or Unmatched.
	Route  string
	Status int
	// Code is the problem code of an error response, else "".
	Code    string
	Elapsed time.Duration
}

// Observe assigns a request id, recovers panics and reports every request to o.
func Observe(o Observer, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := headerValue(r.Header, "X-Request-Id")
		if !validRequestID(id) {
			id = NewRequestID()
		}
		st := &request{Context: r.Context(), start: start, id: id, log: o.Log, rec: recorder{ResponseWriter: w}, idValue: [1]string{id}, proxies: o.TrustedProxies}
		w.Header()["X-Request-Id"] = st.idValue[:]
		r = r.WithContext(st)
		rec := &st.rec
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				Logger(r.Context()).Error("panic", "panic", fmt.Sprint(v))
				if rec.status == 0 {
					WriteProblem(rec, r, NewProblem(r, CodeInternalError, internalDetail))
				}
			}
			end := time.Now()
			// The mux set r.Pattern on the request it was given, which is r.
			route := r.Pattern
			if st.unmatched || route == "" {
				route = Unmatched
			}
			if o.Metrics != nil {
				o.Metrics.Served(Served{Method: r.Method, Route: route, Status: rec.status, Code: st.code, Elapsed: end.Sub(start)})
			}
			if o.Access != nil && o.Access.enabled {
				o.Access.add(accessRecord{end: end, id: id, method: r.Method, path: r.URL.Path, query: r.URL.RawQuery,
					route: route, code: st.code, accountID: st.accountID, status: rec.status, bytes: rec.bytes, elapsed: end.Sub(start)})
			}
			if o.Requests != nil && st.principal != nil {
				o.Requests.Add(logRecord(st, route, r.URL.RawQuery, rec.status, end, end.Sub(start)))
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

const mcpRoute = "/mcp"

func logRecord(st *request, route, query string, status int, end time.Time, elapsed time.Duration) requestlog.Record {
	ch, op := requestlog.REST, route
	if route == mcpRoute {
		ch = requestlog.MCP
		if st.operation != "" {
			op = st.operation
		}
		if st.opStatus != 0 {
			status = st.opStatus
		}
	}
	if status == 0 {
		status = http.StatusOK
	}
	rec := requestlog.Record{At: end, AccountID: st.principal.Account.ID, TokenID: st.principal.TokenID, Channel: ch,
		Operation: op, RequestID: st.id, Status: status, Duration: elapsed, Unlisted: st.unlisted}
	if query != "" {
		rec.Query = redactQuery(query)
	}
	rec.Code, rec.Detail = st.code, st.detail
	return rec
}

var gzipPool = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

// Content codings a body compressed in advance may be sent in (SendBody).
const (
	CodingGzip = "gzip"
	CodingZstd = "zstd"
)

type compressWriter struct {
	http.ResponseWriter
	// gzip: the client takes gzip, so what the handler writes is
	// compressed, by gz, taken from the pool at the first write.
	gzip bool
	gz   *gzip.Writer
	// best is the coding the client prefers of those SendBody may send.
	best string
	// bodiless: a 204 or 304, which has no body to compress.
	bodiless bool
	// precompressed: the handler sends a body compressed in advance
	// (SendBody), which passes through with its length.
	precompressed bool
}

func (g *compressWriter) WriteHeader(status int) {
	if !g.precompressed && g.gzip {
		g.Header().Del("Content-Length")
	}
	if status == http.StatusNoContent || status == http.StatusNotModified {
		g.bodiless = true
		g.Header().Del("Content-Encoding")
	}
	g.ResponseWriter.WriteHeader(status)
}

func (g *compressWriter) Write(b []byte) (int, error) {
	if g.bodiless {
		return 0, http.ErrBodyNotAllowed
	}
	if g.precompressed || !g.gzip {
		return g.ResponseWriter.Write(b)
	}
	return g.compressor().Write(b)
}

// finish ends the gzip stream; with no body written, an empty stream.
func (g *compressWriter) finish() {
	if !g.gzip || g.bodiless || g.precompressed {
		return
	}
	_ = g.compressor().Close()
	gzipPool.Put(g.gz)
}

// compressor takes a gzip writer from the pool at the first use.
func (g *compressWriter) compressor() *gzip.Writer {
	if g.gz == nil {
		g.gz = gzipPool.Get().(*gzip.Writer)
		g.gz.Reset(g.ResponseWriter)
	}
	return g.gz
}

// FlushError sends what is compressed so far, for event streams.
func (g *compressWriter) FlushError() error {
	if g.gz != nil {
		if err := g.gz.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(g.ResponseWriter).Flush()
}

func (g *compressWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// Compress compresses responses with gzip for clients that accept it, and
// lets a handler send a body compressed in advance, in gzip or zstd
// (Negotiated, SendBody). A HEAD answer is never compressed.
func Compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		AddVary(w.Header(), "Accept-Encoding")
		if r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		ae := r.Header["Accept-Encoding"]
		z, g := accepts(ae, CodingZstd), accepts(ae, CodingGzip)
		var best string
		switch {
		case z > 0 && z >= g:
			best = CodingZstd
		case g > 0:
			best = CodingGzip
		default:
			next.ServeHTTP(w, r)
			return
		}
		var cw *compressWriter
		if st := requestFrom(r.Context()); st != nil && st.cw.ResponseWriter == nil {
			cw = &st.cw // inside Observe: no allocation of its own
		} else {
			cw = new(compressWriter)
		}
		*cw = compressWriter{ResponseWriter: w, best: best}
		if g > 0 {
			w.Header()["Content-Encoding"] = gzipEncoding
			cw.gzip = true
		}
		defer cw.finish()
		next.ServeHTTP(cw, r)
	})
}

// compressorOf finds Compress's writer under w, through writers that unwrap.
func compressorOf(w http.ResponseWriter) *compressWriter {
	for {
		if cw, ok := w.(*compressWriter); ok {
			return cw
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return nil
		}
		w = u.Unwrap()
	}
}

// Negotiated is the coding SendBody should send w's body in: zstd or
// gzip, whichever the client prefers (zstd on a tie), or "" for none.
func Negotiated(w http.ResponseWriter) string {
	if cw := compressorOf(w); cw != nil {
		return cw.best
	}
	return ""
}

// Body is a finished body in a content coding ("" for none) with its
// Content-Length value, made once for a body sent many times.
type Body struct {
	Bytes  []byte
	Coding string
	// length and encoding are header values, shared as AddVary's are.
	length, encoding []string
}

// NewBody returns b in coding as a Body.
func NewBody(b []byte, coding string) *Body {
	body := &Body{Bytes: b, Coding: coding, length: []string{strconv.Itoa(len(b))}}
	if coding != "" {
		body.encoding = []string{coding}
	}
	return body
}

// SendBody is Send for a Body, whose coding is Negotiated's: a body
// compressed in advance passes through Compress and the writers around it.
func SendBody(w http.ResponseWriter, status int, contentType string, b *Body) {
	if cw := compressorOf(w); cw != nil && b.Coding != "" {
		cw.precompressed = true
		w.Header()["Content-Encoding"] = b.encoding
	}
	send(w, status, contentType, b.Bytes, b.length)
}

// Shared Vary values: a header map takes a shared slice as it is, since
// nothing writes into a value in place and Add appends to a copy.
var (
	gzipEncoding     = []string{CodingGzip}
	varyEncoding     = []string{"Accept-Encoding"}
	varyEncodingAuth = []string{"Accept-Encoding", "Authorization"}
)

// AddVary adds name to hd's Vary field.
func AddVary(hd http.Header, name string) {
	v := hd["Vary"]
	switch {
	case len(v) == 0 && name == "Accept-Encoding":
		hd["Vary"] = varyEncoding
	case len(v) == 1 && v[0] == "Accept-Encoding" && name == "Authorization":
		hd["Vary"] = varyEncodingAuth
	default:
		hd.Add("Vary", name)
	}
}

// accepts reads coding's q in Accept-Encoding fields: 0 when absent or
// refused ("gzip;q=0"), 1 when given without q.
func accepts(fields []string, coding string) float64 {
	for _, h := range fields {
		for part := range strings.SplitSeq(h, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if !strings.EqualFold(strings.TrimSpace(name), coding) {
				continue
			}
			for p := range strings.SplitSeq(params, ";") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
					q, err := strconv.ParseFloat(v, 64)
					if err != nil || q < 0 {
						return 0
					}
					return min(q, 1)
				}
			}
			return 1
		}
	}
	return 0
}

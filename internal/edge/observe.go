package edge

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

type accessLog struct{ accountID string }

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

// Observe assigns a request id, recovers panics into a 500 problem, and
// logs one line per request, without the Authorization header or query.
func Observe(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !validRequestID(id) {
			id = NewRequestID()
		}
		w.Header().Set("X-Request-Id", id)
		al := &accessLog{}
		l := log.With("request_id", id)
		ctx := context.WithValue(r.Context(), requestIDKey{}, id)
		ctx = context.WithValue(ctx, loggerKey{}, l)
		ctx = context.WithValue(ctx, accessLogKey{}, al)
		r = r.WithContext(ctx)
		rec := &recorder{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				l.Error("panic", "panic", fmt.Sprint(v))
				if rec.status == 0 {
					WriteProblem(rec, r, NewProblem(r, CodeInternalError, internalDetail))
				}
			}
			l.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", rec.status), slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
				slog.Int64("bytes", rec.bytes), slog.String("account_id", al.accountID))
		}()
		next.ServeHTTP(rec, r)
	})
}

var gzipPool = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}

type gzipWriter struct {
	http.ResponseWriter
	gz *gzip.Writer
	// bodiless: a 204 or 304, which has no body to compress.
	bodiless bool
}

func (g *gzipWriter) WriteHeader(status int) {
	g.Header().Del("Content-Length")
	if status == http.StatusNoContent || status == http.StatusNotModified {
		g.bodiless = true
		g.Header().Del("Content-Encoding")
	}
	g.ResponseWriter.WriteHeader(status)
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if g.bodiless {
		return 0, http.ErrBodyNotAllowed
	}
	return g.gz.Write(b)
}

// Gzip compresses responses for clients that accept it.
func Gzip(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if !acceptsGzip(r.Header.Get("Accept-Encoding")) || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		gz := gzipPool.Get().(*gzip.Writer)
		gz.Reset(w)
		gw := &gzipWriter{ResponseWriter: w, gz: gz}
		defer func() {
			if !gw.bodiless {
				_ = gz.Close()
			}
			gzipPool.Put(gz)
		}()
		next.ServeHTTP(gw, r)
	})
}

// acceptsGzip reads an Accept-Encoding value; "gzip;q=0" refuses gzip.
func acceptsGzip(h string) bool {
	for part := range strings.SplitSeq(h, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		for p := range strings.SplitSeq(params, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				q, err := strconv.ParseFloat(v, 64)
				return err == nil && q > 0
			}
		}
		return true
	}
	return false
}

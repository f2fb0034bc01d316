package edge

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"
)

// slogLine is rec's line as slog's handler for f writes it: the reference
// appendAccessLine must match.
func slogLine(t testing.TB, f LineFormat, rec *accessRecord) string {
	var out bytes.Buffer
	var h slog.Handler = slog.NewJSONHandler(&out, nil)
	if f == TextLines {
		h = slog.NewTextHandler(&out, nil)
	}
	if err := h.Handle(context.Background(), rec.slogRecord()); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func requireSlogLine(t *testing.T, rec *accessRecord) {
	t.Helper()
	for _, f := range []LineFormat{JSONLines, TextLines} {
		want := slogLine(t, f, rec)
		if got := string(appendAccessLine(nil, f, rec)); got != want {
			t.Errorf("format %d, record %+v:\n got %q\nwant %q", f, *rec, got, want)
		}
	}
}

// TestAccessLineMatchesSlog: the encoder writes the bytes slog's JSON and
// text handlers write, for values each format escapes or quotes.
func TestAccessLineMatchesSlog(t *testing.T) {
	t.Parallel()
	end := time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.UTC)
	base := accessRecord{end: end, id: "0123456789abcdef01234567", method: "GET", path: "/v1/cars", query: "make=Toyota",
		route: "GET /v1/cars", accountID: "acc_xjdv34jrfd624272", status: 200, bytes: 1234, elapsed: 1500 * time.Microsecond}
	tricky := []string{"", " ", "=", "a=b", "a b", `"`, `say "hi"`, `\`, `C:\path`, "line\nbreak", "tab\there", "cr\r",
		"\x00\x01\x1f\x7f", "\xff", "ok\xc3", "\xed\xa0\x80", "é", "日本語", "\u00a0", "\u2028\u2029", "\u200b", "\ufffd", "ünïcödé=1",
		"plain", "-", "{}[]", "<&>"}
	var recs []accessRecord
	for _, s := range tricky {
		for _, set := range []func(*accessRecord){
			func(r *accessRecord) { r.id = s },
			func(r *accessRecord) { r.method = s },
			func(r *accessRecord) { r.path = s },
			func(r *accessRecord) { r.query = s },
			func(r *accessRecord) { r.route = s },
			func(r *accessRecord) { r.accountID = s },
			func(r *accessRecord) { r.code = s },
		} {
			r := base
			set(&r)
			recs = append(recs, r)
		}
	}
	for _, d := range []time.Duration{0, time.Nanosecond, time.Microsecond, 999 * time.Microsecond, time.Millisecond,
		1234567 * time.Microsecond, 25 * time.Minute, 100 * time.Hour, -3 * time.Microsecond, math.MaxInt64, math.MinInt64} {
		r := base
		r.elapsed = d
		recs = append(recs, r)
	}
	for _, tm := range []time.Time{{}, time.Unix(0, 0), end.Truncate(time.Second), end.Truncate(time.Millisecond),
		end.In(time.FixedZone("", -(7*3600 + 30*60))), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Now()} {
		r := base
		r.end = tm
		recs = append(recs, r)
	}
	recs = append(recs,
		accessRecord{end: end, route: "GET /v1/cars/{uuid}", status: 401, code: "unauthorized", query: "api_key=k1&Token=k2&q=vds_k3&make=Ford"},
		accessRecord{end: end, route: "unmatched", status: 404, code: "not_found", bytes: math.MaxInt64, query: strings.Repeat("a=b&", 300)},
		accessRecord{end: end, status: -1, bytes: -1, query: "password=" + strings.Repeat("x", 2000)})
	for i := range recs {
		requireSlogLine(t, &recs[i])
	}
}

// FuzzAccessLine compares the encoder with slog's handlers on random
// fields.
func FuzzAccessLine(f *testing.F) {
	f.Add("0123456789abcdef01234567", "GET", "/v1/cars", "make=Toyota&api_key=x", "GET /v1/cars", "", "acc_1", 200, int64(17), int64(1500000), int64(1773500966535897932))
	f.Add("a b", "\xff", "line\nbreak", "", "x=y", "code\t", "\u2028", -1, int64(-1), int64(math.MaxInt64), int64(0))
	f.Fuzz(func(t *testing.T, id, method, path, query, route, code, accountID string, status int, n, elapsed, unixNano int64) {
		rec := accessRecord{end: time.Unix(0, unixNano).UTC(), id: id, method: method, path: path, query: query, route: route,
			code: code, accountID: accountID, status: status, bytes: n, elapsed: time.Duration(elapsed)}
		requireSlogLine(t, &rec)
	})
}

// TestAccessLineAllocs: in steady state a line allocates nothing, from
// the queue to the writer's buffer.
func TestAccessLineAllocs(t *testing.T) {
	for _, f := range []LineFormat{JSONLines, TextLines} {
		e := &lineEncoder{format: f, w: lineBuffer{bufio.NewWriterSize(io.Discard, 4096)}}
		// Not started: the test drains it in place of the writer goroutine.
		a := &AccessLog{line: e.write, queue: make(chan accessRecord, 1)}
		rec := benchRecord()
		if n := testing.AllocsPerRun(100, func() { a.add(rec); a.drain() }); n != 0 {
			t.Errorf("format %d: %v allocations a line, want 0", f, n)
		}
	}
}

func benchRecord() accessRecord {
	return accessRecord{end: time.Now(), id: "6f1c2e9a0b3d4c5e6f708192", method: "GET", path: "/v1/cars", query: "make=Toyota",
		route: "GET /v1/cars", accountID: "acc_xjdv34jrfd624272", status: 200, bytes: 18734, elapsed: 1843 * time.Microsecond}
}

// BenchmarkAccessLine is the writer's cost a line, formatting into the
// 64 KB buffer vds serve uses: through slog's handler, as before, and
// with the encoder.
func BenchmarkAccessLine(b *testing.B) {
	for _, f := range []struct {
		name   string
		format LineFormat
		h      func(io.Writer) slog.Handler
	}{
		{"json", JSONLines, func(w io.Writer) slog.Handler { return slog.NewJSONHandler(w, nil) }},
		{"text", TextLines, func(w io.Writer) slog.Handler { return slog.NewTextHandler(w, nil) }},
	} {
		rec := benchRecord()
		b.Run(f.name+"/slog", func(b *testing.B) {
			h := f.h(lineBuffer{bufio.NewWriterSize(io.Discard, 64<<10)})
			b.ReportAllocs()
			for b.Loop() {
				_ = h.Handle(context.Background(), rec.slogRecord())
			}
		})
		b.Run(f.name+"/encoder", func(b *testing.B) {
			e := &lineEncoder{format: f.format, w: lineBuffer{bufio.NewWriterSize(io.Discard, 64<<10)}}
			b.ReportAllocs()
			for b.Loop() {
				e.write(rec)
			}
		})
	}
}

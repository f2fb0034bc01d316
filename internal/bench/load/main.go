// Command load drives one URL over HTTP/1.1 keep-alive connections, open
// loop at a fixed rate (-rate) or closed loop (-rate 0), and prints the
// achieved rate, errors and latency percentiles. Open loop, each request's
// latency runs from its scheduled start, as wrk2 and vegeta measure, so a
// slow answer delays no later measurement (no coordinated omission). It
// speaks HTTP/1.1 on raw connections: net/http's client would cost more
// CPU than the servers it measures on the same cores.
//
//	go run ./internal/bench/load -url http://127.0.0.1:8080/v1/cars -rate 6000 -H 'Accept-Encoding: gzip'
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type headers []string

func (h *headers) String() string     { return strings.Join(*h, ", ") }
func (h *headers) Set(v string) error { *h = append(*h, v); return nil }

// Result is what one run measured; -json prints it.
type Result struct {
	Target   float64 `json:"target_rps"`
	Achieved float64 `json:"achieved_rps"`
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	// Late counts requests sent over a millisecond after their scheduled
	// start: the generator fell behind (too few connections, or no CPU).
	Late  int     `json:"late"`
	P50   float64 `json:"p50_ms"`
	P99   float64 `json:"p99_ms"`
	P999  float64 `json:"p999_ms"`
	Max   float64 `json:"max_ms"`
	Bytes int64   `json:"body_bytes"`
}

func main() {
	var hs headers
	target := flag.String("url", "", "http:// URL to request (GET)")
	rate := flag.Float64("rate", 0, "requests per second, open loop; 0 runs closed loop")
	conns := flag.Int("c", 64, "connections")
	duration := flag.Duration("d", 10*time.Second, "how long to send requests")
	asJSON := flag.Bool("json", false, "print the result as JSON")
	flag.Var(&hs, "H", "request header, Name: value (repeatable)")
	flag.Parse()
	req, addr, err := request(*target, hs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(2)
	}
	res, err := run(addr, req, *rate, *conns, *duration)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	if *asJSON {
		_ = json.NewEncoder(os.Stdout).Encode(res)
		return
	}
	fmt.Printf("target %.0f/s achieved %.0f/s requests %d errors %d late %d p50 %.2fms p99 %.2fms p99.9 %.2fms max %.2fms\n",
		res.Target, res.Achieved, res.Requests, res.Errors, res.Late, res.P50, res.P99, res.P999, res.Max)
}

// request builds the bytes of a GET of rawURL and the address to dial.
func request(rawURL string, hs []string) ([]byte, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return nil, "", fmt.Errorf("-url %q: want an http:// URL", rawURL)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: vds-load\r\n", u.RequestURI(), u.Host)
	for _, h := range hs {
		name, value, ok := strings.Cut(h, ":")
		if !ok {
			return nil, "", fmt.Errorf("-H %q: want Name: value", h)
		}
		fmt.Fprintf(&b, "%s: %s\r\n", strings.TrimSpace(name), strings.TrimSpace(value))
	}
	b.WriteString("\r\n")
	addr := u.Host
	if u.Port() == "" {
		addr += ":80"
	}
	return []byte(b.String()), addr, nil
}

// worker is one connection's share of the run.
type worker struct {
	lat   []time.Duration
	errs  int
	late  int
	bytes int64
}

func run(addr string, req []byte, rate float64, conns int, duration time.Duration) (Result, error) {
	// Fail at once on a wrong address rather than count errors.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return Result{}, err
	}
	c.Close()
	var next atomic.Int64
	var interval time.Duration
	total := int64(-1)
	if rate > 0 {
		interval = time.Duration(float64(time.Second) / rate)
		total = int64(duration / interval)
	}
	workers := make([]worker, conns)
	start := time.Now()
	deadline := start.Add(duration)
	var wg sync.WaitGroup
	for i := range workers {
		w := &workers[i]
		wg.Go(func() {
			var cn *conn
			for {
				n := next.Add(1) - 1
				due := time.Now()
				if interval > 0 {
					if n >= total {
						break
					}
					due = start.Add(time.Duration(n) * interval)
					if wait := time.Until(due); wait > 0 {
						time.Sleep(wait)
					} else if wait < -time.Millisecond {
						w.late++
					}
				} else if due.After(deadline) {
					break
				}
				if cn == nil {
					var err error
					if cn, err = dial(addr); err != nil {
						w.errs++
						continue
					}
				}
				size, err := cn.roundTrip(req)
				if err != nil {
					w.errs++
					cn.Close()
					cn = nil
					continue
				}
				w.lat = append(w.lat, time.Since(due))
				w.bytes += size
			}
			if cn != nil {
				cn.Close()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	res := Result{Target: rate}
	for _, w := range workers {
		all = append(all, w.lat...)
		res.Errors += w.errs
		res.Late += w.late
		res.Bytes += w.bytes
	}
	slices.Sort(all)
	res.Requests = len(all)
	res.Achieved = float64(len(all)) / elapsed.Seconds()
	if len(all) > 0 {
		res.P50, res.P99, res.P999 = quantile(all, 0.5), quantile(all, 0.99), quantile(all, 0.999)
		res.Max = ms(all[len(all)-1])
	}
	return res, nil
}

// quantile reads q of sorted latencies, in milliseconds: every latency is
// kept, so the figures are exact.
func quantile(sorted []time.Duration, q float64) float64 {
	return ms(sorted[min(len(sorted)-1, int(q*float64(len(sorted))))])
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

type conn struct {
	net.Conn
	r *bufio.Reader
}

func dial(addr string) (*conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c, r: newReader(c)}, nil
}

func newReader(c net.Conn) *bufio.Reader { return bufio.NewReaderSize(c, 64<<10) }

// roundTrip sends req and reads the response whole, returning its body's
// size; a status other than 2xx or 304 is an error. It parses in place,
// allocating nothing, so a server's extra header lines cost the generator,
// which shares the cores, no more than wrk.
func (c *conn) roundTrip(req []byte) (int64, error) {
	if _, err := c.Write(req); err != nil {
		return 0, err
	}
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	// "HTTP/1.1 200 OK": the status is the three bytes after the first space.
	var status [3]byte // copied: the reader's buffer moves on
	if i := bytes.IndexByte(line, ' '); i >= 0 && len(line) >= i+4 {
		copy(status[:], line[i+1:i+4])
	}
	ok := status[0] == '2' || status == [3]byte{'3', '0', '4'}
	length, chunked := int64(0), false
	for {
		h, err := c.r.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		if len(h) <= 2 {
			break
		}
		name, value, _ := bytes.Cut(h, colon)
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, contentLength):
			if length, err = parseDigits(value); err != nil {
				return 0, err
			}
		case bytes.EqualFold(name, transferEncoding):
			chunked = bytes.EqualFold(value, chunkedCoding)
		}
	}
	size := length
	if chunked {
		size, err = c.chunks()
	} else {
		_, err = c.r.Discard(int(length))
	}
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("status %s", string(status[:]))
	}
	return size, nil
}

var colon, contentLength, transferEncoding, chunkedCoding = []byte(":"), []byte("Content-Length"), []byte("Transfer-Encoding"), []byte("chunked")

// parseDigits reads a Content-Length.
func parseDigits(b []byte) (int64, error) {
	if len(b) == 0 || len(b) > 18 {
		return 0, fmt.Errorf("content-length %q", b)
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("content-length %q", b)
		}
		n = n*10 + int64(c-'0')
	}
	return n, nil
}

// chunks reads a chunked body and its end, returning its size.
func (c *conn) chunks() (int64, error) {
	var size int64
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		hex, _, _ := strings.Cut(strings.TrimSpace(string(line)), ";")
		n, err := strconv.ParseInt(hex, 16, 64)
		if err != nil {
			return 0, fmt.Errorf("chunk size %q", hex)
		}
		if n == 0 {
			// Trailers, then the blank line.
			for {
				t, err := c.r.ReadSlice('\n')
				if err != nil {
					return 0, err
				}
				if len(t) <= 2 {
					return size, nil
				}
			}
		}
		if _, err := io.CopyN(io.Discard, c.r, n+2); err != nil {
			return 0, err
		}
		size += n
	}
}

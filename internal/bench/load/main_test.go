package main

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"
)

func TestRequest(t *testing.T) {
	t.Parallel()
	req, addr, err := request("http://127.0.0.1:9/v1/cars?make=Toyota", []string{"Accept-Encoding: gzip"})
	if err != nil {
		t.Fatal(err)
	}
	want := "GET /v1/cars?make=Toyota HTTP/1.1\r\nHost: 127.0.0.1:9\r\nUser-Agent: vds-load\r\nAccept-Encoding: gzip\r\n\r\n"
	if string(req) != want || addr != "127.0.0.1:9" {
		t.Errorf("request = %q, %q; want %q", req, addr, want)
	}
	for _, bad := range []string{"https://x/", "x", "http:///path"} {
		if _, _, err := request(bad, nil); err == nil {
			t.Errorf("request(%q) took it", bad)
		}
	}
	if _, _, err := request("http://x/", []string{"no colon"}); err == nil {
		t.Error("a header without a colon was taken")
	}
}

// serve answers each request read on c with the next of answers.
func serve(t *testing.T, answers ...string) *conn {
	t.Helper()
	client, server := net.Pipe()
	go func() {
		defer server.Close()
		buf := make([]byte, 4096)
		for _, a := range answers {
			if _, err := server.Read(buf); err != nil {
				return
			}
			if _, err := server.Write([]byte(a)); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { client.Close() })
	return &conn{Conn: client, r: newReader(client)}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	c := serve(t,
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4;x=y\r\ndefg\r\n0\r\nT: 1\r\n\r\n",
		"HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n",
		"HTTP/1.1 429 Too Many Requests\r\nContent-Length: 2\r\n\r\n{}",
	)
	for i, want := range []int64{5, 7, 0} {
		n, err := c.roundTrip([]byte("GET / HTTP/1.1\r\n\r\n"))
		if err != nil || n != want {
			t.Fatalf("answer %d: %d bytes, %v; want %d", i, n, err, want)
		}
	}
	if _, err := c.roundTrip([]byte("GET / HTTP/1.1\r\n\r\n")); err == nil || !strings.Contains(err.Error(), "429") {
		t.Errorf("a 429 gave %v, want an error naming it", err)
	}
}

func TestQuantile(t *testing.T) {
	t.Parallel()
	var lat []time.Duration
	for i := range 1000 {
		lat = append(lat, time.Duration(i+1)*time.Millisecond)
	}
	if p50, p99, p999 := quantile(lat, 0.5), quantile(lat, 0.99), quantile(lat, 0.999); p50 != 501 || p99 != 991 || p999 != 1000 {
		t.Errorf("quantiles = %v %v %v, want 501 991 1000", p50, p99, p999)
	}
}

// sink is a connection whose writes go nowhere.
type sink struct{ net.Conn }

func (sink) Write(b []byte) (int, error) { return len(b), nil }

// TestRoundTripAllocatesNothing: the generator shares the cores with the
// server it measures, so a server's extra header lines must not cost it
// allocations (and collections) that wrk does not pay.
func TestRoundTripAllocatesNothing(t *testing.T) {
	answer := "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nCache-Control: private\r\nEtag: \"v1-x\"\r\nVary: Accept-Encoding\r\n\r\nhello"
	c := &conn{Conn: sink{}, r: bufio.NewReader(strings.NewReader(strings.Repeat(answer, 101)))}
	req := []byte("GET / HTTP/1.1\r\n\r\n")
	var size int64
	allocs := testing.AllocsPerRun(100, func() {
		n, err := c.roundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		size += n
	})
	if allocs != 0 || size != 5*101 {
		t.Errorf("%v allocations a round trip and %d body bytes in all; want 0 and %d", allocs, size, 5*101)
	}
}

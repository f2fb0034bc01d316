package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordingConn keeps each Write the wholeConn above it makes.
type recordingConn struct {
	net.Conn
	mu     sync.Mutex
	writes [][]byte
	fail   error
	closed bool
}

func (c *recordingConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail != nil {
		return 0, c.fail
	}
	c.writes = append(c.writes, bytes.Clone(b))
	return len(b), nil
}

func (c *recordingConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.Conn != nil {
		return c.Conn.Close()
	}
	return nil
}

func (c *recordingConn) SetWriteDeadline(time.Time) error { return nil }
func (c *recordingConn) SetDeadline(time.Time) error      { return nil }

func (c *recordingConn) taken() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// response is a response's bytes as net/http writes them.
func response(status string, headers string, body string) string {
	return "HTTP/1.1 " + status + "\r\n" + headers + "Date: Thu, 26 Nov 2026 13:00:00 GMT\r\n\r\n" + body
}

func withLength(body string) string {
	return response("200 OK", "Content-Length: "+strconv.Itoa(len(body))+"\r\nContent-Type: application/json\r\n", body)
}

func TestResponseLength(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("x", 5000)
	tests := []struct {
		name          string
		in            string
		want          int
		informational bool
	}{
		{"length declared", withLength(body), len(withLength(body)), false},
		{"only the headers so far", withLength(body)[:300], len(withLength(body)), false},
		{"length is the last header", response("200 OK", "Content-Length: 3\r\n", "abc"), len(response("200 OK", "Content-Length: 3\r\n", "abc")), false},
		{"empty body", response("204 No Content", "Content-Length: 0\r\n", ""), len(response("204 No Content", "Content-Length: 0\r\n", "")), false},
		{"chunked", response("200 OK", "Transfer-Encoding: chunked\r\n", "5\r\nhello\r\n"), -1, false},
		{"headers not all here", withLength(body)[:40], -1, false},
		{"length in the body only", response("200 OK", "", "\r\nContent-Length: 9\r\n"), -1, false},
		{"another header ending in the name", response("200 OK", "X-Content-Length: 9\r\n", "abc"), -1, false},
		{"length not a number", response("200 OK", "Content-Length: 9x\r\n", "abc"), -1, false},
		{"length empty", response("200 OK", "Content-Length: \r\n", "abc"), -1, false},
		{"longer than held", withLength(strings.Repeat("x", maxWhole+1))[:500], -1, false},
		{"length overflowing int", response("200 OK", "Content-Length: 99999999999999999999999\r\n", ""), -1, false},
		{"100 Continue", "HTTP/1.1 100 Continue\r\n\r\n", -1, true},
		{"103 Early Hints", response("103 Early Hints", "Link: </a>; rel=preload\r\n", ""), -1, true},
		{"not a response", "0\r\n\r\n", -1, false},
		{"too short", "HTTP/1.1 ", -1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, inf := responseLength([]byte(tc.in))
			if n != tc.want || inf != tc.informational {
				t.Errorf("responseLength = %d, %v; want %d, %v", n, inf, tc.want, tc.informational)
			}
		})
	}
}

// step is one call on a wholeConn: a write, or an end of response (the
// deadline net/http sets around each request).
type step struct {
	write string
	end   bool
}

func TestWholeConnWrites(t *testing.T) {
	t.Parallel()
	big := withLength(strings.Repeat("b", 5000))
	head := withLength(strings.Repeat("h", 5000))
	head = head[:strings.Index(head, "\r\n\r\n")+4]
	stream := response("200 OK", "Transfer-Encoding: chunked\r\n", "")
	huge := withLength(strings.Repeat("u", maxWhole))
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"headers split over two writes (longer than net/http's buffer) pass",
			[]step{{write: big[:40]}, {write: big[40:]}},
			[]string{big[:40], big[40:]}},
		{"a response in net/http's two writes leaves in one",
			[]step{{write: big[:4096]}, {write: big[4096:]}, {end: true}},
			[]string{big}},
		{"a response in three writes leaves in one",
			[]step{{write: big[:300]}, {write: big[300:4096]}, {write: big[4096:]}},
			[]string{big}},
		{"a short response passes as it is",
			[]step{{write: withLength("{}")}, {end: true}},
			[]string{withLength("{}")}},
		{"keep-alive: each response is whole",
			[]step{{end: true}, {write: big[:4096]}, {write: big[4096:]}, {end: true},
				{end: true}, {write: big[:4096]}, {write: big[4096:]}, {end: true}},
			[]string{big, big}},
		{"a stream passes as it comes",
			[]step{{write: stream + "5\r\nhello\r\n"}, {write: "5\r\nworld\r\n"}, {write: "0\r\n\r\n"}, {end: true}},
			[]string{stream + "5\r\nhello\r\n", "5\r\nworld\r\n", "0\r\n\r\n"}},
		{"a body that looks like a response is not read as one",
			[]step{{write: stream}, {write: big[:4096]}, {write: big[4096:]}, {end: true}},
			[]string{stream, big[:4096], big[4096:]}},
		{"a HEAD answer is written when the response ends",
			[]step{{write: head}, {end: true}, {write: big[:4096]}, {write: big[4096:]}},
			[]string{head, big}},
		{"100 Continue leaves at once and the response is still whole",
			[]step{{write: "HTTP/1.1 100 Continue\r\n\r\n"}, {write: big[:4096]}, {write: big[4096:]}},
			[]string{"HTTP/1.1 100 Continue\r\n\r\n", big}},
		{"a response longer than maxWhole passes as it comes",
			[]step{{write: huge[:4096]}, {write: huge[4096:]}},
			[]string{huge[:4096], huge[4096:]}},
		{"a response cut short is written when it ends",
			[]step{{write: big[:4096]}, {end: true}},
			[]string{big[:4096]}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rc := &recordingConn{}
			c := &wholeConn{Conn: rc}
			for i, s := range tc.steps {
				if s.end {
					if err := c.SetWriteDeadline(time.Time{}); err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
					continue
				}
				n, err := c.Write([]byte(s.write))
				if err != nil || n != len(s.write) {
					t.Fatalf("step %d: Write = %d, %v; want %d, nil", i, n, err, len(s.write))
				}
			}
			got := rc.taken()
			if len(got) != len(tc.want) {
				t.Fatalf("%d writes reached the network, want %d", len(got), len(tc.want))
			}
			for i := range got {
				if string(got[i]) != tc.want[i] {
					t.Errorf("write %d: %d bytes, want %d: %.60q", i, len(got[i]), len(tc.want[i]), got[i])
				}
			}
		})
	}
}

func TestWholeConnFailedWrite(t *testing.T) {
	t.Parallel()
	big := withLength(strings.Repeat("b", 5000))
	broken := errors.New("connection reset")

	t.Run("the write completing the response reports the error", func(t *testing.T) {
		rc := &recordingConn{fail: broken}
		c := &wholeConn{Conn: rc}
		if _, err := c.Write([]byte(big[:4096])); err != nil {
			t.Fatalf("held write: %v", err)
		}
		if _, err := c.Write([]byte(big[4096:])); !errors.Is(err, broken) {
			t.Fatalf("completing write: %v, want %v", err, broken)
		}
	})
	t.Run("a failed write at the end of a response closes the connection", func(t *testing.T) {
		rc := &recordingConn{fail: broken}
		c := &wholeConn{Conn: rc}
		if _, err := c.Write([]byte(big[:4096])); err != nil {
			t.Fatalf("held write: %v", err)
		}
		_ = c.SetWriteDeadline(time.Time{})
		if !rc.closed {
			t.Fatal("the connection stayed open after its response could not be written")
		}
	})
}

// countingListener counts the writes on every connection it accepts.
type countingListener struct {
	net.Listener
	mu    sync.Mutex
	conns []*recordingConn
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	rc := &passingConn{recordingConn{Conn: c}}
	l.mu.Lock()
	l.conns = append(l.conns, &rc.recordingConn)
	l.mu.Unlock()
	return rc, nil
}

// passingConn records writes and passes them on, deadlines included.
type passingConn struct{ recordingConn }

func (c *passingConn) Write(b []byte) (int, error) {
	_, _ = c.recordingConn.Write(b)
	return c.Conn.Write(b)
}

func (c *passingConn) SetWriteDeadline(t time.Time) error { return c.Conn.SetWriteDeadline(t) }
func (c *passingConn) SetDeadline(t time.Time) error      { return c.Conn.SetDeadline(t) }

// TestWholeResponsesOverHTTP serves through net/http on loopback: a
// response of known length reaches the network in one write, keep-alive
// and HEAD still work, and a stream is not held.
func TestWholeResponsesOverHTTP(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("c", 9000)
	sent := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/whole", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = io.WriteString(w, body)
	})
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "first\n")
		w.(http.Flusher).Flush()
		select { // the client reads "first" before the handler returns
		case <-sent:
		case <-time.After(10 * time.Second):
		}
		_, _ = io.WriteString(w, "second\n")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counting := &countingListener{Listener: ln}
	hs := &http.Server{Handler: mux, WriteTimeout: 10 * time.Second, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(problemListener{counting, slog.New(slog.DiscardHandler)}) }()
	t.Cleanup(func() { _ = hs.Close() })

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	get := func(method, path string) *http.Response {
		t.Helper()
		fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: vds\r\n\r\n", method, path)
		resp, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	for i := range 3 {
		resp := get(http.MethodGet, "/whole")
		got, _ := io.ReadAll(resp.Body)
		if string(got) != body {
			t.Fatalf("request %d: %d bytes of body, want %d", i, len(got), len(body))
		}
	}
	if resp := get(http.MethodHead, "/whole"); resp.ContentLength != int64(len(body)) {
		t.Fatalf("HEAD: Content-Length %d, want %d", resp.ContentLength, len(body))
	}
	if resp := get(http.MethodGet, "/whole"); resp.StatusCode != http.StatusOK {
		t.Fatalf("after HEAD: %s", resp.Status)
	} else {
		_, _ = io.Copy(io.Discard, resp.Body)
	}
	counting.mu.Lock()
	rc := counting.conns[0]
	counting.mu.Unlock()
	writes := rc.taken()
	if len(writes) != 5 {
		t.Fatalf("5 responses took %d writes, want one each", len(writes))
	}
	for i, w := range writes {
		if i != 3 && !bytes.HasSuffix(w, []byte(body)) {
			t.Errorf("write %d does not carry the whole response: %d bytes", i, len(w))
		}
	}

	// Held, the first part would come only when the handler returns, 10 s on.
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp := get(http.MethodGet, "/stream")
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	close(sent)
	if err != nil || line != "first\n" {
		t.Fatalf("the stream's first part: %q, %v", line, err)
	}
}

// discardConn takes every write.
type discardConn struct{ net.Conn }

func (discardConn) Write(b []byte) (int, error)      { return len(b), nil }
func (discardConn) SetWriteDeadline(time.Time) error { return nil }

// Holding a response costs no allocation once the pool has a buffer.
func TestWholeConnAllocations(t *testing.T) {
	big := []byte(withLength(strings.Repeat("b", 5000)))
	c := &wholeConn{Conn: discardConn{}}
	allocs := testing.AllocsPerRun(1000, func() {
		_, _ = c.Write(big[:4096])
		_, _ = c.Write(big[4096:])
		_ = c.SetWriteDeadline(time.Time{})
	})
	if allocs != 0 {
		t.Errorf("a held response allocates %.1f times, want 0", allocs)
	}
}

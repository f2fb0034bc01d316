package server

import (
	"log/slog"
	"net"
	"testing"
)

// halfClosing records CloseWrite, as a *net.TCPConn would do it.
type halfClosing struct {
	net.Conn
	closedWrite bool
	wrote       int
}

func (c *halfClosing) CloseWrite() error           { c.closedWrite = true; return nil }
func (c *halfClosing) Write(b []byte) (int, error) { c.wrote += len(b); return len(b), nil }
func (c *halfClosing) RemoteAddr() net.Addr        { return &net.TCPAddr{} }

// TestProblemConnPassesThrough: net/http's half-close reaches the TCP
// connection, and a handler's short answer is written as it is without a
// pattern match (which would allocate).
func TestProblemConnPassesThrough(t *testing.T) {
	inner := &halfClosing{}
	var c net.Conn = &problemConn{Conn: inner, log: slog.New(slog.DiscardHandler)}
	cw, ok := c.(interface{ CloseWrite() error })
	if !ok || cw.CloseWrite() != nil || !inner.closedWrite {
		t.Fatalf("CloseWrite: offered %v, reached the connection %v", ok, inner.closedWrite)
	}
	answers := [][]byte{
		[]byte("HTTP/1.1 304 Not Modified\r\nCache-Control: private, max-age=60\r\nEtag: \"v3-0123456789abcdef\"\r\nDate: Fri, 27 Nov 2026 21:00:00 GMT\r\n\r\n"),
		[]byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nDate: Fri, 27 Nov 2026 21:00:00 GMT\r\nContent-Length: 2\r\n\r\nok"),
	}
	allocs := testing.AllocsPerRun(100, func() {
		for _, a := range answers {
			if n, err := c.Write(a); n != len(a) || err != nil {
				t.Fatalf("Write: %d, %v", n, err)
			}
		}
	})
	if allocs != 0 || inner.wrote != 101*(len(answers[0])+len(answers[1])) {
		t.Errorf("%v allocations per pair of answers, %d bytes written; want 0 and the answers as they are", allocs, inner.wrote)
	}
}

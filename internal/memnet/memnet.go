// Package memnet serves HTTP over net.Pipe for tests in a testing/synctest
// bubble: a goroutine blocked on a pipe is durably blocked, so the bubble's
// clock can advance; one blocked on a loopback socket is not.
package memnet

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Server is an httptest.Server on in-memory connections.
type Server struct {
	*httptest.Server
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// NewServer starts h and closes it when t ends; start it in the bubble
// that uses it. Its Client dials it.
func NewServer(t testing.TB, h http.Handler) *Server {
	s := &Server{conns: make(chan net.Conn), done: make(chan struct{})}
	s.Server = &httptest.Server{Listener: listener{s}, Config: &http.Server{Handler: h}}
	s.Start()
	s.Client().Transport.(*http.Transport).DialContext = s.DialContext
	t.Cleanup(s.Close)
	return s
}

// DialContext connects to the server, whatever the address, as an
// http.Transport's DialContext does; a closed server refuses.
func (s *Server) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	cli, srv := net.Pipe()
	select {
	case s.conns <- srv:
		return cli, nil
	case <-s.done:
	case <-ctx.Done():
	}
	_ = cli.Close()
	_ = srv.Close()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, &net.OpError{Op: "dial", Net: "memnet", Err: net.ErrClosed}
}

type listener struct{ s *Server }

func (l listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.s.conns:
		return c, nil
	case <-l.s.done:
		return nil, net.ErrClosed
	}
}

func (l listener) Close() error {
	l.s.once.Do(func() { close(l.s.done) })
	return nil
}

func (l listener) Addr() net.Addr { return addr{} }

// addr makes the URL http://memnet.test, which nothing resolves.
type addr struct{}

func (addr) Network() string { return "memnet" }
func (addr) String() string  { return "memnet.test" }

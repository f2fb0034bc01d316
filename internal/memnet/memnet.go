// Package memnet serves HTTP over in-memory connections (net.Pipe) for
// tests in a testing/synctest bubble: a goroutine blocked on a pipe is
// durably blocked, so the bubble's clock can advance; one blocked on a
// loopback socket is not.
package memnet

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Listener hands each Dial's server end to Accept.
type Listener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// NewListener returns an open Listener.
func NewListener() *Listener {
	return &Listener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept waits for a Dial or Close.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close makes Accept and later Dials fail.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is the host of the server's URL; nothing resolves it.
func (l *Listener) Addr() net.Addr { return addr{} }

// DialContext connects to the listener, whatever the address; it is an
// http.Transport's DialContext. A closed listener refuses, as a closed port does.
func (l *Listener) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	cli, srv := net.Pipe()
	select {
	case l.conns <- srv:
		return cli, nil
	case <-l.done:
	case <-ctx.Done():
	}
	_ = cli.Close()
	_ = srv.Close()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return nil, &net.OpError{Op: "dial", Net: "memnet", Err: net.ErrClosed}
}

type addr struct{}

func (addr) Network() string { return "memnet" }
func (addr) String() string  { return "memnet.test" }

// Server is an httptest.Server on a Listener.
type Server struct {
	*httptest.Server
	Listener *Listener
}

// NewServer starts h on a new Listener and closes it when t ends; start
// it inside the bubble that uses it. Its Client dials the listener.
func NewServer(t testing.TB, h http.Handler) *Server {
	l := NewListener()
	s := &Server{Server: &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}, Listener: l}
	s.Start()
	s.Client().Transport.(*http.Transport).DialContext = l.DialContext
	t.Cleanup(s.Close)
	return s
}
